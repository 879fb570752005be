/**
 * Baseline: pdfkit 0.20 with the same embedded TTF fonts, in its fastest setup.
 *
 * The fonts are parsed ONCE with fontkit and the parsed font objects are registered with every
 * document (pdfkit accepts any object with a `layout` function as a font source). Registering
 * by path or Buffer instead makes pdfkit re-open and re-parse the font for every table cell,
 * which is an order of magnitude slower; that would be an unfair baseline.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { LAYOUT, MM_TO_PT, PT_PER_PX, docData, refDoc, type Kind } from '../fixture.ts';
import { fontPaths } from '../fonts.ts';
import { makeGradientPng } from '../png.ts';
import type { Engine } from './types.ts';

/** The bit of fontkit we use; required untyped so no ambient module types are needed. */
interface FontkitLike {
  create(data: Buffer): { layout: (...args: unknown[]) => unknown };
}
const fontkit = createRequire(import.meta.url)('fontkit') as FontkitLike;

const META_DATE = new Date('2024-01-01T00:00:00Z');

export async function createPdfkitEngine(): Promise<Engine> {
  const paths = fontPaths();
  // Parsed once; pdfkit's own types only list path/Buffer sources, hence the cast.
  const fonts = {
    sans: fontkit.create(readFileSync(paths.sans)),
    bold: fontkit.create(readFileSync(paths.sansBold)),
    deva: fontkit.create(readFileSync(paths.devanagari)),
    arab: fontkit.create(readFileSync(paths.arabic)),
  } as unknown as Record<'sans' | 'bold' | 'deva' | 'arab', Buffer>;
  const png = makeGradientPng();

  function renderOne(kind: Kind, i: number): Promise<Uint8Array> {
    const d = refDoc(kind, docData(i));
    const margin = LAYOUT.marginMm * MM_TO_PT;
    const doc = new PDFDocument({
      size: 'A4',
      margin,
      info: { Title: d.title, Producer: 'pdfkit', CreationDate: META_DATE },
    });
    const chunks: Buffer[] = [];
    const done = new Promise<Uint8Array>((resolve, reject) => {
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      doc.on('error', reject);
    });
    doc.registerFont('Sans', fonts.sans);
    doc.registerFont('SansBold', fonts.bold);
    doc.registerFont('Deva', fonts.deva);
    doc.registerFont('Arab', fonts.arab);
    const body = LAYOUT.bodyPx * PT_PER_PX;
    const gap = LAYOUT.blockGapPt;
    // pdfkit's line height is the font's own (ascent - descent + lineGap, ~1.15 em for Arimo);
    // lineGap tops it up to LAYOUT.lineHeight.
    const lineGap = body * (LAYOUT.lineHeight - 1.15);

    doc
      .font('SansBold')
      .fontSize(LAYOUT.headingPx * PT_PER_PX)
      .text(d.heading);
    doc.y += gap;
    doc.font('Sans').fontSize(body);
    for (const p of d.paragraphs) {
      doc.text(p, { align: 'justify', paragraphGap: gap, lineGap });
    }
    for (const line of d.scriptLines) {
      const font = line.script === 'devanagari' ? 'Deva' : line.script === 'arabic' ? 'Arab' : 'Sans';
      doc
        .font(font)
        .fontSize(body)
        .text(line.text, { paragraphGap: gap, lineGap, align: line.script === 'arabic' ? 'right' : 'left' });
    }
    doc.font('Sans');
    if (d.listItems.length > 0) {
      doc.list(d.listItems, { bulletRadius: 1.5, textIndent: 10, lineGap });
      doc.y += gap;
    }
    if (d.image) {
      doc.image(png, doc.page.margins.left, doc.y, { width: d.image.widthPt, height: d.image.heightPt });
      doc.y += d.image.heightPt + gap;
    }
    if (d.table) {
      const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
      const t = d.table;
      doc.table({
        columnStyles: t.widths.map((w) => w * width),
        rowStyles: (row) => (row === 0 ? { font: { src: 'SansBold' } } : undefined),
        defaultStyle: {
          padding: [LAYOUT.cellPadPt.y, LAYOUT.cellPadPt.x],
          border: 0.5,
          borderColor: '#888888',
          textOptions: { lineGap },
        },
        data: [t.header, ...t.rows],
      } as PDFKit.Mixins.TableOptionsWithData);
    }
    doc.end();
    return done;
  }

  return {
    name: 'pdfkit',
    render: (kind, i) => renderOne(kind, i),
    close: async () => {},
  };
}
