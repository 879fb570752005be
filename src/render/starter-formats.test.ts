import { describe, expect, it } from 'vitest';
import { contentTexts } from '../contract/format-content.ts';
import { findPlaceholderNames, PLACEHOLDER_TYPES } from '../contract/placeholders.ts';
import { STARTER_FORMATS, type TStarterFormat } from '../contract/starter-formats.ts';
import { renderPdf } from './index.ts';
import { assertValidPdf, pdfPages, pdfText } from './testdata/pdf-tools.ts';

const PAGE_TOKENS = new Set(['page', 'pages']);

/** A plausible value for every placeholder, by type. */
function sampleData(starter: TStarterFormat): Record<string, string> {
  return Object.fromEntries(
    starter.placeholders.map((p) => {
      switch (p.type) {
        case 'date':
          return [p.name, '2026-03-02'];
        case 'number':
          return [p.name, '1250'];
        case 'email':
          return [p.name, 'jane@example.com'];
        case 'tel':
          return [p.name, '+1 555 0100'];
        case 'select':
          return [p.name, p.options[0] ?? ''];
        default:
          return [p.name, `Sample ${p.name}`];
      }
    }),
  );
}

describe('starter formats', () => {
  it('offers the six documents newcomers ask for, each with a unique id', () => {
    expect(STARTER_FORMATS.map((s) => s.id)).toEqual(['offer-letter', 'nda', 'invoice', 'rental-agreement', 'patient-consent', 'certificate']);
  });

  it('together use every placeholder type', () => {
    const used = new Set(STARTER_FORMATS.flatMap((s) => s.placeholders.map((p) => p.type)));
    expect([...used].sort()).toEqual([...PLACEHOLDER_TYPES].sort());
  });

  for (const starter of STARTER_FORMATS) {
    describe(starter.name, () => {
      it('declares exactly the placeholders its text uses, and unique element ids', () => {
        const used = new Set(contentTexts(starter.content).flatMap((text) => findPlaceholderNames(text)).filter((n) => !PAGE_TOKENS.has(n)));
        expect([...used].sort()).toEqual(starter.placeholders.map((p) => p.name).sort());
        const ids = starter.content.elements.map((e) => e.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const p of starter.placeholders.filter((q) => q.type === 'select')) expect(p.options.length).toBeGreaterThan(1);
      });

      it('renders filled in, with every value printed and no tag left', () => {
        const data = sampleData(starter);
        const { pdf, warnings } = renderPdf({
          format: { content: starter.content, placeholders: starter.placeholders },
          data,
          assets: {},
          meta: { title: starter.name, creationDate: new Date('2026-03-02T09:00:00Z') },
        });
        assertValidPdf(pdf);
        expect(warnings).toEqual([]);
        const text = pdfText(pdf).replace(/\s+/g, ' ');
        expect(text).not.toContain('{{');
        for (const p of starter.placeholders.filter((q) => q.type === 'text')) expect(text).toContain(data[p.name]);
        expect(pdfPages(pdf).length).toBeLessThanOrEqual(starter.id === 'certificate' ? 1 : 2);
      });
    });
  }
});
