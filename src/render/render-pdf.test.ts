import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TFormatContentInput } from '../contract/format-content.ts';
import type { TPlaceholderInput } from '../contract/placeholders.ts';
import { renderMergedPdf, renderPdf } from './index.ts';
import {
  assertValidPdf,
  makeAlphaPng,
  makeOpaquePng,
  pdfFonts,
  pdfInfo,
  pdfPages,
  pdfQdf,
  pdfRaster,
  pdfText,
  pdfWords,
  type WordBox,
} from './testdata/pdf-tools.ts';

const DATE = new Date('2025-02-03T04:05:06Z');
const JPEG = new Uint8Array(readFileSync(join(import.meta.dirname, 'testdata', 'sample.jpg')));

function render(
  content: TFormatContentInput,
  opts: { data?: Record<string, string>; placeholders?: TPlaceholderInput[]; assets?: Record<string, Uint8Array>; locale?: string } = {},
) {
  const format = ZRenderableFormat.parse({ content, placeholders: opts.placeholders ?? [] });
  const out = renderPdf({
    format,
    data: opts.data ?? {},
    assets: opts.assets ?? {},
    meta: { title: 'Test document', creationDate: DATE, ...(opts.locale ? { locale: opts.locale } : {}) },
  });
  assertValidPdf(out.pdf);
  return out;
}

