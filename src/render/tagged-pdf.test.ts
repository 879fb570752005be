import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { exampleData } from '../contract/example-data.ts';
import { ZRenderableFormat } from '../contract/format-content.ts';
import { STARTER_FORMATS } from '../contract/starter-formats.ts';
import { renderPdf, type TRenderableFormat } from './index.ts';
import { checkAccessibility } from './test/pdf-accessibility-check.ts';
import { pdfInfo, pdfStructure, pdfText } from './testdata/pdf-tools.ts';

/*
 * Tagged documents (docs/accessible-pdf.md): a format version saved with `accessible` prints a
 * structure tree, its page furniture as artifacts, and the document's language and title.
 */

const created = new Date('2026-03-04T05:06:07Z');
const render = (format: TRenderableFormat, data: Record<string, unknown> = {}, locale?: string) =>
  renderPdf({ format, data, meta: { title: 'A tagged document', creationDate: created, ...(locale ? { locale } : {}) } }).pdf;
/** The format as a version saved since tagging, read from raw content as the renderer reads it. */
const accessible = (format: unknown): TRenderableFormat => {
  const parsed = ZRenderableFormat.parse(format);
  return { ...parsed, content: { ...parsed.content, accessible: true } as TRenderableFormat['content'] };
};
/** Words in order, so line breaks and spacing do not count. */
const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('a tagged document', () => {
  it.each(STARTER_FORMATS.map((s) => [s.name, s] as const))('%s passes the check, and its tree holds all its text', async (_name, starter) => {
    const pdf = render(accessible(starter), exampleData(starter.placeholders));
    expect(pdfInfo(pdf).Tagged).toBe('yes');
    const report = await checkAccessibility(pdf);
    expect(report.findings).toEqual([]);
    // Everything pdftotext finds is either in the tree or page furniture (the footer).
    const inTree = words(report.readingOrder.join(' '));
    const furniture = words(report.artifacts.flat().join(' '));
    expect(inTree.length + furniture.length).toBe(words(pdfText(pdf)).length);
    expect(report.elements.some((e) => /^H[1-6]$/.test(e.role))).toBe(true);
    // Poppler reads the same tree: the same text in the same order, headings and table cells among it.
    const poppler = pdfStructure(pdf);
    expect(words(poppler.text)).toEqual(inTree);
    expect(poppler.elements.map((e) => e.role)).toEqual(report.elements.map((e) => e.role));
  });

  it('reads a one-column document in the order pdftotext prints it, headings, lists and all', async () => {
    const format = accessible({
      content: {
        locale: 'de-DE',
        elements: [
          { id: 'h', type: 'heading', content: 'Hausordnung', fontSize: 'text-3xl' },
          { id: 'p', type: 'paragraph', content: 'Für alle **Mieter** des Hauses {{address}}.' },
          { id: 'l', type: 'list', listStyle: 'numbered', items: ['Ruhezeiten von 22 bis 6 Uhr', 'Müll getrennt entsorgen'] },
          { id: 's', type: 'heading', content: 'Kontakt', fontSize: 'text-xl' },
          { id: 'q', type: 'paragraph', content: 'Hausverwaltung Nord, [Kontaktformular](https://example.com/kontakt)' },
        ],
      },
      placeholders: [{ name: 'address', type: 'text', required: false }],
    });
    const pdf = render(format, { address: 'Lindenweg 4' });
    const report = await checkAccessibility(pdf);
    expect(report.findings).toEqual([]);
    expect(words(report.readingOrder.join(' '))).toEqual(words(pdfText(pdf)));
    const roles = ['Document', 'H2', 'P', 'L', 'LI', 'Lbl', 'LBody', 'LI', 'Lbl', 'LBody', 'H4', 'P', 'Link'];
    expect(report.elements.map((e) => e.role)).toEqual(roles);
    // As poppler prints the tree (`pdfinfo -struct-text`): the same elements, and pdftotext's words in its order.
    const poppler = pdfStructure(pdf);
    expect(poppler.elements.map((e) => e.role)).toEqual(roles);
    expect(words(poppler.text)).toEqual(words(pdfText(pdf)));
    expect(poppler.elements.find((e) => e.role === 'Link')?.text).toBe('Kontaktformular');
    expect(report.elements.find((e) => e.role === 'LBody')?.text).toBe('Ruhezeiten von 22 bis 6 Uhr');
    expect(pdfInfo(pdf).Title).toBe('A tagged document');
    // The language is the format's locale.
    expect(Buffer.from(pdf).toString('latin1')).toContain('/Lang (de-DE)');
  });

  it('keeps a 150-line table one table: its header cells once, the header repeated on later pages an artifact', async () => {
    const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;
    const data = exampleData(invoice.placeholders);
    data.items = Array.from({ length: 150 }, (_, i) => ({ description: `Line ${i + 1}`, qty: 1, unit_price: 10 }));
    const pdf = render(accessible(invoice), data);
    const report = await checkAccessibility(pdf);
    expect(report.findings).toEqual([]);
    const pages = Number(pdfInfo(pdf).Pages);
    expect(pages).toBeGreaterThan(2);
    // One header row of four cells, on the first page only; on every later page the header is drawn again, as an artifact.
    const lineTable = report.elements.filter((e) => e.role === 'TH' && ['Description', 'Qty', 'Unit price', 'Amount'].includes(e.text));
    expect(lineTable.map((e) => e.page)).toEqual([1, 1, 1, 1]);
    for (let page = 2; page <= pages; page++) expect(report.artifacts[page - 1]!.join(' ')).toContain('Description');
    const lines = report.readingOrder.filter((t) => /^Line \d+$/.test(t));
    expect(lines).toEqual(Array.from({ length: 150 }, (_, i) => `Line ${i + 1}`));
    // The footer's page numbers are artifacts, not text a reader meets on every page.
    expect(report.readingOrder.join(' ')).not.toMatch(/Page \d+ of \d+/);
    expect(report.artifacts[1]!.join(' ')).toContain(`Page 2 of ${pages}`);
  });

  it('is found wanting where a figure has no alternative text', async () => {
    const logo = new PNG({ width: 2, height: 2 });
    logo.data.fill(200);
    const pdf = renderPdf({
      format: accessible({
        content: {
          elements: [
            { id: 'i', type: 'image', src: '/api/assets/logo', width: 100, height: 50 },
            { id: 'm', type: 'image', src: '/api/assets/missing', width: 100, height: 50 },
          ],
        },
        placeholders: [],
      }),
      data: {},
      assets: { '/api/assets/logo': PNG.sync.write(logo) },
      meta: { title: 'Images', creationDate: created },
    }).pdf;
    const report = await checkAccessibility(pdf);
    // The image, and the empty box drawn where a missing one would be, are each a figure's content.
    expect(report.elements.map((e) => e.role)).toEqual(['Document', 'Figure', 'Figure']);
    expect(report.findings).toEqual(['A figure has no alternative text (/Alt).', 'A figure has no alternative text (/Alt).']);
  });
});

describe('a document of a format version saved before tagging', () => {
  it('is not tagged, and the check says so', async () => {
    const pdf = render(ZRenderableFormat.parse({ content: { elements: [{ id: 'p', type: 'paragraph', content: 'Plain' }] } }));
    expect(pdfInfo(pdf).Tagged).toBe('no');
    const report = await checkAccessibility(pdf);
    expect(report.findings).toContain('The document is not marked as tagged (/MarkInfo /Marked true).');
    expect(report.findings).toContain('Page 1: 1 drawing operations are neither content of an element nor an artifact.');
  });
});
