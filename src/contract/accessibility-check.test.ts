import { describe, expect, it } from 'vitest';
import { accessibilityFindings, contrastRatio, documentAccessibility } from './accessibility-check.ts';
import { ZFormatContent, type TFormatContentInput } from './format-content.ts';
import { STARTER_FORMATS } from './starter-formats.ts';

const content = (input: TFormatContentInput) => ZFormatContent.parse(input);
const codes = (input: TFormatContentInput) => accessibilityFindings(content(input)).map((f) => [f.code, f.elementId ?? f.part]);

describe('accessibilityFindings', () => {
  it('asks for alternative text on an image with a source, unless it is decorative', () => {
    expect(
      codes({
        elements: [
          { id: 'a', type: 'image', src: '/api/assets/logo' },
          { id: 'b', type: 'image', src: '/api/assets/logo', alt: 'Acme logo' },
          { id: 'c', type: 'image', src: '/api/assets/rule', decorative: true },
          { id: 'd', type: 'image', src: '' },
        ],
      }),
    ).toEqual([['image_alt_missing', 'a']]);
  });

  it('finds a skipped heading level, a first heading below level 1, and an empty heading, sections opened up', () => {
    expect(
      codes({
        elements: [
          { id: 'h2', type: 'heading', content: 'Terms', level: 2 },
          { id: 'h1', type: 'heading', content: 'Offer', level: 1 },
          { id: 'sec', type: 'section', elements: [{ id: 'h3', type: 'heading', content: 'Salary', level: 3 }] },
          { id: 'empty', type: 'heading', content: '  ', level: 2 },
          { id: 'h2b', type: 'heading', content: 'Benefits', level: 2 },
        ],
      }),
    ).toEqual([
      ['heading_level_skipped', 'h2'],
      ['heading_level_skipped', 'h3'],
      ['heading_empty', 'empty'],
    ]);
  });

  it('takes a heading without a level from its size, as older formats print', () => {
    // text-2xl was level 3: after nothing, that skips two levels.
    expect(codes({ elements: [{ id: 'old', type: 'heading', content: 'Invoice', fontSize: 'text-2xl' }] })).toEqual([['heading_level_skipped', 'old']]);
    expect(codes({ elements: [{ id: 'old', type: 'heading', content: 'Invoice', fontSize: 'text-4xl' }] })).toEqual([]);
  });

  it('asks for a header row on a table', () => {
    expect(
      codes({
        elements: [
          { id: 't1', type: 'table', rows: [['a', 'b']] },
          { id: 't2', type: 'table', rows: [['Item', 'Price']], headerRow: true },
        ],
      }),
    ).toEqual([['table_header_missing', 't1']]);
  });

  it('finds links whose words are only their address, in paragraphs, list items and table cells', () => {
    expect(
      codes({
        elements: [
          { id: 'p1', type: 'paragraph', content: 'See [https://example.com/prices](https://example.com/prices).' },
          { id: 'p2', type: 'paragraph', content: 'See [example.com/prices](https://www.example.com/prices/).' },
          { id: 'p3', type: 'paragraph', content: 'See [our price list](https://example.com/prices) or write to [jo@example.com](mailto:jo@example.com).' },
          { id: 'l', type: 'list', items: ['Fine', 'Open [www.example.com](https://example.com/{{path}})'] },
          { id: 't', type: 'table', headerRow: true, rows: [['Where'], ['[mailto:jo@example.com](mailto:jo@example.com)']] },
          // Not a link in markup: printed as typed.
          { id: 'p4', type: 'paragraph', content: 'https://example.com' },
        ],
      }),
    ).toEqual([
      ['link_text_is_address', 'p1'],
      ['link_text_is_address', 'p2'],
      ['link_text_is_address', 'l'],
      ['link_text_is_address', 't'],
    ]);
    const [finding] = accessibilityFindings(content({ elements: [{ id: 'p', type: 'paragraph', content: '[https://a.example](https://a.example)' }] }));
    expect(finding?.message).toContain('“https://a.example”');
  });

  it('measures text colour against the white page by WCAG 2.2: 4.5:1 or more passes', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
    const findings = accessibilityFindings(
      content({
        elements: [
          { id: 'grey', type: 'paragraph', content: 'Small print', style: { color: '#aaaaaa' } },
          { id: 'dark', type: 'paragraph', content: 'Body', style: { color: '#333333' } },
        ],
        footer: { text: 'Page {{page}}', style: { color: '#cccccc' } },
      }),
    );
    expect(findings.map((f) => [f.code, f.elementId ?? f.part])).toEqual([
      ['text_contrast_low', 'grey'],
      ['text_contrast_low', 'footer'],
    ]);
    expect(findings[0]!.message).toBe('“Small print” is in #aaaaaa, a contrast of 2.3:1 on white; use at least 4.5:1.');
  });

  it('names the format’s own colour once, not every element that inherits it', () => {
    expect(
      codes({
        style: { color: '#bbbbbb' },
        elements: [
          { id: 'p1', type: 'paragraph', content: 'One' },
          { id: 'p2', type: 'paragraph', content: 'Two' },
        ],
      }),
    ).toEqual([['text_contrast_low', 'format']]);
  });
});

