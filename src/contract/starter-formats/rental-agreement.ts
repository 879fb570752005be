import { FOOTER, type TStarterFormatInput } from './shared.ts';

export const rentalAgreement: TStarterFormatInput = {
  id: 'rental-agreement',
  name: 'Rental agreement',
  description: 'A residential lease: parties, property, rent, deposit and house rules.',
  category: 'Real estate',
  content: {
    style: { fontFamily: 'Times New Roman', fontSize: 14, color: '#111827' },
    footer: FOOTER,
    elements: [
      { id: 'ra-1', type: 'heading', level: 1, content: 'Residential Rental Agreement', fontSize: 'text-2xl', align: 'center' },
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
      { id: 'ra-4', type: 'heading', level: 2, content: 'Terms', fontSize: 'text-xl' },
      {
        id: 'ra-5',
        type: 'list',
        listStyle: 'numbered',
        items: [
          'The Tenant pays the rent on time and the utilities not included in it.',
          'The deposit is returned within 30 days of the end of the lease, less the cost of repairing any damage beyond normal wear and tear.',
          'The Tenant keeps the property clean and in good repair, and reports any damage promptly.',
          "The Tenant does not sublet or make alterations without the Landlord's written consent.",
          "The Landlord gives at least 24 hours' notice before entering, except in an emergency.",
          "Either party may end this agreement at its end date by giving {{notice_days}} days' written notice.",
        ],
      },
      {
        id: 'ra-6',
        type: 'table',
        layout: true,
        columnWidths: [50, 50],
        rows: [
          [
            '**Landlord**\n{{landlord_name}}\n{{landlord_phone}}\n\nSignature: ____________________',
            '**Tenant**\n{{tenant_name}}\n{{tenant_phone}}\n\nSignature: ____________________',
          ],
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
    { name: 'monthly_rent', type: 'number', required: true, display: 'currency' },
    { name: 'rent_due_day', type: 'number', required: true, label: 'Rent due (day of month)' },
    { name: 'deposit', type: 'number', required: true, label: 'Security deposit', display: 'currency' },
    { name: 'furnishing', type: 'select', required: true, options: ['Unfurnished', 'Part furnished', 'Fully furnished'] },
    { name: 'notice_days', type: 'number', required: true, label: 'Notice period (days)' },
  ],
};
