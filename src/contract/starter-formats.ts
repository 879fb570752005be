import { ZFormatContent, type TElementInput, type TFormatContent, type TFormatContentInput } from './format-content.ts';
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

const LINE_ITEMS = {
  type: 'list',
  required: true,
  label: 'Line items',
  columns: [
    { name: 'description', type: 'text', required: true },
    { name: 'qty', label: 'Qty', type: 'number', required: true },
    { name: 'unit_price', label: 'Unit price', type: 'number', required: true },
    { name: 'amount', type: 'formula', expression: 'qty * unit_price' },
  ],
} as const;

/** A table of line items (its second row repeats once per item), then the totals. */
function linesTable(id: string, totals: string[][]): TElementInput {
  return {
    id,
    type: 'table',
    headerRow: true,
    columnWidths: [52, 10, 19, 19],
    rows: [['Description', 'Qty', 'Unit price', 'Amount'], ['{{description}}', '{{qty}}', '{{unit_price | currency}}', '{{amount | currency}}'], ...totals],
    repeat: { row: 1, list: 'items' },
  };
}

const invoice: TStarterFormatInput = {
  id: 'invoice',
  name: 'Invoice',
  description: 'Line items of any length, tax computed from your rate, totals to the cent, due date and payment details.',
  category: 'Finance',
  content: {
    style: { fontFamily: 'Inter', fontSize: 14, color: '#1f2937' },
    currency: 'USD',
    tagFormats: true,
    footer: { text: 'Thank you for your business.  ·  Page {{page}} of {{pages}}', align: 'center', style: { fontSize: 12, color: '#6b7280' } },
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
      linesTable('inv-4', [
        ['', '', '**Subtotal**', '{{subtotal | currency}}'],
        ['', '', 'Tax ({{tax_rate}}%)', '{{tax | currency}}'],
        ['', '', '**Total due**', '**{{total | currency}}**'],
      ]),
      {
        id: 'inv-5',
        type: 'paragraph',
        content: '**Reverse charge:** no tax is charged on this invoice. The customer accounts for the tax under the reverse-charge rules.',
        style: { color: '#4b5563' },
        showIf: { match: 'all', conditions: [{ field: 'reverse_charge', op: 'equals', value: 'true' }] },
      },
      { id: 'inv-6', type: 'heading', content: 'Payment', fontSize: 'text-xl' },
      {
        id: 'inv-7',
        type: 'paragraph',
        content: 'Please pay {{total | currency}} within {{payment_terms}} of the issue date, quoting invoice **{{invoice_number}}**.\n{{payment_details}}',
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
    { name: 'items', ...LINE_ITEMS, columns: [...LINE_ITEMS.columns] },
    { name: 'tax_rate', type: 'number', required: true, label: 'Tax rate (%)' },
    { name: 'reverse_charge', type: 'checkbox', label: 'Reverse charge (no tax charged)' },
    { name: 'subtotal', type: 'formula', expression: 'sum(items.amount)' },
    { name: 'tax', type: 'formula', expression: 'if(reverse_charge, 0, round(subtotal * tax_rate / 100, 2))' },
    { name: 'total', type: 'formula', expression: 'subtotal + tax' },
    { name: 'payment_terms', type: 'select', required: true, options: ['7 days', '14 days', '30 days', '60 days'] },
    { name: 'payment_details', type: 'textarea', required: true, label: 'Bank or payment details' },
  ],
};

const quotation: TStarterFormatInput = {
  id: 'quotation',
  name: 'Quotation',
  description: 'A priced proposal: line items with discounts, tax and total, an optional deposit, and an acceptance block.',
  category: 'Sales',
  content: {
    style: { fontFamily: 'Inter', fontSize: 14, color: '#1f2937' },
    currency: 'USD',
    tagFormats: true,
    footer: FOOTER,
    elements: [
      { id: 'qt-1', type: 'heading', content: 'QUOTATION', fontSize: 'text-3xl', align: 'right', style: { color: '#0f766e' } },
      {
        id: 'qt-2',
        type: 'table',
        columnWidths: [55, 45],
        rows: [
          ['**{{business_name}}**\n{{business_address}}', '**Quote no.** {{quote_number}}\n**Date** {{quote_date}}\n**Valid until** {{valid_until}}'],
        ],
      },
      { id: 'qt-3', type: 'paragraph', content: '**Prepared for**\n{{client_name}}\n{{client_email}}' },
      { id: 'qt-4', type: 'paragraph', content: 'Thank you for the opportunity to quote for **{{project}}**. Our prices are set out below.' },
      {
        id: 'qt-5',
        type: 'table',
        headerRow: true,
        columnWidths: [44, 9, 17, 12, 18],
        rows: [
          ['Description', 'Qty', 'Unit price', 'Discount', 'Amount'],
          ['{{description}}', '{{qty}}', '{{unit_price | currency}}', '{{discount}}%', '{{amount | currency}}'],
          ['', '', '', '**Subtotal**', '{{subtotal | currency}}'],
          ['', '', '', 'Tax ({{tax_rate}}%)', '{{tax | currency}}'],
          ['', '', '', '**Total**', '**{{total | currency}}**'],
        ],
        repeat: { row: 1, list: 'items' },
      },
      {
        id: 'qt-6',
        type: 'section',
        title: 'Deposit',
        showIf: { match: 'all', conditions: [{ field: 'deposit_percent', op: 'greater_than', value: '0' }] },
        elements: [
          { id: 'qt-6a', type: 'heading', content: 'Deposit', fontSize: 'text-xl' },
          {
            id: 'qt-6b',
            type: 'paragraph',
            content: 'A deposit of {{deposit_percent}}% (**{{deposit | currency}}**) is due on acceptance; the balance of {{balance | currency}} is due on completion.',
          },
        ],
      },
      { id: 'qt-7', type: 'paragraph', content: '{{notes}}', style: { color: '#4b5563' } },
      {
        id: 'qt-8',
        type: 'paragraph',
        content: '**Acceptance**\nI accept this quotation and its terms.\n\nSignature: ______________________________     Date: ______________',
      },
    ],
  },
  placeholders: [
    { name: 'business_name', type: 'text', required: true, label: 'Your business name' },
    { name: 'business_address', type: 'textarea', required: true, label: 'Your business address' },
    { name: 'quote_number', type: 'text', required: true },
    { name: 'quote_date', type: 'date', required: true },
    { name: 'valid_until', type: 'date', required: true },
    { name: 'client_name', type: 'text', required: true },
    { name: 'client_email', type: 'email', required: false },
    { name: 'project', type: 'text', required: true, label: 'Project or work' },
    {
      name: 'items',
      ...LINE_ITEMS,
      columns: [
        ...LINE_ITEMS.columns.slice(0, 3),
        { name: 'discount', label: 'Discount %', type: 'number', required: false },
        { name: 'amount', type: 'formula', expression: 'round(qty * unit_price * (1 - discount / 100), 2)' },
      ],
    },
    { name: 'tax_rate', type: 'number', required: true, label: 'Tax rate (%)' },
    { name: 'deposit_percent', type: 'number', required: false, label: 'Deposit (%)' },
    { name: 'notes', type: 'textarea', required: false, label: 'Notes and terms' },
    { name: 'subtotal', type: 'formula', expression: 'sum(items.amount)' },
    { name: 'tax', type: 'formula', expression: 'round(subtotal * tax_rate / 100, 2)' },
    { name: 'total', type: 'formula', expression: 'subtotal + tax' },
    { name: 'deposit', type: 'formula', expression: 'round(total * deposit_percent / 100, 2)' },
    { name: 'balance', type: 'formula', expression: 'total - deposit' },
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
export const STARTER_FORMATS: readonly TStarterFormat[] = [offerLetter, nda, invoice, quotation, rentalAgreement, patientConsent, certificate].map(
  (starter) => ({ ...starter, content: ZFormatContent.parse(starter.content), placeholders: ZPlaceholderList.parse(starter.placeholders) }),
);