describe('text in another language', () => {
  const messages = (input: TFormatContentInput) => accessibilityFindings(content(input)).map((f) => [f.elementId, f.message]);

  it('is found by its script where the format’s language is not written in it, in every kind of text', () => {
    expect(
      codes({
        locale: 'en-US',
        elements: [
          { id: 'arabic', type: 'paragraph', content: 'يسري هذا العقد من تاريخ التوقيع.' },
          { id: 'hindi', type: 'heading', content: 'सेवा की शर्तें', level: 1 },
          { id: 'greek', type: 'list', items: ['Τιμή', 'Διάρκεια'] },
          { id: 'japanese', type: 'table', headerRow: true, rows: [['品目', '数量']] },
          { id: 'russian', type: 'image', src: '/api/assets/map', alt: 'Карта офиса' },
          { id: 'french', type: 'paragraph', content: 'Les deux parties conviennent de ce qui suit.' },
        ],
      }),
    ).toEqual([
      ['language_mismatch', 'arabic'],
      ['language_mismatch', 'hindi'],
      ['language_mismatch', 'greek'],
      ['language_mismatch', 'japanese'],
      ['language_mismatch', 'russian'],
    ]);
  });

  it('says which script and which language, and is gone once the element, or its section, has the language', () => {
    expect(messages({ locale: 'en-GB', elements: [{ id: 'p', type: 'paragraph', content: 'يسري هذا العقد' }] })).toEqual([
      [
        'p',
        '“\u2068يسري هذا العقد\u2069” is written in Arabic script, but the format’s language is British English. Set the language it is in, so that screen readers read it in the right voice.',
      ],
    ]);
    expect(codes({ locale: 'en-GB', elements: [{ id: 'p', type: 'paragraph', content: 'يسري هذا العقد', lang: 'ar-SA' }] })).toEqual([]);
    expect(
      codes({
        locale: 'en-GB',
        elements: [{ id: 's', type: 'section', lang: 'ar-SA', elements: [{ id: 'p', type: 'paragraph', content: 'يسري هذا العقد' }] }],
      }),
    ).toEqual([]);
    expect(messages({ locale: 'en-GB', elements: [{ id: 'p', type: 'paragraph', content: 'يسري هذا العقد', lang: 'fr-FR' }] })[0]?.[1]).toContain(
      'but its language is set to French (France).',
    );
  });

  it('counts the words a reader hears: not placeholders or link addresses, and not a letter or two among many', () => {
    expect(
      codes({
        locale: 'ar-SA',
        elements: [
          { id: 'tag', type: 'paragraph', content: '{{client_name}}' },
          { id: 'link', type: 'paragraph', content: '[شروط الخدمة](https://example.com/terms-and-conditions)' },
          { id: 'brand', type: 'paragraph', content: 'مرحبا بكم في Formwork للمستندات' },
          { id: 'english', type: 'paragraph', content: 'Dear {{client_name}}, welcome.' },
        ],
      }),
    ).toEqual([['language_mismatch', 'english']]);
    expect(codes({ locale: 'ja-JP', elements: [{ id: 'kanji', type: 'paragraph', content: '契約書' }] })).toEqual([]);
  });

  it('leaves alone a format in a language it does not know the script of', () => {
    expect(codes({ locale: 'xx-XX', elements: [{ id: 'p', type: 'paragraph', content: 'يسري هذا العقد' }] })).toEqual([]);
  });
});

describe('documentAccessibility', () => {
  const clean = { elements: [{ id: 'h', type: 'heading' as const, content: 'Offer', level: 1 }] };

  it('is neither PDF/UA nor PDF/A for a format saved before documents were tagged', () => {
    expect(documentAccessibility(content(clean))).toEqual({ pdfua: false, pdfa: false, warnings: [] });
  });

  it('is both for a tagged format with nothing missing; an image without alternative text costs PDF/UA', () => {
    expect(documentAccessibility(content({ ...clean, accessible: true }))).toEqual({ pdfua: true, pdfa: true, warnings: [] });
    const withImage = documentAccessibility(
      content({ ...clean, accessible: true, elements: [...clean.elements, { id: 'i', type: 'image', src: '/api/assets/x' }] }),
    );
    expect(withImage.pdfua).toBe(false);
    expect(withImage.pdfa).toBe(true);
    expect(withImage.warnings.map((w) => w.code)).toEqual(['image_alt_missing']);
  });

  it('keeps PDF/UA for findings that are advice rather than rules (a table without a header row)', () => {
    const result = documentAccessibility(content({ ...clean, accessible: true, elements: [...clean.elements, { id: 't', type: 'table', rows: [['a']] }] }));
    expect(result.pdfua).toBe(true);
    expect(result.warnings.map((w) => w.code)).toEqual(['table_header_missing']);
  });
});

describe('the starter formats', () => {
  it('have no accessibility findings', () => {
    for (const starter of STARTER_FORMATS) {
      expect({ starter: starter.name, findings: accessibilityFindings(ZFormatContent.parse(starter.content)) }).toEqual({
        starter: starter.name,
        findings: [],
      });
    }
  });
});
