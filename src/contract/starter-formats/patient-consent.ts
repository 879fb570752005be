import { FOOTER, type TStarterFormatInput } from './shared.ts';

export const patientConsent: TStarterFormatInput = {
  id: 'patient-consent',
  name: 'Patient consent form',
  description: 'Informed consent for a procedure, with risks and signatures.',
  category: 'Healthcare',
  content: {
    style: { fontFamily: 'Arial', fontSize: 14, color: '#111827' },
    footer: FOOTER,
    elements: [
      { id: 'pc-1', type: 'heading', level: 1, content: '{{clinic_name}}', fontSize: 'text-xl', style: { color: '#0f766e' } },
      { id: 'pc-2', type: 'heading', level: 1, content: 'Consent to Treatment', fontSize: 'text-2xl' },
      {
        id: 'pc-3',
        type: 'table',
        headerColumn: true,
        columnWidths: [35, 65],
        rows: [
          ['**Patient**', '{{patient_name}}'],
          ['**Date of birth**', '{{date_of_birth}}'],
          ['**Phone**', '{{patient_phone}}'],
          ['**Procedure**', '{{procedure}}'],
          ['**Physician**', '{{physician_name}}'],
          ['**Scheduled for**', '{{procedure_date}}'],
        ],
      },
      {
        id: 'pc-4',
        type: 'paragraph',
        content:
          'I confirm that {{physician_name}} has explained to me the nature and purpose of the procedure named above, the expected benefits, the alternatives, and the risks, including:',
      },
      { id: 'pc-5', type: 'paragraph', content: '{{risks_discussed}}', style: { color: '#374151' } },
      {
        id: 'pc-6',
        type: 'list',
        listStyle: 'bulleted',
        items: [
          'I have had the chance to ask questions, and they were answered to my satisfaction.',
          'I understand that I may withdraw my consent at any time before the procedure.',
          'I consent to the anaesthesia the physician judges appropriate: **{{anaesthesia}}**.',
          'I have told the care team about my allergies and current medicines: {{allergies}}.',
        ],
      },
      {
        id: 'pc-7',
        type: 'paragraph',
        content:
          '\nPatient signature: ______________________________     Date: ______________\n\nPhysician signature: ____________________________     Date: ______________',
      },
    ],
  },
  placeholders: [
    { name: 'clinic_name', type: 'text', required: true },
    { name: 'patient_name', type: 'text', required: true },
    { name: 'date_of_birth', type: 'date', required: true },
    { name: 'patient_phone', type: 'tel', required: true },
    { name: 'procedure', type: 'text', required: true },
    { name: 'procedure_date', type: 'date', required: true },
    { name: 'physician_name', type: 'text', required: true },
    { name: 'risks_discussed', type: 'textarea', required: true },
    { name: 'anaesthesia', type: 'select', required: true, options: ['None', 'Local', 'Sedation', 'General'] },
    { name: 'allergies', type: 'textarea', required: false, label: 'Allergies and medicines' },
  ],
};
