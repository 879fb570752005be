import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TRenderableFormatInput } from '../contract/format-content.ts';
import { renderPdf } from './index.ts';
import { checkAccessibility } from './test/pdf-accessibility-check.ts';
import { assertValidPdf, pdfText } from './testdata/pdf-tools.ts';

/*
 * What the builder's choices become in a tagged document: heading levels, header columns, layout
 * tables, alternative text and decorative images.
 */

const logo = new Uint8Array(readFileSync(path.join(import.meta.dirname, 'testdata', 'sample.jpg')));

function render(content: TRenderableFormatInput['content'], data: Record<string, unknown> = {}, accessible = true) {
  const format = ZRenderableFormat.parse({ content: { ...content, ...(accessible ? { accessible: true } : {}) } });
  return renderPdf({ format, data, assets: { '/api/assets/logo': logo }, meta: { title: 'Blocks', creationDate: new Date('2026-03-04T05:06:07Z') } });
}
async function tagged(content: TRenderableFormatInput['content'], data: Record<string, unknown> = {}) {
  return checkAccessibility(render(content, data).pdf);
}

/** Each page's link annotations, as pdf.js reads them. */
async function linksOf(pdf: Uint8Array): Promise<{ page: number; url: string | undefined; contents: string }[]> {
  const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await lib.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  const out: { page: number; url: string | undefined; contents: string }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const annotations = (await (await doc.getPage(n)).getAnnotations()) as { subtype: string; url?: string; contentsObj?: { str: string } }[];
    for (const a of annotations) if (a.subtype === 'Link') out.push({ page: n, url: a.url, contents: a.contentsObj?.str ?? '' });
  }
  await doc.destroy();
  return out;
}
const roles = (report: Awaited<ReturnType<typeof tagged>>) => report.elements.map((e) => e.role);