/** Collapses whitespace so assertions do not depend on where lines wrap. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

describe('elements', () => {
  it('prints a heading, a paragraph and a list in reading order', () => {
    const { pdf, warnings } = render({
      elements: [
        { id: '1', type: 'heading', content: 'Quarterly Report' },
        { id: '2', type: 'paragraph', content: 'First paragraph text.' },
        { id: '3', type: 'list', items: ['alpha', 'beta', 'gamma'] },
        { id: '4', type: 'paragraph', content: 'Closing words.' },
      ],
    });
    expect(warnings).toEqual([]);
    expect(flat(pdfText(pdf))).toBe('Quarterly Report First paragraph text. • alpha • beta • gamma Closing words.');
  });

  it('numbers a numbered list', () => {
    const { pdf } = render({ elements: [{ id: '1', type: 'list', items: ['one', 'two', 'three'], listStyle: 'numbered' }] });
    expect(flat(pdfText(pdf))).toBe('1. one 2. two 3. three');
  });

  it('wraps a long paragraph into several lines within the margins', () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const { pdf } = render({ elements: [{ id: '1', type: 'paragraph', content: words }] });
    const lines = pdfText(pdf).split('\n').filter((l) => l.trim());
    expect(lines.length).toBeGreaterThan(5);
    expect(flat(lines.join(' '))).toBe(words);
  });

  it('prints inline bold and italic markup as styled text, without the asterisks', () => {
    const { pdf } = render({ elements: [{ id: '1', type: 'paragraph', content: 'plain **strong** and *slanted* 2*3' }] });
    expect(flat(pdfText(pdf))).toBe('plain strong and slanted 2*3');
    const names = pdfFonts(pdf).map((f) => f.name);
    expect(names.some((n) => n.endsWith('+Arimo-400Regular'))).toBe(true);
    expect(names.some((n) => n.endsWith('+Arimo-700Bold'))).toBe(true);
    expect(names.some((n) => n.endsWith('+Arimo-400RegularItalic'))).toBe(true);
  });

  it('keeps line breaks typed in a paragraph', () => {
    const { pdf } = render({ elements: [{ id: '1', type: 'paragraph', content: 'line one\nline two\n\nline four' }] });
    const lines = pdfText(pdf, { layout: true }).split('\n').map((l) => l.trim());
    expect(lines.filter((l) => l.startsWith('line'))).toEqual(['line one', 'line two', 'line four']);
  });

  it('uses bold, italic and the heading size of a heading', () => {
    const { pdf } = render({
      elements: [{ id: '1', type: 'heading', content: 'Big', fontSize: 'text-4xl', bold: false, italic: true, underline: true }],
    });
    expect(pdfFonts(pdf).map((f) => f.name.split('+')[1])).toEqual(['Arimo-400RegularItalic']);
    // text-4xl is 36 px = 27 pt.
    expect(pdfQdf(pdf)).toContain('/F1 27 Tf');
    // The underline is a filled rectangle drawn after the text.
    expect(pdfQdf(pdf)).toMatch(/re f/);
  });

  it('aligns text left, centre and right', () => {
    const xOf = (align: 'left' | 'center' | 'right') => {
      const { pdf } = render({ elements: [{ id: '1', type: 'paragraph', content: 'Marker', align }] });
      const m = /1 0 0 1 ([\d.]+) [\d.]+ Tm/.exec(pdfQdf(pdf));
      return Number(m![1]);
    };
    const left = xOf('left');
    const center = xOf('center');
    const right = xOf('right');
    // A4 is 595.28 pt wide with 20 mm (56.69 pt) margins.
    expect(left).toBeCloseTo(56.69, 1);
    expect(center).toBeGreaterThan(250);
    expect(center).toBeLessThan(290);
    expect(right).toBeGreaterThan(480);
  });

  it('justifies every line but the last of a justified paragraph', () => {
    const text = Array.from({ length: 61 }, (_, i) => (i % 3 === 0 ? 'an' : 'wordy')).join(' ');
    const { pdf } = render({ elements: [{ id: '1', type: 'paragraph', content: text, align: 'justify' }] });
    const lines = new Map<number, WordBox[]>();
    for (const w of pdfWords(pdf)) lines.set(w.yMin, [...(lines.get(w.yMin) ?? []), w]);
    const rows = [...lines.values()];
    expect(rows.length).toBeGreaterThan(2);
    // Full lines end at the right margin (595.28 - 56.69 = 538.59); the last line does not.
    for (const row of rows.slice(0, -1)) expect(Math.max(...row.map((w) => w.xMax))).toBeCloseTo(538.59, 0);
    expect(Math.max(...rows.at(-1)!.map((w) => w.xMax))).toBeLessThan(500);
    expect(flat(pdfText(pdf))).toBe(text);
  });

  it('applies the format and element font family, size and colour', () => {
    const { pdf } = render({
      style: { fontFamily: 'Times New Roman', fontSize: 18, color: '#ff0000' },
      elements: [
        { id: '1', type: 'paragraph', content: 'Serif red' },
        { id: '2', type: 'paragraph', content: 'Inter blue', style: { fontFamily: 'Inter', fontSize: 12, color: '#0000ff' } },
      ],
    });
    const names = pdfFonts(pdf).map((f) => f.name.split('+')[1]);
    expect(names).toEqual(['Tinos-latin-400normal', 'Inter-400Regular']);
    const qdf = pdfQdf(pdf);
    expect(qdf).toContain('/F1 13.5 Tf');
    expect(qdf).toContain('1 0 0 rg');
    expect(qdf).toContain('/F2 9 Tf');
    expect(qdf).toContain('0 0 1 rg');
  });

  it('maps Helvetica and Arial to Arimo', () => {
    for (const fontFamily of ['Helvetica', 'Arial'] as const) {
      const { pdf } = render({ style: { fontFamily }, elements: [{ id: '1', type: 'paragraph', content: 'Hi' }] });
      expect(pdfFonts(pdf)[0]!.name).toMatch(/^[A-Z]{6}\+Arimo-400Regular$/);
    }
  });

  it('embeds subset CID fonts with a Unicode map', () => {
    const { pdf } = render({ elements: [{ id: '1', type: 'paragraph', content: 'Embedded fonts' }] });
    const fonts = pdfFonts(pdf);
    expect(fonts.length).toBe(1);
    expect(fonts[0]).toMatchObject({ type: 'CID TrueType', embedded: true, subset: true, unicode: true });
  });
});

describe('tables', () => {
  const rows = (n: number) => [['Name', 'Qty', 'Note'], ...Array.from({ length: n }, (_, i) => [`Row ${i + 1}`, String(i), `note ${i + 1}`])];

  it('prints cells row by row', () => {
    const { pdf } = render({ elements: [{ id: 't', type: 'table', rows: rows(3), headerRow: true }] });
    const lines = pdfText(pdf, { layout: true })
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/))
      .filter((l) => l[0]);
    expect(lines).toEqual([
      ['Name', 'Qty', 'Note'],
      ['Row 1', '0', 'note 1'],
      ['Row 2', '1', 'note 2'],
      ['Row 3', '2', 'note 3'],
    ]);
    expect(pdfFonts(pdf).some((f) => f.name.endsWith('Arimo-700Bold'))).toBe(true);
  });

  it('splits a long table across pages and repeats the header row on each', () => {
    const { pdf } = render({ elements: [{ id: 't', type: 'table', rows: rows(100), headerRow: true }] });
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(page.trimStart().startsWith('Name')).toBe(true);
    const all = pages.join('\n');
    for (let i = 1; i <= 100; i++) expect(all.split(`Row ${i}\n`).length - 1).toBe(1);
  });

  it('does not repeat the first row when it is not a header', () => {
    const { pdf } = render({ elements: [{ id: 't', type: 'table', rows: rows(100), headerRow: false }] });
    const all = pdfText(pdf);
    expect(all.split('Name').length - 1).toBe(1);
  });

  it('splits a row taller than a page between lines, never through one', () => {
    const lines = Array.from({ length: 150 }, (_, i) => `cell line ${i + 1}`).join('\n');
    const { pdf } = render({ elements: [{ id: 't', type: 'table', rows: [['Head'], [lines], ['after']], headerRow: true }] });
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const printed = pages.join('\n').split('\n').filter((l) => l.startsWith('cell line'));
    expect(printed).toEqual(Array.from({ length: 150 }, (_, i) => `cell line ${i + 1}`));
    expect(pages[1]!.trimStart().startsWith('Head')).toBe(true);
  });

  it('sizes columns by their relative widths', () => {
    const { pdf } = render({ elements: [{ id: 't', type: 'table', rows: [['A', 'B']], columnWidths: [3, 1] }] });
    const qdf = pdfQdf(pdf);
    const xs = [...qdf.matchAll(/1 0 0 1 ([\d.]+) [\d.]+ Tm/g)].map((m) => Number(m[1]));
    const content = 595.28 - 2 * 56.69;
    // Column B starts three quarters of the way across, plus the cell padding.
    expect(xs[1]! - xs[0]!).toBeCloseTo(content * 0.75, 0);
  });
});

describe('images', () => {
  it('embeds a PNG with alpha as an image with a soft mask', () => {
    const { pdf, warnings } = render(
      { elements: [{ id: 'i', type: 'image', src: '/api/assets/logo', width: 100, height: 100 }] },
      { assets: { '/api/assets/logo': new Uint8Array(makeAlphaPng()) } },
    );
    expect(warnings).toEqual([]);
    const qdf = pdfQdf(pdf);
    expect(qdf).toMatch(/\/SMask \d+ 0 R/);
    // 100 px = 75 pt.
    expect(qdf).toMatch(/q 75 0 0 75 [\d.]+ [\d.]+ cm \/Im1 Do Q/);
  });

  it('passes an opaque PNG through with its PNG predictor', () => {
    const { pdf } = render(
      { elements: [{ id: 'i', type: 'image', src: 'https://example.test/a.png' }] },
      { assets: { 'https://example.test/a.png': new Uint8Array(makeOpaquePng()) } },
    );
    const qdf = pdfQdf(pdf);
    expect(qdf).toContain('/Width 32');
    expect(qdf).not.toContain('/SMask');
  });

  it('passes a JPEG through as DCTDecode', () => {
    const { pdf } = render({ elements: [{ id: 'i', type: 'image', src: '/api/assets/j' }] }, { assets: { '/api/assets/j': JPEG } });
    expect(pdfQdf(pdf)).toContain('/DCTDecode');
  });

  it('scales a too-wide box to the page, and draws the image in it at its own proportions, centred', () => {
    // sample.jpg is 67 x 94 px: in a 2:1 box it fills the height and is centred across.
    const { pdf } = render(
      { elements: [{ id: 'i', type: 'image', src: '/api/assets/j', width: 2000, height: 1000, align: 'center' }] },
      { assets: { '/api/assets/j': JPEG } },
    );
    const m = /q ([\d.]+) 0 0 ([\d.]+) ([\d.]+) [\d.]+ cm/.exec(pdfQdf(pdf))!;
    const content = 595.28 - 2 * 56.69;
    const drawnH = content / 2;
    const drawnW = (drawnH * 67) / 94;
    expect(Number(m[1])).toBeCloseTo(drawnW, 0);
    expect(Number(m[2])).toBeCloseTo(drawnH, 0);
    expect(Number(m[3])).toBeCloseTo(56.69 + (content - drawnW) / 2, 0);
  });

  it('never stretches an image: a box of another shape leaves it its proportions', () => {
    const { pdf } = render(
      { elements: [{ id: 'i', type: 'image', src: '/api/assets/j', width: 300, height: 200, align: 'left' }] },
      { assets: { '/api/assets/j': JPEG } },
    );
    const m = /q ([\d.]+) 0 0 ([\d.]+) ([\d.]+) [\d.]+ cm/.exec(pdfQdf(pdf))!;
    expect(Number(m[1]) / Number(m[2])).toBeCloseTo(67 / 94, 2);
    expect(Number(m[2])).toBeCloseTo(200 * 0.75, 1);
  });

  it('draws a visible empty box for a missing or corrupt image and reports it', () => {
    const { pdf, warnings } = render(
      {
        elements: [
          { id: 'a', type: 'image', src: '/api/assets/none' },
          { id: 'b', type: 'image', src: '/api/assets/bad' },
          { id: 'c', type: 'image', src: '/api/assets/trunc' },
        ],
      },
      { assets: { '/api/assets/bad': new Uint8Array([1, 2, 3, 4]), '/api/assets/trunc': new Uint8Array(makeAlphaPng()).slice(0, 60) } },
    );
    expect(warnings.map((w) => [w.code, w.elementId])).toEqual([
      ['image_missing', 'a'],
      ['image_unreadable', 'b'],
      ['image_unreadable', 'c'],
    ]);
    const [page] = pdfRaster(pdf, 30);
    // The box outline is grey: some pixels are neither white nor black.
    let grey = 0;
    for (let i = 0; i < page!.data.length; i += 4) if (page!.data[i]! < 230 && page!.data[i]! > 60) grey++;
    expect(grey).toBeGreaterThan(100);
  });
});

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

describe('unicode', () => {
  it('extracts Latin, Greek, Cyrillic, currency signs and punctuation', () => {
    const line = 'Łódź Straße façade — Καλημέρα Съешь ₹1,250 €99 £45 ¥3000 “quoted” ‘single’ …';
    const { pdf, warnings } = render({ elements: [{ id: '1', type: 'paragraph', content: line }] });
    expect(warnings).toEqual([]);
    expect(flat(pdfText(pdf))).toBe(line);
  });

  it('shapes Devanagari conjuncts and vowel signs and extracts them in logical order', () => {
    const line = 'नमस्ते क्षत्रिय हिन्दी प्रत्येक कृपया';
    const { pdf, warnings } = render({ elements: [{ id: '1', type: 'paragraph', content: line }] });
    expect(warnings).toEqual([]);
    expect(flat(pdfText(pdf))).toBe(line);
    expect(pdfFonts(pdf).map((f) => f.name.split('+')[1])).toContain('NotoSansDevanagari-400Regular');
    // The i-matra of "हि" is drawn before its consonant, so the word needs ActualText to read back.
    expect(pdfQdf(pdf)).toContain('/ActualText');
  });

  it('joins Arabic letters, orders them right to left, and extracts the logical text', () => {
    const { pdf } = render({
      elements: [{ id: '1', type: 'paragraph', content: 'The greeting in the letter reads مرحبا بالعالم in Arabic script' }],
    });
    const text = flat(pdfText(pdf).replace(/[\u202a-\u202e]/g, ''));
    expect(text).toContain('مرحبا');
    expect(text).toContain('بالعالم');
    expect(text.startsWith('The greeting in the letter reads')).toBe(true);
    expect(text.endsWith('in Arabic script')).toBe(true);
    // In visual order the first logical word (مرحبا) is to the right of the second.
    const qdf = pdfQdf(pdf);
    const xs = [...qdf.matchAll(/1 0 0 1 ([\d.]+) [\d.]+ Tm\n\/Span << \/ActualText <FEFF([0-9a-f]+)>/gi)].map((m) => ({
      x: Number(m[1]),
      text: String.fromCharCode(...(m[2]!.match(/..../g) ?? []).map((h) => parseInt(h, 16))),
    }));
    const first = xs.find((a) => [...a.text].reverse().join('') === 'مرحبا')!;
    const second = xs.find((a) => [...a.text].reverse().join('') === 'بالعالم')!;
    expect(first.x).toBeGreaterThan(second.x);
  });

  it('draws Simplified Chinese, Japanese and Korean, regular and bold, with small subsets', () => {
    const texts = ['简体中文测试', '日本語のテキスト カタカナ', '한국어 텍스트'];
    const { pdf, warnings } = render({
      elements: [
        { id: '1', type: 'heading', content: '請求書 청구서' },
        ...texts.map((content, i) => ({ id: String(i + 2), type: 'paragraph' as const, content })),
      ],
    });
    expect(warnings).toEqual([]);
    const text = pdfText(pdf);
    for (const line of [...texts, '請求書 청구서']) expect(text).toContain(line);
    // Only the glyphs used are embedded, not the 10 MB faces.
    expect(pdf.length).toBeLessThan(150_000);
  });

  it('names the characters no bundled font has, and still renders the rest', () => {
    const { pdf, warnings } = render({ elements: [{ id: '1', type: 'paragraph', content: 'Private \uE000 and \uE001\uE000 here' }] });
    expect(warnings).toEqual([
      { code: 'missing_glyphs', message: 'No bundled font can draw these characters, so they print as empty boxes: U+E000, U+E001.' },
    ]);
    expect(flat(pdfText(pdf))).toContain('here');
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

describe('hostile input', () => {
  it('renders an empty format as one blank page', () => {
    const { pdf, warnings } = render({ elements: [] });
    expect(warnings).toEqual([]);
    expect(pdfInfo(pdf).Pages).toBe('1');
  });

  it('wraps a 20,000-character paragraph without spaces', () => {
    const { pdf } = render({ elements: [{ id: '1', type: 'paragraph', content: 'x'.repeat(20_000) }] });
    const text = pdfText(pdf).replace(/\s/g, '');
    expect(text).toBe('x'.repeat(20_000));
    expect(Number(pdfInfo(pdf).Pages)).toBeGreaterThan(1);
  });

  it('renders a 1,000-row table', () => {
    const rows = [['#', 'v'], ...Array.from({ length: 999 }, (_, i) => [String(i + 1), 'value'])];
    const { pdf } = render({ elements: [{ id: '1', type: 'table', rows, headerRow: true }] });
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.at(-1)).toContain('999');
  });

  it('drops control characters', () => {
    const { pdf } = render({
      elements: [{ id: '1', type: 'paragraph', content: 'al\u0000ph\u0007a\u001bbe\u007fta\u0085!\r\nsecond\tline\rthird\uD800' }],
    });
    expect(pdfText(pdf, { layout: true }).split('\n').map((l) => l.trim()).filter(Boolean)).toEqual([
      'alphabeta!',
      'second line',
      'third\uFFFD',
    ]);
  });

  it('skips and reports unknown element types and survives malformed content', () => {
    const out = renderPdf({
      format: {
        content: {
          elements: [
            { id: 'x', type: 'video', src: 'a' },
            null,
            42,
            { id: 'p', type: 'paragraph', content: 'kept' },
            { id: 'bad', type: 'table', rows: 'nope' },
            { type: 'heading', content: { toString: 'no' } },
          ],
          style: { fontFamily: 'Comic Sans' },
          page: { size: 'A0' },
        },
        placeholders: [{ name: 5 }],
      } as never,
      data: { x: { y: 1 } } as never,
      assets: { a: 'not bytes' } as never,
      meta: { title: 42, creationDate: 'yesterday' } as never,
    });
    assertValidPdf(out.pdf);
    expect(flat(pdfText(out.pdf))).toBe('kept');
    const codes = out.warnings.map((w) => w.code);
    expect(codes.filter((c) => c === 'unknown_element')).toHaveLength(3);
    expect(codes).toContain('invalid_element');
    expect(codes).toContain('invalid_setting');
    expect(out.warnings.find((w) => w.code === 'unknown_element')?.elementId).toBe('x');
  });

  it('stops at the page limit instead of running unbounded', () => {
    const rows = Array.from({ length: 1000 }, () => [Array.from({ length: 40 }, (_, i) => `l${i}`).join('\n')]);
    const out = renderPdf({
      format: { content: { elements: [{ id: 't', type: 'table', rows }, { id: 'u', type: 'table', rows }] }, placeholders: [] } as never,
      data: {},
      meta: { title: 't', creationDate: DATE },
    });
    assertValidPdf(out.pdf);
    expect(out.warnings.map((w) => w.code)).toContain('page_limit');
    expect(Number(pdfInfo(out.pdf).Pages)).toBe(1000);
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
