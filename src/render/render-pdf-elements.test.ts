import { describe, expect, it } from 'vitest';
import { makeAlphaPng, makeOpaquePng, pdfFonts, pdfPages, pdfQdf, pdfRaster, pdfText, pdfWords, type WordBox } from './testdata/pdf-tools.ts';
import { flat, JPEG, render } from './testdata/render-helpers.ts';

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
    const lines = pdfText(pdf)
      .split('\n')
      .filter((l) => l.trim());
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
    const lines = pdfText(pdf, { layout: true })
      .split('\n')
      .map((l) => l.trim());
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
    const printed = pages
      .join('\n')
      .split('\n')
      .filter((l) => l.startsWith('cell line'));
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
