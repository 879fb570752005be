import { describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TElementInput, type TFormatContentInput } from '../contract/format-content.ts';
import type { TPlaceholderInput } from '../contract/placeholders.ts';
import { renderPdf } from './index.ts';
import { assertValidPdf, pdfPages, pdfText, pdfWords } from './testdata/pdf-tools.ts';

const DATE = new Date('2025-02-03T04:05:06Z');

function render(content: TFormatContentInput, placeholders: TPlaceholderInput[], data: Record<string, unknown>, locale?: string) {
  const format = ZRenderableFormat.parse({ content: { tagFormats: true, ...content }, placeholders });
  const out = renderPdf({ format, data: data as never, assets: {}, meta: { title: 'Logic', creationDate: DATE, ...(locale ? { locale } : {}) } });
  assertValidPdf(out.pdf);
  return out;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

const ITEMS: TPlaceholderInput = {
  name: 'items',
  type: 'list',
  columns: [
    { name: 'description', type: 'text', required: true },
    { name: 'qty', type: 'number', required: true },
    { name: 'price', type: 'number', required: true },
    { name: 'amount', type: 'formula', expression: 'qty * price' },
  ],
};
const TOTALS: TPlaceholderInput[] = [
  { name: 'subtotal', type: 'formula', expression: 'sum(items.amount)' },
  { name: 'tax', type: 'formula', expression: 'round(subtotal * 0.18, 2)' },
  { name: 'total', type: 'formula', expression: 'subtotal + tax' },
];

function invoiceTable(): TElementInput {
  return {
    id: 'lines',
    type: 'table',
    headerRow: true,
    columnWidths: [50, 12, 19, 19],
    rows: [
      ['Description', 'Qty', 'Price', 'Amount'],
      ['{{description}}', '{{qty | number:0}}', '{{price | currency}}', '{{items.amount | currency}}'],
      ['**Subtotal**', '', '', '{{subtotal | currency}}'],
      ['Tax (18%)', '', '', '{{tax | currency}}'],
      ['**Total**', '', '', '**{{total | currency}}**'],
    ],
    repeat: { row: 1, list: 'items' },
  };
}

/** Line n costs n.01 × (n mod 4 + 1): exact cents to check against. */
function lines(n: number) {
  return Array.from({ length: n }, (_, i) => ({ description: `Item ${String(i + 1).padStart(3, '0')}`, qty: (i % 4) + 1, price: `${i + 1}.01` }));
}
function expectedCents(n: number): { subtotal: bigint; tax: bigint } {
  let subtotal = 0n;
  for (const line of lines(n)) subtotal += BigInt(line.qty) * BigInt(line.price.replace('.', ''));
  // round(subtotal × 0.18, 2), half away from zero, in whole cents.
  const tax = (subtotal * 18n + 50n) / 100n;
  return { subtotal, tax };
}
const money = (cents: bigint) => `$${(cents / 100n).toLocaleString('en-US')}.${String(cents % 100n).padStart(2, '0')}`;

describe('repeating table rows', () => {
  it('prints a 150-line invoice across pages, the header on each, every line once, and totals to the cent', () => {
    const { pdf, warnings } = render({ elements: [{ id: 'h', type: 'heading', content: 'Invoice' }, invoiceTable()] }, [ITEMS, ...TOTALS], {
      items: lines(150),
    });
    expect(warnings).toEqual([]);
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(page).toContain('Description');
    const text = pages.join('\n');
    const found = [...text.matchAll(/Item (\d{3})/g)].map((m) => Number(m[1]));
    expect(found).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    const { subtotal, tax } = expectedCents(150);
    const tail = flat(pages.at(-1)!);
    expect(tail).toContain(`Subtotal ${money(subtotal)}`);
    expect(tail).toContain(`Tax (18%) ${money(tax)}`);
    expect(tail).toContain(`Total ${money(subtotal + tax)}`);
    // Line 150: qty 2 at $150.01 is $300.02.
    expect(flat(text)).toContain('Item 150 2 $150.01 $300.02');
  });

  it('reads {{qty}} and {{items.qty}} as the row’s value, and leaves other tags to the document', () => {
    const { pdf } = render(
      {
        elements: [
          {
            id: 't',
            type: 'table',
            rows: [['{{items.description}}: {{qty}} for {{client}}']],
            repeat: { row: 0, list: 'items' },
          },
        ],
      },
      [ITEMS, { name: 'client' }],
      {
        client: 'Acme',
        items: [
          { description: 'Bolts', qty: 3, price: 1 },
          { description: 'Nuts', qty: 5, price: 1 },
        ],
      },
    );
    expect(flat(pdfText(pdf))).toBe('Bolts: 3 for Acme Nuts: 5 for Acme');
  });

  it('drops the repeating row when the list is empty, keeping the rest of the table', () => {
    const { pdf } = render({ elements: [invoiceTable()] }, [ITEMS, ...TOTALS], { items: [] });
    expect(flat(pdfText(pdf))).toBe('Description Qty Price Amount Subtotal $0.00 Tax (18%) $0.00 Total $0.00');
  });

  it('repeats a list element’s items per row, numbering on', () => {
    const { pdf } = render({ elements: [{ id: 'l', type: 'list', listStyle: 'numbered', items: ['{{description}} × {{qty}}'], repeat: 'items' }] }, [ITEMS], {
      items: [
        { description: 'Bolts', qty: 3 },
        { description: 'Nuts', qty: 5 },
        { description: 'Washers', qty: 7 },
      ],
    });
    expect(flat(pdfText(pdf))).toBe('1. Bolts × 3 2. Nuts × 5 3. Washers × 7');
  });
});

describe('decimal money', () => {
  it('shows 0.1 + 0.2 as 0.30, never 0.30000000000000004', () => {
    const { pdf } = render(
      { elements: [{ id: 'p', type: 'paragraph', content: '{{x}} | {{x | number:2}} | {{x | currency}}' }] },
      [{ name: 'x', type: 'formula', expression: '0.1 + 0.2' }],
      {},
    );
    expect(flat(pdfText(pdf))).toBe('0.3 | 0.30 | $0.30');
  });

  it('adds a thousand lines of 0.10 to exactly 100.00, and rounds half away from zero', () => {
    const { pdf } = render(
      { elements: [{ id: 'p', type: 'paragraph', content: '{{sum | currency}} {{half | number:2}} {{neg | number:2}}' }] },
      [
        { name: 'items', type: 'list', columns: [{ name: 'price', type: 'number' }] },
        { name: 'sum', type: 'formula', expression: 'sum(items.price)' },
        { name: 'half', type: 'formula', expression: '1.005 + 0' },
        { name: 'neg', type: 'formula', expression: '-1.005' },
      ],
      { items: Array.from({ length: 1000 }, () => ({ price: '0.10' })) },
    );
    expect(flat(pdfText(pdf))).toBe('$100.00 1.01 -1.01');
  });

  it('formats money, numbers and dates by the format’s locale and currency', () => {
    const { pdf } = render(
      {
        currency: 'EUR',
        locale: 'de-DE',
        elements: [
          { id: 'p', type: 'paragraph', content: '{{t | currency}}; {{t | currency:INR}}; {{q | number:0}}; {{d | date:short}}; {{d | date:full}}; {{d}}' },
        ],
      },
      [
        { name: 't', type: 'number' },
        { name: 'q', type: 'number' },
        { name: 'd', type: 'date' },
      ],
      { t: '1234.5', q: '2.5', d: '2025-03-05' },
    );
    expect(flat(pdfText(pdf))).toBe('1.234,50 €; 1.234,50 ₹; 3; 05.03.25; Mittwoch, 5. März 2025; 5. März 2025');
  });
});

describe('conditions', () => {
  const before: TElementInput = { id: 'a', type: 'paragraph', content: 'Before the section.' };
  const after: TElementInput = { id: 'z', type: 'paragraph', content: 'After the section.' };
  const section = (plan: string): TElementInput => ({
    id: 's',
    type: 'section',
    title: 'Premium benefits',
    showIf: { match: 'all', conditions: [{ field: 'plan', op: 'equals', value: plan }] },
    elements: [
      { id: 's1', type: 'heading', content: 'Premium benefits' },
      {
        id: 's2',
        type: 'table',
        rows: [
          ['Support', '24/7'],
          ['Storage', '1 TB'],
        ],
      },
    ],
  });
  const placeholders: TPlaceholderInput[] = [{ name: 'plan', type: 'select', options: ['Basic', 'Premium'] }];

  it('prints a section whose condition holds', () => {
    const { pdf } = render({ elements: [before, section('Premium'), after] }, placeholders, { plan: 'Premium' });
    expect(flat(pdfText(pdf))).toBe('Before the section. Premium benefits Support 24/7 Storage 1 TB After the section.');
  });

  it('leaves no gap for a hidden section: the page is the same as without it', () => {
    const hidden = render({ elements: [before, section('Premium'), after] }, placeholders, { plan: 'Basic' });
    const without = render({ elements: [before, after] }, placeholders, { plan: 'Basic' });
    expect(flat(pdfText(hidden.pdf))).toBe('Before the section. After the section.');
    const y = (pdf: Uint8Array) => pdfWords(pdf).find((w) => w.text === 'After')!.yMin;
    expect(y(hidden.pdf)).toBe(y(without.pdf));
    expect(Buffer.from(hidden.pdf).equals(Buffer.from(without.pdf))).toBe(true);
  });

  it('hides single elements by any of their conditions, or all of them', () => {
    const el = (id: string, match: 'all' | 'any', conditions: object[]): TElementInput => ({
      id,
      type: 'paragraph',
      content: id,
      showIf: { match, conditions } as never,
    });
    const { pdf } = render(
      {
        elements: [
          el('gt', 'all', [{ field: 'amount', op: 'greater_than', value: '100' }]),
          el('lt', 'all', [{ field: 'amount', op: 'less_than', value: '100' }]),
          el('empty', 'all', [{ field: 'note', op: 'is_empty' }]),
          el('filled', 'all', [{ field: 'note', op: 'is_not_empty' }]),
          el('oneof', 'all', [{ field: 'country', op: 'one_of', values: ['IN', 'DE'] }]),
          el('ne', 'all', [{ field: 'country', op: 'not_equals', value: 'in' }]),
          el('any', 'any', [
            { field: 'country', op: 'equals', value: 'FR' },
            { field: 'vip', op: 'equals', value: 'true' },
          ]),
          el('all', 'all', [
            { field: 'country', op: 'equals', value: 'FR' },
            { field: 'vip', op: 'equals', value: 'true' },
          ]),
          el('rows', 'all', [{ field: 'items', op: 'greater_than', value: '1' }]),
          el('date', 'all', [{ field: 'due', op: 'less_than', value: '2025-06-01' }]),
        ],
      },
      [{ name: 'amount', type: 'number' }, { name: 'note' }, { name: 'country' }, { name: 'vip', type: 'checkbox' }, { name: 'due', type: 'date' }, ITEMS],
      { amount: '250.5', note: '', country: 'IN', vip: true, due: '2025-03-01', items: [{ description: 'a' }, { description: 'b' }] },
    );
    expect(flat(pdfText(pdf))).toBe('gt empty oneof any rows date');
  });
});

describe('checkboxes', () => {
  it('prints ☑ or ☐, or the words the placeholder chooses', () => {
    const { pdf, warnings } = render(
      { elements: [{ id: 'p', type: 'paragraph', content: '{{a}} A {{b}} B {{c}} C' }] },
      [
        { name: 'a', type: 'checkbox' },
        { name: 'b', type: 'checkbox' },
        { name: 'c', type: 'checkbox', checkedText: 'Yes', uncheckedText: 'No' },
      ],
      { a: true, b: 'no', c: 'true' },
    );
    expect(warnings).toEqual([]);
    expect(flat(pdfText(pdf))).toBe('☑ A ☐ B Yes C');
  });
});

describe('formulas that cannot be computed', () => {
  it('print empty and never stop the document', () => {
    const { pdf } = render(
      { elements: [{ id: 'p', type: 'paragraph', content: '[{{ratio}}] [{{broken}}] [{{after}}]' }] },
      [
        { name: 'n', type: 'number' },
        { name: 'ratio', type: 'formula', expression: '10 / n' },
        { name: 'broken', type: 'formula', expression: '1 +* 2' },
        { name: 'after', type: 'formula', expression: 'ratio + 1' },
      ],
      { n: '0' },
    );
    expect(flat(pdfText(pdf))).toBe('[] [] []');
  });
});

describe('value formats in formats saved before they existed', () => {
  it('read a bar as part of the name, as those documents always did', () => {
    const format = ZRenderableFormat.parse({
      content: { elements: [{ id: 'p', type: 'paragraph', content: '[{{total | currency}}]' }] },
      placeholders: [{ name: 'total', type: 'number' }],
    });
    const { pdf } = renderPdf({ format, data: { total: '5' }, assets: {}, meta: { title: 'old', creationDate: DATE } });
    expect(flat(pdfText(pdf))).toBe('[]');
  });
});
