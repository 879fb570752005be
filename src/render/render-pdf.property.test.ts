import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FONT_FAMILIES, HEADING_SIZES, ZFormatContent, ZRenderableFormat } from '../contract/format-content.ts';
import { renderPdf } from './index.ts';
import { assertValidPdf } from './testdata/pdf-tools.ts';

/*
 * For any content the schema accepts, the renderer returns a PDF that qpdf accepts, and the
 * same input always gives the same bytes. Text draws from every script the fonts cover plus
 * markup, tags and control characters.
 */

const alphabet = [
  ...'abc XYZ 019 .,;!?*{}\n\t',
  'é',
  'ß',
  'Ł',
  'Ω',
  'λ',
  'Ж',
  'я',
  '₹',
  '€',
  '“',
  '—',
  'न',
  'म',
  'स',
  '्',
  'त',
  'े',
  'ि',
  'م',
  'ر',
  'ح',
  'ب',
  'ا',
  '\u0000',
  '\u202e',
  '漢',
];
const text = (max: number) =>
  fc.oneof(
    fc.array(fc.constantFrom(...alphabet), { maxLength: max }).map((a) => a.join('')),
    fc.constantFrom('{{name}}', '**bold** *it*', 'Page {{page}} of {{pages}}', ''),
  );
const align = fc.constantFrom('left', 'center', 'right', 'justify' as const);
const style = fc.option(
  fc.record(
    { fontFamily: fc.constantFrom(...FONT_FAMILIES), fontSize: fc.constantFrom(12, 14, 16, 18), color: fc.constantFrom('#000000', '#ff8800') },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);
const id = fc.string({ maxLength: 8 });

const element = fc.oneof(
  fc.record({
    id,
    type: fc.constant('heading'),
    content: text(60),
    fontSize: fc.constantFrom(...HEADING_SIZES),
    align,
    bold: fc.boolean(),
    italic: fc.boolean(),
    underline: fc.boolean(),
    style,
  }),
  fc.record({ id, type: fc.constant('paragraph'), content: text(300), align, bold: fc.boolean(), style }),
  fc.record({ id, type: fc.constant('list'), items: fc.array(text(40), { maxLength: 6 }), listStyle: fc.constantFrom('bulleted', 'numbered'), style }),
  fc.record({
    id,
    type: fc.constant('table'),
    rows: fc.array(fc.array(text(30), { minLength: 0, maxLength: 4 }), { maxLength: 25 }),
    headerRow: fc.boolean(),
    columnWidths: fc.option(fc.array(fc.double({ min: 0.1, max: 100, noNaN: true }), { maxLength: 4 }), { nil: undefined }),
  }),
  fc.record({
    id,
    type: fc.constant('image'),
    src: fc.constantFrom('/api/assets/a', 'https://x.test/b.png', ''),
    width: fc.integer({ min: 1, max: 2000 }),
    height: fc.integer({ min: 1, max: 2000 }),
    align: fc.constantFrom('left', 'center', 'right'),
  }),
);

const content = fc.record(
  {
    elements: fc.array(element, { maxLength: 8 }),
    style,
    page: fc.record({
      size: fc.constantFrom('A4', 'Letter'),
      orientation: fc.constantFrom('portrait', 'landscape'),
      margins: fc.record({
        top: fc.integer({ min: 0, max: 60 }),
        right: fc.integer({ min: 0, max: 60 }),
        bottom: fc.integer({ min: 0, max: 60 }),
        left: fc.integer({ min: 0, max: 60 }),
      }),
    }),
    header: fc.record({ text: text(40), align: fc.constantFrom('left', 'center', 'right') }),
    footer: fc.record({ text: text(40), align: fc.constantFrom('left', 'center', 'right') }),
  },
  { requiredKeys: ['elements'] },
);

describe('renderPdf properties', () => {
  it('returns a valid PDF, deterministically, for any content the schema accepts', () => {
    fc.assert(
      fc.property(content, fc.string({ maxLength: 20 }), (raw, value) => {
        const parsed = ZFormatContent.safeParse(raw);
        fc.pre(parsed.success);
        const format = ZRenderableFormat.parse({ content: parsed.data, placeholders: [{ name: 'name' }] });
        const input = { format, data: { name: value }, assets: {}, meta: { title: 'p', creationDate: new Date(0) } };
        const a = renderPdf(input);
        const b = renderPdf(input);
        expect(Buffer.from(a.pdf).equals(Buffer.from(b.pdf))).toBe(true);
        assertValidPdf(a.pdf);
      }),
      { numRuns: 40, seed: 20250203 },
    );
  });
});
