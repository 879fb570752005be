import { describe, expect, it } from 'vitest';
import { renderPdf } from './index.ts';
import { assertValidPdf, pdfFonts, pdfInfo, pdfPages, pdfQdf, pdfText } from './testdata/pdf-tools.ts';
import { DATE, flat, render } from './testdata/render-helpers.ts';

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
    expect(warnings).toEqual([{ code: 'missing_glyphs', message: 'No bundled font can draw these characters, so they print as empty boxes: U+E000, U+E001.' }]);
    expect(flat(pdfText(pdf))).toContain('here');
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
    expect(
      pdfText(pdf, { layout: true })
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ).toEqual(['alphabeta!', 'second line', 'third\uFFFD']);
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
      format: {
        content: {
          elements: [
            { id: 't', type: 'table', rows },
            { id: 'u', type: 'table', rows },
          ],
        },
        placeholders: [],
      } as never,
      data: {},
      meta: { title: 't', creationDate: DATE },
    });
    assertValidPdf(out.pdf);
    expect(out.warnings.map((w) => w.code)).toContain('page_limit');
    expect(Number(pdfInfo(out.pdf).Pages)).toBe(1000);
  });
});
