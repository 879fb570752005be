import { describe, expect, it } from 'vitest';
import { ZRenderableFormat } from '../contract/format-content.ts';
import { fontChain, styleKey } from './fonts.ts';
import { renderPdf, type TRenderableFormat } from './index.ts';
import { checkAccessibility } from './test/pdf-accessibility-check.ts';
import { assertValidPdf, pdfInfo, pdfQdf, pdfText } from './testdata/pdf-tools.ts';

/*
 * Tagged documents in scripts whose glyphs do not read back as their text on their own: Arabic
 * (joined letters whose dots are glyphs of their own, drawn right to left) and Devanagari
 * (conjuncts, vowel signs drawn before their consonant, one glyph shared by two vowel signs).
 */

const created = new Date('2026-03-04T05:06:07Z');
const accessible = (format: unknown): TRenderableFormat => {
  const parsed = ZRenderableFormat.parse(format);
  return { ...parsed, content: { ...parsed.content, accessible: true } as TRenderableFormat['content'] };
};
const document = (heading: string, paragraph: string, items: string[], locale: string, tagged = true) => {
  const content = {
    content: {
      elements: [
        { id: 'h', type: 'heading', content: heading, level: 1 },
        { id: 'p', type: 'paragraph', content: paragraph },
        { id: 'l', type: 'list', items },
      ],
    },
    placeholders: [],
  };
  return renderPdf({
    format: tagged ? accessible(content) : ZRenderableFormat.parse(content),
    data: {},
    meta: { title: heading, creationDate: created, locale },
  }).pdf;
};
const words = (text: string) => text.split(/\s+/).filter(Boolean);

const DEVANAGARI = {
  heading: 'किराया अनुबंध',
  paragraph: 'दोनों पक्ष सहमत हैं कि किराये की अवधि एक वर्ष होगी, जो हस्ताक्षर की तारीख से शुरू होगी, और मासिक किराया हर महीने की पहली तारीख को दिया जाएगा।',
  items: ['दोनों पक्ष सहमत हैं', 'मासिक किराया'],
};
const ARABIC = {
  heading: 'عقد إيجار',
  paragraph: 'يتفق الطرفان على أن مدة الإيجار سنة واحدة تبدأ من تاريخ التوقيع وأن الأجرة الشهرية تدفع في أول كل شهر',
  items: ['مدة الإيجار سنة', 'الأجرة الشهرية'],
};

describe('a tagged document in a complex script', () => {
  it('in Devanagari passes the check, and reads back word for word in its own order', async () => {
    const pdf = document(DEVANAGARI.heading, DEVANAGARI.paragraph, DEVANAGARI.items, 'hi-IN');
    assertValidPdf(pdf);
    expect(pdfInfo(pdf).Tagged).toBe('yes');
    const report = await checkAccessibility(pdf);
    // Every glyph maps to text (PDF/A), every drawing is content or an artifact (PDF/UA).
    expect(report.findings).toEqual([]);
    expect(report.elements.map((e) => e.role)).toEqual(['Document', 'H1', 'P', 'L', 'LI', 'Lbl', 'LBody', 'LI', 'Lbl', 'LBody']);
    // "ा" and "ो" share a glyph in this font: the words that need it otherwise carry ActualText.
    const expected = words([DEVANAGARI.heading, DEVANAGARI.paragraph, ...DEVANAGARI.items.map((item) => `• ${item}`)].join(' '));
    expect(words(pdfText(pdf))).toEqual(expected);
    expect(Buffer.from(pdf).toString('latin1')).toContain('/Lang (hi-IN)');
  });

  it('in Arabic passes the check, every glyph (a letter’s dots too) mapped to text, and reads back every word', async () => {
    const pdf = document(ARABIC.heading, ARABIC.paragraph, ARABIC.items, 'ar');
    assertValidPdf(pdf);
    const report = await checkAccessibility(pdf);
    expect(report.findings).toEqual([]);
    expect(report.elements.map((e) => e.role)).toEqual(['Document', 'H1', 'P', 'L', 'LI', 'Lbl', 'LBody', 'LI', 'Lbl', 'LBody']);
    // The page runs left to right, so an extractor may order the words of a right-to-left line
    // its own way; each word must come back whole, from its ActualText.
    const extracted = words(pdfText(pdf).replace(/[\u200e\u200f\u202a-\u202e]/g, ''));
    for (const word of words([ARABIC.heading, ARABIC.paragraph, ...ARABIC.items].join(' '))) expect(extracted).toContain(word);
    // The structure holds the words in reading order, though the line draws them right to left:
    // the heading's first is "عقد" (pdf.js reads each word by its glyphs, without ActualText).
    const read = report.readingOrder.map((text) => text.replace(/\u200d/g, '').trim()).filter(Boolean);
    expect(read[0]).toBe('عقد');
  });

  it('gives a right-to-left link one annotation a line, its words in reading order', () => {
    const pdf = renderPdf({
      format: accessible({ content: { elements: [{ id: 'p', type: 'paragraph', content: 'Read [مدة الإيجار سنة](https://example.com/terms) here.' }] } }),
      data: {},
      meta: { title: 'Link', creationDate: created, locale: 'ar' },
    }).pdf;
    const objects = pdfQdf(pdf);
    expect(objects.match(/\/Subtype \/Link/g)).toHaveLength(1);
    const contents = /\/Contents <feff([0-9a-f]+)>/.exec(objects)![1]!;
    expect(Buffer.from(contents, 'hex').swap16().toString('utf16le')).toBe('مدة الإيجار سنة');
  });

  it('prints the same bytes, and reads back right, whatever the process shaped before', () => {
    const [heading, paragraph, item] = ['नया बाज़ार', 'पाठशाला के पास नया बाज़ार खुला है, जो रोज़ खुलता है।', 'बाज़ार का नक्शा'];
    const first = document(heading, paragraph, [item], 'hi-IN');
    // Another history: the face's cache of shaped words has let these go (it keeps 4,000), and
    // fontkit's object for the glyph of "ा", which it keeps with the code points it was first made
    // for, was first made for "ो", which this font draws with it.
    const face = fontChain('sans', styleKey(false, false)).faceFor(0x0915)!;
    const caches = face as unknown as { shapeCache: Map<string, unknown>; exactShapeCache: Map<string, unknown> };
    const forgetShapes = () => {
      caches.shapeCache.clear();
      caches.exactShapeCache.clear();
    };
    const font = face.font as unknown as { _glyphs: Record<number, unknown> };
    const glyphObjects = font._glyphs;
    let again: Uint8Array;
    try {
      forgetShapes();
      font._glyphs = {};
      face.font.getGlyph(face.gidFor(0x093e), [0x094b]);
      document('रोज़', 'जो रोज़ खुलता', ['ो'], 'hi-IN', false);
      again = document(heading, paragraph, [item], 'hi-IN');
    } finally {
      // Other files in this process render untagged documents, whose bytes depend on this state.
      font._glyphs = glyphObjects;
      forgetShapes();
    }
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    expect(words(pdfText(again))).toEqual(words(`${heading} ${paragraph} • ${item}`));
  });
});
