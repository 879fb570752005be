import { ZFormatContent, type TFormatContent, type TFormatContentInput } from './format-content.ts';
import { ZPlaceholderList, type TPlaceholder, type TPlaceholderInput } from './placeholders.ts';

/**
 * Starter formats: documents a business really sends, laid out and with typed placeholders, so a
 * newcomer's first PDF is a change of a few words away. They open in the builder as unsaved drafts.
 */
interface TStarterFormatInput {
  id: string;
  name: string;
  description: string;
  category: string;
  content: TFormatContentInput;
  placeholders: TPlaceholderInput[];
}

export interface TStarterFormat extends Omit<TStarterFormatInput, 'content' | 'placeholders'> {
  content: TFormatContent;
  placeholders: TPlaceholder[];
}

const FOOTER = { text: 'Page {{page}} of {{pages}}', align: 'center' as const, style: { fontSize: 12 as const, color: '#6b7280' } };

const offerLetter: TStarterFormatInput = {
  id: 'offer-letter',
  name: 'Offer letter',
  description: 'A job offer with role, start date, salary and terms.',
  category: 'Human resources',
  content: {
    style: { fontFamily: 'Inter', fontSize: 14, color: '#1f2937' },
    footer: FOOTER,
    elements: [
      { id: 'ol-1', type: 'heading', content: '{{company_name}}', fontSize: 'text-2xl', style: { color: '#3730a3' } },
      { id: 'ol-2', type: 'paragraph', content: '**{{candidate_name}}**\n{{candidate_email}}' },
      { id: 'ol-3', type: 'heading', content: 'Offer of employment: {{job_title}}', fontSize: 'text-xl' },
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
    { name: 'annual_salary', type: 'number', required: true },
    { name: 'manager_name', type: 'text', required: true, label: 'Hiring manager' },
  ],
};

const nda: TStarterFormatInput = {
  id: 'nda',
  name: 'Mutual NDA',
  description: 'A two-way non-disclosure agreement for early business talks.',
  category: 'Legal',
  content: {
    style: { fontFamily: 'Times New Roman', fontSize: 14, color: '#111827' },
    footer: FOOTER,
    elements: [
      { id: 'nda-1', type: 'heading', content: 'Mutual Non-Disclosure Agreement', fontSize: 'text-2xl', align: 'center' },
      {
        id: 'nda-2',
        type: 'paragraph',
        align: 'center',
        content: 'Effective {{effective_date}}',
        style: { color: '#4b5563' },
      },
      {
        id: 'nda-3',
        type: 'paragraph',
        content:
          'This agreement is made between **{{party_a_name}}**, of {{party_a_address}} ("Party A"), and **{{party_b_name}}**, of {{party_b_address}} ("Party B"), who wish to discuss {{purpose}} (the "Purpose").',
      },
      {
        id: 'nda-4',
        type: 'list',
        listStyle: 'numbered',
        items: [
          '**Confidential information.** Any information one party discloses to the other for the Purpose, in any form, that is marked confidential or would reasonably be understood to be confidential.',
          '**Obligations.** Each party will use the other\'s confidential information only for the Purpose, protect it with at least reasonable care, and share it only with people who need to know it and are bound by similar duties.',
          '**Exclusions.** These obligations do not apply to information that is public through no fault of the recipient, was already known to it, is independently developed, or must be disclosed by law.',
          '**Term.** This agreement lasts {{term_years}} years from the effective date. The duty of confidence survives its end for the same period.',
          '**Return of information.** On request, each party will return or destroy the other\'s confidential information.',
          '**No licence.** Nothing in this agreement grants any right in the other party\'s intellectual property.',
          '**Governing law.** This agreement is governed by the laws of {{governing_law}}.',
        ],
      },
      {
        id: 'nda-5',
        type: 'table',
        headerRow: true,
        columnWidths: [50, 50],
        rows: [
          ['Party A', 'Party B'],
          ['{{party_a_name}}', '{{party_b_name}}'],
          ['Signature:', 'Signature:'],
          ['Name: {{party_a_signatory}}', 'Name: {{party_b_signatory}}'],
          ['Date:', 'Date:'],
        ],
      },
    ],
  },
  placeholders: [
    { name: 'effective_date', type: 'date', required: true },
    { name: 'party_a_name', type: 'text', required: true, label: 'Party A name' },
    { name: 'party_a_address', type: 'textarea', required: true, label: 'Party A address' },
    { name: 'party_a_signatory', type: 'text', required: true, label: 'Party A signatory' },
    { name: 'party_b_name', type: 'text', required: true, label: 'Party B name' },
    { name: 'party_b_address', type: 'textarea', required: true, label: 'Party B address' },
    { name: 'party_b_signatory', type: 'text', required: true, label: 'Party B signatory' },
    { name: 'purpose', type: 'text', required: true, label: 'Purpose of the talks' },
    { name: 'term_years', type: 'number', required: true, label: 'Term (years)' },
    {
      name: 'governing_law',
      type: 'select',
      required: true,
      options: ['England and Wales', 'the State of New York', 'the State of California', 'Delaware', 'India', 'Germany'],
    },
  ],
};

const invoice: TStarterFormatInput = {
  id: 'invoice',
  name: 'Invoice',
  description: 'An itemised invoice with tax, total, due date and payment details.',
  category: 'Finance',
  content: {
    style: { fontFamily: 'Inter', fontSize: 14, color: '#1f2937' },
    footer: { text: 'Thank you for your business.', align: 'center', style: { fontSize: 12, color: '#6b7280' } },
    elements: [
      { id: 'inv-1', type: 'heading', content: 'INVOICE', fontSize: 'text-3xl', align: 'right', style: { color: '#3730a3' } },
      {
        id: 'inv-2',
        type: 'table',
        columnWidths: [55, 45],
        rows: [
          ['**{{business_name}}**\n{{business_address}}', '**Invoice no.** {{invoice_number}}\n**Issued** {{issue_date}}\n**Due** {{due_date}}'],
        ],
      },
      { id: 'inv-3', type: 'paragraph', content: '**Bill to**\n{{client_name}}\n{{client_email}}\n{{client_address}}' },
      {
        id: 'inv-4',
        type: 'table',
        headerRow: true,
        columnWidths: [64, 36],
        rows: [
          ['Description', 'Amount'],
          ['{{item_1}}', '{{item_1_amount}}'],
          ['{{item_2}}', '{{item_2_amount}}'],
          ['{{item_3}}', '{{item_3_amount}}'],
          ['**Subtotal**', '{{subtotal}}'],
          ['Tax ({{tax_rate}}%)', '{{tax_amount}}'],
          ['**Total due ({{currency}})**', '**{{total}}**'],
        ],
      },
      { id: 'inv-5', type: 'heading', content: 'Payment', fontSize: 'text-xl' },
      {
        id: 'inv-6',
        type: 'paragraph',
        content: 'Please pay within {{payment_terms}} of the issue date, quoting invoice **{{invoice_number}}**.\n{{payment_details}}',
      },
    ],
  },
  placeholders: [
    { name: 'business_name', type: 'text', required: true, label: 'Your business name' },
    { name: 'business_address', type: 'textarea', required: true, label: 'Your business address' },
    { name: 'invoice_number', type: 'text', required: true },
    { name: 'issue_date', type: 'date', required: true },
    { name: 'due_date', type: 'date', required: true },
    { name: 'client_name', type: 'text', required: true },
    { name: 'client_email', type: 'email', required: false },
    { name: 'client_address', type: 'textarea', required: false },
    { name: 'item_1', type: 'text', required: true, label: 'Item 1' },
    { name: 'item_1_amount', type: 'number', required: true, label: 'Item 1 amount' },
    { name: 'item_2', type: 'text', required: false, label: 'Item 2' },
    { name: 'item_2_amount', type: 'number', required: false, label: 'Item 2 amount' },
    { name: 'item_3', type: 'text', required: false, label: 'Item 3' },
    { name: 'item_3_amount', type: 'number', required: false, label: 'Item 3 amount' },
    { name: 'subtotal', type: 'number', required: true },
    { name: 'tax_rate', type: 'number', required: true, label: 'Tax rate (%)' },
    { name: 'tax_amount', type: 'number', required: true },
    { name: 'total', type: 'number', required: true },
    { name: 'currency', type: 'select', required: true, options: ['USD', 'EUR', 'GBP', 'INR'] },
    { name: 'payment_terms', type: 'select', required: true, options: ['7 days', '14 days', '30 days', '60 days'] },
    { name: 'payment_details', type: 'textarea', required: true, label: 'Bank or payment details' },
  ],
};

const rentalAgreement: TStarterFormatInput = {
  id: 'rental-agreement',
  name: 'Rental agreement',
  description: 'A residential lease: parties, property, rent, deposit and house rules.',
  category: 'Real estate',
  content: {
    style: { fontFamily: 'Times New Roman', fontSize: 14, color: '#111827' },
    footer: FOOTER,
    elements: [
      { id: 'ra-1', type: 'heading', content: 'Residential Rental Agreement', fontSize: 'text-2xl', align: 'center' },
      {
        id: 'ra-2',
        type: 'paragraph',
        content:
          'This agreement is made on {{agreement_date}} between **{{landlord_name}}** ("the Landlord") and **{{tenant_name}}** ("the Tenant") for the property at:\n{{property_address}}',
      },
      {
        id: 'ra-3',
        type: 'table',
        headerRow: true,
        columnWidths: [40, 60],
        rows: [
          ['Term', 'Agreed'],
          ['Lease starts', '{{lease_start}}'],
          ['Lease ends', '{{lease_end}}'],
          ['Monthly rent', '{{monthly_rent}}, due on day {{rent_due_day}} of each month'],
          ['Security deposit', '{{deposit}}'],
          ['Furnishing', '{{furnishing}}'],
        ],
      },
      { id: 'ra-4', type: 'heading', content: 'Terms', fontSize: 'text-xl' },
      {
        id: 'ra-5',
        type: 'list',
        listStyle: 'numbered',
        items: [
          'The Tenant pays the rent on time and the utilities not included in it.',
          'The deposit is returned within 30 days of the end of the lease, less the cost of repairing any damage beyond normal wear and tear.',
          'The Tenant keeps the property clean and in good repair, and reports any damage promptly.',
          'The Tenant does not sublet or make alterations without the Landlord\'s written consent.',
          'The Landlord gives at least 24 hours\' notice before entering, except in an emergency.',
          'Either party may end this agreement at its end date by giving {{notice_days}} days\' written notice.',
        ],
      },
      {
        id: 'ra-6',
        type: 'table',
        columnWidths: [50, 50],
        rows: [
          ['**Landlord**\n{{landlord_name}}\n{{landlord_phone}}\n\nSignature: ____________________', '**Tenant**\n{{tenant_name}}\n{{tenant_phone}}\n\nSignature: ____________________'],
        ],
      },
    ],
  },
  placeholders: [
    { name: 'agreement_date', type: 'date', required: true },
    { name: 'landlord_name', type: 'text', required: true },
    { name: 'landlord_phone', type: 'tel', required: false },
    { name: 'tenant_name', type: 'text', required: true },
    { name: 'tenant_phone', type: 'tel', required: false },
    { name: 'property_address', type: 'textarea', required: true },
    { name: 'lease_start', type: 'date', required: true },
    { name: 'lease_end', type: 'date', required: true },
    { name: 'monthly_rent', type: 'number', required: true },
    { name: 'rent_due_day', type: 'number', required: true, label: 'Rent due (day of month)' },
    { name: 'deposit', type: 'number', required: true, label: 'Security deposit' },
    { name: 'furnishing', type: 'select', required: true, options: ['Unfurnished', 'Part furnished', 'Fully furnished'] },
    { name: 'notice_days', type: 'number', required: true, label: 'Notice period (days)' },
  ],
};

const patientConsent: TStarterFormatInput = {
  id: 'patient-consent',
  name: 'Patient consent form',
  description: 'Informed consent for a procedure, with risks and signatures.',
  category: 'Healthcare',
  content: {
    style: { fontFamily: 'Arial', fontSize: 14, color: '#111827' },
    footer: FOOTER,
    elements: [
      { id: 'pc-1', type: 'heading', content: '{{clinic_name}}', fontSize: 'text-xl', style: { color: '#0f766e' } },
      { id: 'pc-2', type: 'heading', content: 'Consent to Treatment', fontSize: 'text-2xl' },
      {
        id: 'pc-3',
        type: 'table',
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

const certificate: TStarterFormatInput = {
  id: 'certificate',
  name: 'Certificate of completion',
  description: 'A one-page landscape certificate for a course or training.',
  category: 'Education',
  content: {
    style: { fontFamily: 'Times New Roman', fontSize: 18, color: '#1f2937' },
    page: { size: 'A4', orientation: 'landscape', margins: { top: 30, right: 30, bottom: 25, left: 30 } },
    elements: [
      { id: 'ce-1', type: 'heading', content: '{{issuer_name}}', fontSize: 'text-xl', align: 'center', style: { color: '#92400e' } },
      { id: 'ce-2', type: 'heading', content: 'Certificate of Completion', fontSize: 'text-4xl', align: 'center' },
      { id: 'ce-3', type: 'paragraph', content: 'This certifies that', align: 'center', italic: true },
      { id: 'ce-4', type: 'heading', content: '{{recipient_name}}', fontSize: 'text-3xl', align: 'center', style: { color: '#3730a3' } },
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

/** Parsed with the schemas every saved format passes, so a starter is exactly what a save would store. */
export const STARTER_FORMATS: readonly TStarterFormat[] = [offerLetter, nda, invoice, rentalAgreement, patientConsent, certificate].map(
  (starter) => ({ ...starter, content: ZFormatContent.parse(starter.content), placeholders: ZPlaceholderList.parse(starter.placeholders) }),
);
