import { type TStarterFormatInput } from './shared.ts';

export const certificate: TStarterFormatInput = {
  id: 'certificate',
  name: 'Certificate of completion',
  description: 'A one-page landscape certificate for a course or training.',
  category: 'Education',
  content: {
    style: { fontFamily: 'Times New Roman', fontSize: 18, color: '#1f2937' },
    page: { size: 'A4', orientation: 'landscape', margins: { top: 30, right: 30, bottom: 25, left: 30 } },
    elements: [
      { id: 'ce-1', type: 'heading', level: 1, content: '{{issuer_name}}', fontSize: 'text-xl', align: 'center', style: { color: '#92400e' } },
      { id: 'ce-2', type: 'heading', level: 1, content: 'Certificate of Completion', fontSize: 'text-4xl', align: 'center' },
      { id: 'ce-3', type: 'paragraph', content: 'This certifies that', align: 'center', italic: true },
      { id: 'ce-4', type: 'heading', level: 2, content: '{{recipient_name}}', fontSize: 'text-3xl', align: 'center', style: { color: '#3730a3' } },
      {
        id: 'ce-5',
        type: 'paragraph',
        align: 'center',
        content: 'has successfully completed\n**{{course_name}}**\n{{course_hours}} hours, completed on {{completion_date}}',
      },
      {
        id: 'ce-6',
        type: 'paragraph',
        align: 'center',
        content: '\n\n______________________________\n**{{signatory_name}}**\n{{signatory_title}}',
      },
      {
        id: 'ce-7',
        type: 'paragraph',
        align: 'center',
        content: '\nCertificate no. {{certificate_id}} · Verify at {{verify_email}}',
        style: { fontSize: 12, color: '#6b7280' },
      },
    ],
  },
  placeholders: [
    { name: 'issuer_name', type: 'text', required: true, label: 'Issued by' },
    { name: 'recipient_name', type: 'text', required: true },
    { name: 'course_name', type: 'text', required: true },
    { name: 'course_hours', type: 'number', required: true, label: 'Course hours' },
    { name: 'completion_date', type: 'date', required: true },
    { name: 'signatory_name', type: 'text', required: true },
    { name: 'signatory_title', type: 'text', required: true },
    { name: 'certificate_id', type: 'text', required: true, label: 'Certificate number' },
    { name: 'verify_email', type: 'email', required: false, label: 'Verification email' },
  ],
};
