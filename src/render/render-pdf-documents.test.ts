import { describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TFormatContentInput } from '../contract/format-content.ts';
import type { TPlaceholderInput } from '../contract/placeholders.ts';
import { renderMergedPdf, renderPdf } from './index.ts';
import { assertValidPdf, makeAlphaPng, pdfFonts, pdfInfo, pdfPages, pdfQdf, pdfRaster, pdfText } from './testdata/pdf-tools.ts';
import { DATE, flat, render } from './testdata/render-helpers.ts';

describe('placeholders', () => {
  const placeholders: TPlaceholderInput[] = [
    { name: 'client_name', type: 'text' },
    { name: 'due', type: 'date' },
    { name: 'amount', type: 'number' },
  ];

  it('substitutes values, formats dates and numbers, and prints missing values as nothing', () => {
    const { pdf } = render(
      { elements: [{ id: '1', type: 'paragraph', content: 'To {{client_name}}: pay {{amount}} by {{due}}. [{{unknown}}]' }] },
      { placeholders, data: { client_name: 'Ana Díaz', amount: '1234567.5', due: '2025-03-05' } },
    );
    expect(flat(pdfText(pdf))).toBe('To Ana Díaz: pay 1,234,567.5 by March 5, 2025. []');
  });

  it('formats by the locale', () => {
    const { pdf } = render(
      { elements: [{ id: '1', type: 'paragraph', content: '{{amount}} / {{due}}' }], locale: 'de-DE' },
      { placeholders, data: { amount: '1234.5', due: '2025-03-05' } },
    );
    expect(flat(pdfText(pdf))).toBe('1.234,5 / 5. März 2025');
  });

  it('prints a value containing a tag literally, never substituting twice', () => {
    const { pdf } = render(
      { elements: [{ id: '1', type: 'paragraph', content: 'Hi {{client_name}}' }] },
      { placeholders, data: { client_name: '{{amount}} **x**', amount: '5' } },
    );
    expect(flat(pdfText(pdf))).toBe('Hi {{amount}} **x**');
  });

  it('substitutes in headings, list items, table cells, header and footer', () => {
    const { pdf } = render(
      {
        elements: [
          { id: '1', type: 'heading', content: 'H {{client_name}}' },
          { id: '2', type: 'list', items: ['L {{client_name}}'] },
          { id: '3', type: 'table', rows: [['T {{client_name}}']] },
        ],
        header: { text: 'Head {{client_name}}' },
        footer: { text: 'Foot {{client_name}}' },
      },
      { placeholders, data: { client_name: 'Zoë' } },
    );
    const text = flat(pdfText(pdf));
    for (const s of ['H Zoë', 'L Zoë', 'T Zoë', 'Head Zoë', 'Foot Zoë']) expect(text).toContain(s);
  });
});

describe('pages', () => {
  it('breaks long content across pages and numbers them in the footer', () => {
    const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(30);
    const { pdf } = render({
      elements: Array.from({ length: 12 }, (_, i) => ({ id: String(i), type: 'paragraph' as const, content: paragraph })),
      footer: { text: 'Page {{page}} of {{pages}}', align: 'right' },
      header: { text: 'ACME Ltd', align: 'left' },
    });
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((p, i) => {
      expect(p).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(p.trimStart().startsWith('ACME Ltd')).toBe(true);
    });
  });

  it('merges documents: each starts on a new page, numbers its own pages, and shares the fonts', () => {
    const format = ZRenderableFormat.parse({
      content: {
        elements: [
          { id: 'h', type: 'heading', content: 'Certificate for {{name}}' },
          { id: 'p', type: 'paragraph', content: 'Awarded for outstanding work. '.repeat(200) },
        ],
        footer: { text: 'Page {{page}} of {{pages}}', align: 'right' },
      },
      placeholders: [{ name: 'name', type: 'text' }],
    });
    const inputs = ['Ana', 'Bo', 'Chen'].map((name) => ({
      format,
      data: { name },
      meta: { title: name, creationDate: DATE },
    }));
    const single = renderPdf(inputs[0]!).pdf;
    const perDocument = pdfPages(single).length;
    expect(perDocument).toBeGreaterThanOrEqual(2);
    const { pdf, warnings } = renderMergedPdf(inputs, { title: 'All certificates', creationDate: DATE });
    expect(warnings).toEqual([]);
    assertValidPdf(pdf);
    const pages = pdfPages(pdf);
    expect(pages).toHaveLength(3 * perDocument);
    ['Ana', 'Bo', 'Chen'].forEach((name, d) => {
      expect(pages[d * perDocument]).toContain(`Certificate for ${name}`);
      for (let i = 0; i < perDocument; i++) expect(pages[d * perDocument + i]).toContain(`Page ${i + 1} of ${perDocument}`);
    });
    expect(pdfInfo(pdf).Title).toBe('All certificates');
    // One subset font for all three documents, not three.
    expect(pdfFonts(pdf).length).toBe(pdfFonts(single).length);
    expect(Buffer.from(renderMergedPdf(inputs, { title: 'All certificates', creationDate: DATE }).pdf)).toEqual(Buffer.from(pdf));
  });

  it('uses the page size and orientation', () => {
    const letter = render({ page: { size: 'Letter', orientation: 'landscape' }, elements: [] });
    expect(pdfInfo(letter.pdf)['Page size']).toMatch(/^792 x 612 pts/);
    const a4 = render({ elements: [] });
    expect(pdfInfo(a4.pdf)['Page size']).toMatch(/^595\.28 x 841\.89 pts \(A4\)/);
  });

  it('uses the margins', () => {
    const { pdf } = render({
      page: { margins: { top: 50, right: 10, bottom: 10, left: 40 } },
      elements: [{ id: '1', type: 'paragraph', content: 'Margins' }],
    });
    const m = /1 0 0 1 ([\d.]+) ([\d.]+) Tm/.exec(pdfQdf(pdf))!;
    expect(Number(m[1])).toBeCloseTo(40 * (72 / 25.4), 1);
    // Top margin 50 mm = 141.7 pt; the first baseline sits one line below that.
    expect(841.89 - Number(m[2])).toBeGreaterThan(141.7);
    expect(841.89 - Number(m[2])).toBeLessThan(141.7 + 20);
  });
});

