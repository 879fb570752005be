import { FOOTER, type TStarterFormatInput } from './shared.ts';

export const offerLetter: TStarterFormatInput = {
  id: 'offer-letter',
  name: 'Offer letter',
  description: 'A job offer with role, start date, salary and terms.',
  category: 'Human resources',
  content: {
    style: { fontFamily: 'Inter', fontSize: 14, color: '#1f2937' },
    footer: FOOTER,
    elements: [
      { id: 'ol-1', type: 'heading', level: 1, content: '{{company_name}}', fontSize: 'text-2xl', style: { color: '#3730a3' } },
      { id: 'ol-2', type: 'paragraph', content: '**{{candidate_name}}**\n{{candidate_email}}' },
      { id: 'ol-3', type: 'heading', level: 2, content: 'Offer of employment: {{job_title}}', fontSize: 'text-xl' },
      {
        id: 'ol-4',
        type: 'paragraph',
        content:
          'Dear {{candidate_name}},\n\nWe are delighted to offer you the position of **{{job_title}}** at {{company_name}}. We were impressed by your experience, and we believe you will make a real difference to the team.',
      },
      {
        id: 'ol-5',
        type: 'table',
        headerRow: true,
        columnWidths: [35, 65],
        rows: [
          ['Term', 'Details'],
          ['Position', '{{job_title}}'],
          ['Employment type', '{{employment_type}}'],
          ['Start date', '{{start_date}}'],
          ['Annual salary', '{{annual_salary}}'],
          ['Reports to', '{{manager_name}}'],
        ],
      },
      {
        id: 'ol-6',
        type: 'paragraph',
        content:
          'This offer is subject to satisfactory references and proof of your right to work. Your benefits, working hours and notice period are set out in the enclosed employment contract.',
      },
      {
        id: 'ol-7',
        type: 'paragraph',
        content:
          'Please confirm your acceptance by signing below and returning a copy within seven days. If you have any questions, contact {{manager_name}} directly.\n\nWe look forward to welcoming you.',
      },
      { id: 'ol-8', type: 'paragraph', content: 'Yours sincerely,\n\n\n{{manager_name}}\n{{company_name}}' },
      {
        id: 'ol-9',
        type: 'paragraph',
        content: '**Acceptance**\nI accept this offer on the terms above.\n\nSignature: ______________________________     Date: ______________',
      },
    ],
  },
  placeholders: [
    { name: 'company_name', type: 'text', required: true },
    { name: 'candidate_name', type: 'text', required: true },
    { name: 'candidate_email', type: 'email', required: true },
    { name: 'job_title', type: 'text', required: true },
    { name: 'employment_type', type: 'select', required: true, options: ['Full-time', 'Part-time', 'Fixed-term contract'] },
    { name: 'start_date', type: 'date', required: true },
    { name: 'annual_salary', type: 'number', required: true, display: 'currency' },
    { name: 'manager_name', type: 'text', required: true, label: 'Hiring manager' },
  ],
};
