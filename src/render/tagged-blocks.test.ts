import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TRenderableFormatInput } from '../contract/format-content.ts';
import { renderPdf } from './index.ts';
import { checkAccessibility } from './test/pdf-accessibility-check.ts';

/*
 * What the builder's choices become in a tagged document: heading levels, header columns, layout
 * tables, alternative text and decorative images.
 */

const logo = new Uint8Array(readFileSync(path.join(import.meta.dirname, 'testdata', 'sample.jpg')));

async function tagged(content: TRenderableFormatInput['content'], data: Record<string, unknown> = {}) {
  const format = ZRenderableFormat.parse({ content: { ...content, accessible: true } });
  const { pdf } = renderPdf({ format, data, assets: { '/api/assets/logo': logo }, meta: { title: 'Blocks', creationDate: new Date('2026-03-04T05:06:07Z') } });
  return checkAccessibility(pdf);
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
});