describe('metadata and determinism', () => {
  it('writes title, producer and creation date from meta', () => {
    const { pdf } = render({ elements: [] });
    const info = pdfInfo(pdf);
    expect(info.Title).toBe('Test document');
    expect(info.Producer).toBe('Formwork');
    expect(info.CreationDate).toBe('2025-02-03T04:05:06Z');
  });

  it('gives identical bytes for identical input and different bytes for different data', () => {
    const content: TFormatContentInput = {
      elements: [
        { id: '1', type: 'paragraph', content: 'Hello {{n}} नमस्ते مرحبا' },
        { id: '2', type: 'image', src: '/api/assets/x' },
      ],
    };
    const assets = { '/api/assets/x': new Uint8Array(makeAlphaPng()) };
    const a = render(content, { data: { n: 'one' }, assets });
    const b = render(content, { data: { n: 'one' }, assets });
    const c = render(content, { data: { n: 'two' }, assets });
    expect(Buffer.from(a.pdf).equals(Buffer.from(b.pdf))).toBe(true);
    expect(Buffer.from(a.pdf).equals(Buffer.from(c.pdf))).toBe(false);
  });
});

describe('watermark', () => {
  it('prints the mark pale and diagonally behind every page, leaving the content readable', () => {
    const format = ZRenderableFormat.parse({
      content: { elements: Array.from({ length: 60 }, (_, i) => ({ id: `p${i}`, type: 'paragraph', content: `Line ${i + 1} of the offer.` })) },
      placeholders: [],
    });
    const input = { format, data: {}, assets: {}, meta: { title: 'Offer', creationDate: DATE } };
    const plain = renderPdf(input).pdf;
    const marked = renderPdf({ ...input, meta: { ...input.meta, watermark: 'TEST' } }).pdf;
    assertValidPdf(marked);
    const pages = pdfPages(marked).length;
    expect(pages).toBe(pdfPages(plain).length);
    expect(pages).toBeGreaterThan(1);
    // Every line a reader extracts is still there: the mark sits behind the text.
    const text = pdfText(marked);
    for (let i = 1; i <= 60; i++) expect(text).toContain(`Line ${i} of the offer.\n`);
    // Pale red pixels cross every page where the plain one is white.
    const plainPages = pdfRaster(plain, 30);
    const pinkOn = (page: { data: Buffer }) => {
      let pink = 0;
      for (let i = 0; i < page.data.length; i += 4) {
        const [r, g, b] = [page.data[i]!, page.data[i + 1]!, page.data[i + 2]!];
        if (r > 225 && g < 215 && b < 215) pink++;
      }
      return pink;
    };
    pdfRaster(marked, 30).forEach((page, i) => {
      expect(pinkOn(page)).toBeGreaterThan(500);
      expect(pinkOn(plainPages[i]!)).toBe(0);
    });
  });
});