describe('a tagged document', () => {
  it('gives a heading the level it was given, whatever its size', async () => {
    const report = await tagged({
      elements: [
        { id: 'a', type: 'heading', content: 'Agreement', fontSize: 'text-xl', level: 1 },
        { id: 'b', type: 'heading', content: 'Parties', fontSize: 'text-4xl', level: 2 },
        { id: 'c', type: 'heading', content: 'Older heading', fontSize: 'text-3xl' },
      ],
    });
    expect(report.elements.map((e) => [e.role, e.text])).toEqual([
      ['Document', ''],
      ['H1', 'Agreement'],
      ['H2', 'Parties'],
      ['H2', 'Older heading'],
    ]);
  });

  it('makes a header column’s cells row headers beside a header row’s column headers', async () => {
    const report = await tagged({
      elements: [
        {
          id: 't',
          type: 'table',
          headerRow: true,
          headerColumn: true,
          rows: [
            ['Field', 'Value'],
            ['Patient', 'Jane Roe'],
            ['Physician', 'Dr Ames'],
          ],
        },
      ],
    });
    expect(report.findings).toEqual([]);
    expect(report.elements.filter((e) => e.role === 'TH' || e.role === 'TD').map((e) => [e.role, e.text])).toEqual([
      ['TH', 'Field'],
      ['TH', 'Value'],
      ['TH', 'Patient'],
      ['TD', 'Jane Roe'],
      ['TH', 'Physician'],
      ['TD', 'Dr Ames'],
    ]);
  });

  it('reads a layout table as its cells’ paragraphs, leaving out empty cells', async () => {
    const report = await tagged({
      elements: [
        {
          id: 't',
          type: 'table',
          layout: true,
          rows: [
            ['**Acme Ltd**\n1 Main St', 'Invoice 42'],
            ['', 'Due May 4'],
          ],
        },
      ],
    });
    expect(report.findings).toEqual([]);
    expect(roles(report)).not.toContain('Table');
    expect(report.elements.filter((e) => e.role === 'P').map((e) => e.text)).toEqual(['Acme Ltd 1 Main St', 'Invoice 42', 'Due May 4']);
    expect(report.elements.find((e) => e.role === 'Div')).toBeDefined();
  });

  it('gives an image its alternative text with placeholders filled in, and leaves a decorative one out of the tree', async () => {
    const report = await tagged(
      {
        elements: [
          { id: 'i1', type: 'image', src: '/api/assets/logo', alt: 'Logo of {{company}}' },
          { id: 'i2', type: 'image', src: '/api/assets/logo', decorative: true },
          { id: 'p', type: 'paragraph', content: 'Text' },
        ],
      },
      { company: 'Acme' },
    );
    expect(report.findings).toEqual([]);
    expect(report.elements.filter((e) => e.role === 'Figure').map((e) => e.alt)).toEqual(['Logo of Acme']);
  });

  it('flags an image that is neither described nor decorative', async () => {
    const report = await tagged({ elements: [{ id: 'i', type: 'image', src: '/api/assets/logo' }] });
    expect(report.findings).toEqual(['A figure has no alternative text (/Alt).']);
  });

  it('prints a link as a clickable, tagged annotation over its words, its address filled in', async () => {
    const { pdf, warnings } = render(
      {
        elements: [
          { id: 'p', type: 'paragraph', content: 'Read [our **terms**](https://example.com/terms?ref={{ref}}) and __sign__ today.' },
          { id: 'l', type: 'list', items: ['Mail [the office](mailto:office@example.com)', 'A [bad link](javascript:alert(1)) stays text'] },
        ],
      },
      { ref: 'a b' },
    );
    expect(warnings).toEqual([]);
    expect(await linksOf(pdf)).toEqual([
      { page: 1, url: 'https://example.com/terms?ref=a%20b', contents: 'our terms' },
      { page: 1, url: 'mailto:office@example.com', contents: 'the office' },
    ]);
    const report = await checkAccessibility(pdf);
    expect(report.findings).toEqual([]);
    expect(report.elements.filter((e) => e.role === 'Link').map((e) => e.text)).toEqual(['our terms', 'the office']);
    expect(pdfText(pdf)).toContain('Read our terms and sign today.');
    expect(pdfText(pdf)).toContain('A [bad link](javascript:alert(1)) stays text');
    assertValidPdf(pdf);
  });

  it('keeps one Link for a link broken over two lines, with an annotation on each', async () => {
    const words = 'word '.repeat(27);
    const { pdf } = render({
      elements: [{ id: 'p', type: 'paragraph', content: `${words}[a link long enough to break over the end of this line](https://example.com)` }],
    });
    const links = await linksOf(pdf);
    expect(links.length).toBe(2);
    expect(links.every((l) => l.url === 'https://example.com/')).toBe(true);
    const report = await checkAccessibility(pdf);
    expect(report.findings).toEqual([]);
    expect(report.elements.filter((e) => e.role === 'Link')).toHaveLength(1);
  });

  it('prints links and underline markup as typed in a format saved before documents were tagged', async () => {
    const { pdf } = render({ elements: [{ id: 'p', type: 'paragraph', content: 'See [terms](https://example.com) and __this__.' }] }, {}, false);
    expect(await linksOf(pdf)).toEqual([]);
    expect(pdfText(pdf)).toContain('See [terms](https://example.com) and __this__.');
  });

  it('prints a link whose filled-in address is not http, https or mailto as its words, with a warning', async () => {
    const { pdf, warnings } = render(
      { elements: [{ id: 'p', type: 'paragraph', content: 'Then [pay here]({{pay_url}}).' }] },
      { pay_url: 'javascript:alert(1)' },
    );
    expect(warnings.map((w) => w.code)).toEqual(['link_invalid']);
    expect(await linksOf(pdf)).toEqual([]);
    expect(pdfText(pdf)).toContain('Then pay here.');
  });

  it('gives an element in another language its own /Lang, which its items and cells inherit, and a section’s to its elements', async () => {
    const content: TRenderableFormatInput['content'] = {
      locale: 'en-GB',
      elements: [
        { id: 'h', type: 'heading', content: 'Agreement', level: 1 },
        { id: 'ar', type: 'paragraph', content: 'يسري هذا العقد من تاريخ التوقيع.', lang: 'ar-SA' },
        { id: 'same', type: 'paragraph', content: 'Signed in London.', lang: 'en-gb' },
        { id: 'list', type: 'list', items: ['Prix', 'Durée'], lang: 'fr-FR' },
        { id: 's', type: 'section', lang: 'de-DE', elements: [{ id: 'de', type: 'paragraph', content: 'Gerichtsstand ist Berlin.' }] },
      ],
    };
    const report = await tagged(content);
    expect(report.findings).toEqual([]);
    expect(report.elements.map((e) => [e.role, e.lang ?? '', e.text])).toEqual([
      ['Document', '', ''],
      ['H1', '', 'Agreement'],
      ['P', 'ar-SA', expect.any(String) as string],
      // The document's own language, however it is written, is not repeated.
      ['P', '', 'Signed in London.'],
      ['L', 'fr-FR', ''],
      ['LI', '', ''],
      ['Lbl', '', '•'],
      ['LBody', '', 'Prix'],
      ['LI', '', ''],
      ['Lbl', '', '•'],
      ['LBody', '', 'Durée'],
      ['P', 'de-DE', 'Gerichtsstand ist Berlin.'],
    ]);
    // An untagged document has no structure to carry a language: its bytes do not change. (Latin
    // text only: untagged documents shape complex scripts through fontkit's shared glyph objects, as
    // they always did, and Arabic shaped here would change what legacy-output.test.ts expects.)
    const latin: TRenderableFormatInput['content'] = {
      locale: 'en-GB',
      elements: [
        { id: 'fr', type: 'paragraph', content: 'Les deux parties conviennent de ce qui suit.', lang: 'fr-FR' },
        { id: 's', type: 'section', lang: 'de-DE', elements: [{ id: 'de', type: 'paragraph', content: 'Gerichtsstand ist Berlin.' }] },
      ],
    };
    const untagged = render(latin, {}, false).pdf;
    const withoutLanguages = render({ ...latin, elements: latin.elements?.map(({ lang: _lang, ...element }) => element) }, {}, false).pdf;
    expect(Buffer.from(untagged).equals(Buffer.from(withoutLanguages))).toBe(true);
  });
});
