import { LINE_ITEMS, linesTable, type TStarterFormatInput } from './shared.ts';

export const invoice: TStarterFormatInput = {
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
