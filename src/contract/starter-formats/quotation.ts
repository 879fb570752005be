import { FOOTER, LINE_ITEMS, type TStarterFormatInput } from './shared.ts';

export const quotation: TStarterFormatInput = {
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
        rows: [['**{{business_name}}**\n{{business_address}}', '**Quote no.** {{quote_number}}\n**Date** {{quote_date}}\n**Valid until** {{valid_until}}']],
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
            content:
              'A deposit of {{deposit_percent}}% (**{{deposit | currency}}**) is due on acceptance; the balance of {{balance | currency}} is due on completion.',
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
