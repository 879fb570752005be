import { describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TFormatContentInput } from '../contract/format-content.ts';
import type { TPlaceholderInput } from '../contract/placeholders.ts';
import { renderPdf } from './index.ts';
import { assertValidPdf, pdfText } from './testdata/pdf-tools.ts';
import { DATE, flat } from './testdata/render-helpers.ts';

/*
 * A number's or a formula's display prints its value in the format's locale and currency with no
 * `| format` in the tag: in a paragraph, a list's number and formula columns, and the totals.
 */

const PLACEHOLDERS: TPlaceholderInput[] = [
  {
    name: 'items',
    type: 'list',
    columns: [
      { name: 'description', type: 'text' },
      { name: 'qty', type: 'number' },
      { name: 'price', type: 'number', display: 'currency' },
      { name: 'amount', type: 'formula', expression: 'qty * price', display: 'currency' },
    ],
  },
  { name: 'tax_rate', type: 'number', display: 'percent' },
  { name: 'weight', type: 'number', display: 'decimal', decimals: 3 },
  { name: 'hours', type: 'number', display: 'decimal' },
  { name: 'subtotal', type: 'formula', expression: 'sum(items.amount)', display: 'currency' },
  { name: 'tax', type: 'formula', expression: 'round(subtotal * tax_rate / 100, 2)', display: 'currency' },
  { name: 'total', type: 'formula', expression: 'subtotal + tax', display: 'currency' },
  { name: 'margin', type: 'formula', expression: 'tax_rate / 2', display: 'percent', decimals: 2 },
  { name: 'plain', type: 'number', display: 'plain' },
];

const DATA = {
  items: [
    { description: 'Design', qty: '2', price: '1200' },
    { description: 'Hosting', qty: '1', price: '34.5' },
  ],
  tax_rate: '12.5',
  weight: '1234.5',
  hours: '7',
  plain: '1234567.5',
};

function renderIn(locale: string, currency: string, paragraph = 'Rate {{tax_rate}}; weight {{weight}}; hours {{hours}}; margin {{margin}}; plain {{plain}}.') {
  const content: TFormatContentInput = {
    locale,
    currency,
    tagFormats: true,
    elements: [
      {
        id: 'lines',
        type: 'table',
        headerRow: true,
        rows: [
          ['Item', 'Qty', 'Price', 'Amount'],
          ['{{description}}', '{{qty}}', '{{price}}', '{{items.amount}}'],
          ['Subtotal', '', '', '{{subtotal}}'],
          ['Tax', '', '', '{{tax}}'],
          ['Total', '', '', '{{total}}'],
        ],
        repeat: { row: 1, list: 'items' },
      },
      { id: 'p', type: 'paragraph', content: paragraph },
    ],
  };
  const format = ZRenderableFormat.parse({ content, placeholders: PLACEHOLDERS });
  const { pdf } = renderPdf({ format, data: DATA as never, assets: {}, meta: { title: 'Display', creationDate: DATE } });
  assertValidPdf(pdf);
  return flat(pdfText(pdf));
}

describe('number display', () => {
  it('prints dollars, decimals and percents in en-US', () => {
    expect(renderIn('en-US', 'USD')).toBe(
      'Item Qty Price Amount Design 2 $1,200.00 $2,400.00 Hosting 1 $34.50 $34.50 Subtotal $2,434.50 Tax $304.31 Total $2,738.81 ' +
        'Rate 12.5%; weight 1,234.500; hours 7.00; margin 6.25%; plain 1,234,567.5.',
    );
  });

  it('prints euros after the number, with German separators, in de-DE', () => {
    expect(renderIn('de-DE', 'EUR')).toBe(
      'Item Qty Price Amount Design 2 1.200,00 € 2.400,00 € Hosting 1 34,50 € 34,50 € Subtotal 2.434,50 € Tax 304,31 € Total 2.738,81 € ' +
        'Rate 12,5 %; weight 1.234,500; hours 7,00; margin 6,25 %; plain 1.234.567,5.',
    );
  });

  it('prints rupees with lakh grouping in hi-IN', () => {
    const text = renderIn('hi-IN', 'INR', 'Big {{total}}; rate {{tax_rate}}; weight {{weight}}.');
    expect(text).toContain('Design 2 ₹1,200.00 ₹2,400.00');
    expect(text).toContain('Total ₹2,738.81');
    expect(text).toContain('Big ₹2,738.81; rate 12.5%; weight 1,234.500.');
    const lakh = ZRenderableFormat.parse({
      content: { locale: 'hi-IN', currency: 'INR', tagFormats: true, elements: [{ id: 'p', type: 'paragraph', content: '{{n}}' }] },
      placeholders: [{ name: 'n', type: 'number', display: 'currency' }],
    });
    const { pdf } = renderPdf({ format: lakh, data: { n: '123456.5' }, assets: {}, meta: { title: 'Lakh', creationDate: DATE } });
    expect(flat(pdfText(pdf))).toBe('₹1,23,456.50');
  });

  it('gives way to a tag’s own value format', () => {
    expect(renderIn('en-US', 'USD', '{{total | number:0}}; {{tax_rate | number:2}}; {{weight | currency:EUR}}; {{total | currency}}.')).toContain(
      '2,739; 12.50; €1,234.50; $2,738.81.',
    );
  });

  it('prints a number without a display as it always has', () => {
    const format = ZRenderableFormat.parse({
      content: { locale: 'de-DE', currency: 'EUR', tagFormats: true, elements: [{ id: 'p', type: 'paragraph', content: '{{n}} {{f}}' }] },
      placeholders: [
        { name: 'n', type: 'number' },
        { name: 'f', type: 'formula', expression: 'n * 2' },
      ],
    });
    const { pdf } = renderPdf({ format, data: { n: '1234.5' }, assets: {}, meta: { title: 'Plain', creationDate: DATE } });
    expect(flat(pdfText(pdf))).toBe('1.234,5 2.469');
  });
});
