/**
 * Baseline: pdfme (`@pdfme/generator`) with an equivalent template: text fields that expand
 * (heading, paragraphs, script lines), a list, an image and a table on a blank A4 base with
 * padding, so the table breaks across pages. Same TTF files as the other engines. pdfme embeds
 * only the fonts a document uses, so all four are always passed.
 *
 * Known limits of pdfme (it draws text through pdf-lib without shaping): Devanagari conjuncts
 * and joined Arabic forms are not produced, so on the Unicode sheet pdfme does less work than
 * the other engines.
 */
import { readFileSync } from 'node:fs';
import type { Font, Template } from '@pdfme/common';
import { generate } from '@pdfme/generator';
import { image, list, table, text } from '@pdfme/schemas';
import { LAYOUT, PT_PER_PX, docData, refDoc, type Kind, type RefDoc } from '../fixture.ts';
import { fontPaths } from '../fonts.ts';
import { makeGradientPng } from '../png.ts';
import type { Engine } from './types.ts';

const PT_TO_MM = 25.4 / 72;
const PAGE_W = 210;
const M = LAYOUT.marginMm;
const CONTENT_W = PAGE_W - 2 * M;
const BODY_PT = LAYOUT.bodyPx * PT_PER_PX;
const HEADING_PT = LAYOUT.headingPx * PT_PER_PX;

type SchemaLike = Record<string, unknown> & { name: string; type: string };

function buildTemplate(d: RefDoc, pngDataUrl: string): { template: Template; inputs: Record<string, string>[] } {
  const textBase = text.propPanel.defaultSchema as unknown as Record<string, unknown>;
  const listBase = list.propPanel.defaultSchema as unknown as Record<string, unknown>;
  const tableBase = table.propPanel.defaultSchema as unknown as Record<string, unknown>;
  const imageBase = image.propPanel.defaultSchema as unknown as Record<string, unknown>;
  const schemas: SchemaLike[] = [];
  const inputs: Record<string, string> = {};
  let y = M;
  const lineMm = BODY_PT * LAYOUT.lineHeight * PT_TO_MM;
  const gapMm = LAYOUT.blockGapPt * PT_TO_MM;

  const addText = (name: string, value: string, fontName: string, sizePt: number, lines: number, align = 'left') => {
    const height = Math.max(1, lines) * sizePt * LAYOUT.lineHeight * PT_TO_MM;
    schemas.push({
      ...textBase,
      name,
      type: 'text',
      position: { x: M, y },
      width: CONTENT_W,
      height,
      fontName,
      fontSize: sizePt,
      lineHeight: LAYOUT.lineHeight,
      alignment: align,
      overflow: 'expand',
      content: '',
    });
    inputs[name] = value;
    y += height + gapMm;
  };

  addText('heading', d.heading, 'SansBold', HEADING_PT, 1);
  d.paragraphs.forEach((p, i) => addText(`p${i}`, p, 'Sans', BODY_PT, 3, 'justify'));
  d.scriptLines.forEach((l, i) =>
    addText(
      `s${i}`,
      l.text,
      l.script === 'devanagari' ? 'Deva' : l.script === 'arabic' ? 'Arab' : 'Sans',
      BODY_PT,
      1,
      l.script === 'arabic' ? 'right' : 'left',
    ),
  );
  if (d.listItems.length > 0) {
    const height = d.listItems.length * lineMm;
    schemas.push({
      ...listBase,
      name: 'list',
      type: 'list',
      position: { x: M, y },
      width: CONTENT_W,
      height,
      fontName: 'Sans',
      fontSize: BODY_PT,
      lineHeight: LAYOUT.lineHeight,
      content: '[]',
    });
    inputs['list'] = JSON.stringify(d.listItems);
    y += height + gapMm;
  }
  if (d.image) {
    const w = d.image.widthPt * PT_TO_MM;
    const h = d.image.heightPt * PT_TO_MM;
    schemas.push({ ...imageBase, name: 'image', type: 'image', position: { x: M, y }, width: w, height: h, content: '' });
    inputs['image'] = pngDataUrl;
    y += h + gapMm;
  }
  if (d.table) {
    const t = d.table;
    const px = LAYOUT.cellPadPt.x * PT_TO_MM;
    const py = LAYOUT.cellPadPt.y * PT_TO_MM;
    const padding = { top: py, right: px, bottom: py, left: px };
    const base = tableBase as { headStyles: Record<string, unknown>; bodyStyles: Record<string, unknown> };
    schemas.push({
      ...tableBase,
      name: 'table',
      type: 'table',
      position: { x: M, y },
      width: CONTENT_W,
      height: (t.rows.length + 1) * (lineMm + 2 * py),
      showHead: true,
      repeatHead: true,
      head: t.header,
      headWidthPercentages: t.widths.map((w) => w * 100),
      tableStyles: { borderColor: '#888888', borderWidth: 0.2 },
      headStyles: {
        ...base.headStyles,
        fontName: 'SansBold',
        fontSize: BODY_PT,
        lineHeight: LAYOUT.lineHeight,
        fontColor: '#000000',
        backgroundColor: '',
        padding,
      },
      bodyStyles: { ...base.bodyStyles, fontName: 'Sans', fontSize: BODY_PT, lineHeight: LAYOUT.lineHeight, alternateBackgroundColor: '', padding },
      content: '[]',
    });
    inputs['table'] = JSON.stringify(t.rows);
  }
  const template = {
    basePdf: { width: PAGE_W, height: 297, padding: [M, M, M, M] },
    schemas: [schemas],
  } as unknown as Template;
  return { template, inputs: [inputs] };
}

export async function createPdfmeEngine(): Promise<Engine> {
  const paths = fontPaths();
  const font: Font = {
    Sans: { data: readFileSync(paths.sans), fallback: true, subset: true },
    SansBold: { data: readFileSync(paths.sansBold), subset: true },
    Deva: { data: readFileSync(paths.devanagari), subset: true },
    Arab: { data: readFileSync(paths.arabic), subset: true },
  };
  const pngDataUrl = `data:image/png;base64,${makeGradientPng().toString('base64')}`;
  const plugins = { text, list, table, image };

  return {
    name: 'pdfme',
    async render(kind: Kind, i: number) {
      const d = refDoc(kind, docData(i));
      const { template, inputs } = buildTemplate(d, pngDataUrl);
      return generate({ template, inputs, plugins, options: { font, title: d.title } });
    },
    close: async () => {},
  };
}
