import { createRequire } from 'node:module';
import path from 'node:path';
import { pdfaFindings } from './pdfa-check.ts';

/*
 * Our own check of a tagged PDF, read with pdf.js (a parser of its own, not our writer's code):
 * the machine-checkable rules of the Matterhorn Protocol that apply to what Formwork writes.
 *
 * - The document is marked, has a language and a title, and asks viewers to show the title.
 * - Every drawing operation on every page (text, paths, images) is inside marked content: an
 *   element's content, or an artifact.
 * - Every marked-content sequence that is not an artifact belongs to an element of the tree.
 * - Figures have alternative text; a table has header cells.
 *
 * It applies the PDF/A-2a rules of pdfa-check.ts too (XMP, output intent, fonts, nothing
 * interactive that PDF/A forbids), whose findings are also listed on their own as `pdfa`, and it
 * returns the tree's text in reading order, as a screen reader would meet it.
 */

type TPdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<TPdfjs> | undefined;

export interface TStructEntry {
  page: number;
  role: string;
  depth: number;
  /** The text of the element's own marked content, in order. */
  text: string;
  alt?: string;
  /** Its own `/Lang`, when it has one. */
  lang?: string;
}

export interface TAccessibilityReport {
  /** Every finding, PDF/UA's and PDF/A's. */
  findings: string[];
  /** The PDF/A-2a findings alone. */
  pdfa: string[];
  /** The structure tree, depth first, page by page: one entry per element and page it has content on. */
  elements: TStructEntry[];
  /** The text of the tree's content in reading order, one string per marked-content sequence. */
  readingOrder: string[];
  /** The text of artifacts, page by page. */
  artifacts: string[][];
}

type TStructNode = { role?: string; alt?: string; lang?: string; children?: (TStructNode | { type: 'content' | 'object'; id: string })[] };

/** Operators that draw: each must be inside marked content. */
const DRAWING_OPS = [
  'showText',
  'showSpacedText',
  'nextLineShowText',
  'nextLineSetSpacingShowText',
  'constructPath',
  'fill',
  'eoFill',
  'stroke',
  'closeStroke',
  'fillStroke',
  'eoFillStroke',
  'closeFillStroke',
  'closeEOFillStroke',
  'shadingFill',
  'paintImageXObject',
  'paintInlineImageXObject',
  'paintImageMaskXObject',
  'paintSolidColorImageMask',
] as const;

export async function checkAccessibility(pdf: Uint8Array): Promise<TAccessibilityReport> {
  const lib = await (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const doc = await lib.getDocument({
    data: new Uint8Array(pdf),
    isEvalSupported: false,
    standardFontDataUrl: path.join(root, 'standard_fonts') + path.sep,
    cMapUrl: path.join(root, 'cmaps') + path.sep,
  }).promise;
  const findings: string[] = [];
  try {
    const markInfo = (await doc.getMarkInfo()) as { Marked?: boolean } | null;
    if (!markInfo?.Marked) findings.push('The document is not marked as tagged (/MarkInfo /Marked true).');
    const { info, metadata } = (await doc.getMetadata()) as { info: { Language?: string; Title?: string }; metadata: unknown };
    if (!info.Language) findings.push('The document has no language (/Lang).');
    if (!info.Title) findings.push('The document has no title.');
    const preferences = (await doc.getViewerPreferences()) as { DisplayDocTitle?: boolean } | null;
    if (!preferences?.DisplayDocTitle) findings.push('Viewers are not asked to show the title (/DisplayDocTitle).');

    const drawing = new Set<number>(DRAWING_OPS.map((name) => lib.OPS[name]));
    const textOf = new Map<string, string>();
    const artifacts: string[][] = [];
    const elements: TStructEntry[] = [];
    const readingOrder: string[] = [];
    const used = new Set<string>();
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const ops = await page.getOperatorList();
      let depth = 0;
      let outside = 0;
      for (const fn of ops.fnArray) {
        if (fn === lib.OPS.beginMarkedContent || fn === lib.OPS.beginMarkedContentProps) depth++;
        else if (fn === lib.OPS.endMarkedContent) depth--;
        else if (depth === 0 && drawing.has(fn)) outside++;
      }
      if (outside > 0) findings.push(`Page ${n}: ${outside} drawing operations are neither content of an element nor an artifact.`);

      const content = await page.getTextContent({ includeMarkedContent: true });
      const open: { id?: string; tag: string; text: string }[] = [];
      const pageArtifacts: string[] = [];
      for (const item of content.items as ({ type: string; id?: string; tag?: string } | { str: string })[]) {
        if ('str' in item) {
          const top = open.at(-1);
          if (top) top.text += item.str;
          continue;
        }
        if (item.type === 'beginMarkedContent' || item.type === 'beginMarkedContentProps')
          open.push({ ...(item.id ? { id: item.id } : {}), tag: item.tag ?? '', text: '' });
        else if (item.type === 'endMarkedContent') {
          const done = open.pop();
          if (!done) continue;
          const outer = open.at(-1);
          // pdf.js puts a space before an item that starts away from the one before.
          if (done.tag === 'Artifact') pageArtifacts.push(done.text.trim());
          else if (done.id) textOf.set(done.id, done.text.trim());
          // Marked content inside an element's (a span with its ActualText) is that element's.
          else if (outer) outer.text += done.text;
          else findings.push(`Page ${n}: marked content ${done.tag} has no MCID, so no element can own it.`);
        }
      }
      artifacts.push(pageArtifacts);

      const tree = (await page.getStructTree()) as TStructNode | null;
      const walk = (node: TStructNode, depth: number) => {
        // pdf.js names the tree's own root "Root"; the document's elements are below it.
        const element = node.role && node.role !== 'Root' ? node.role : undefined;
        if (element) {
          const texts: string[] = [];
          for (const kid of node.children ?? []) {
            if ('type' in kid && kid.type === 'content') {
              used.add(kid.id);
              const t = textOf.get(kid.id) ?? '';
              texts.push(t);
              readingOrder.push(t);
            }
          }
          elements.push({
            page: n,
            role: element,
            depth,
            text: texts.filter(Boolean).join(' '),
            ...(node.alt !== undefined ? { alt: node.alt } : {}),
            ...(node.lang !== undefined ? { lang: node.lang } : {}),
          });
        }
        for (const kid of node.children ?? []) if (!('type' in kid)) walk(kid, element ? depth + 1 : depth);
      };
      // pdf.js gives each page the part of the tree with content on that page: an element that
      // spans pages (a long table) is listed on each of them.
      if (tree) walk(tree, 0);
    }
    for (const id of textOf.keys()) if (!used.has(id)) findings.push(`Marked content ${id} belongs to no element of the structure tree.`);
    for (const element of elements) {
      if (element.role === 'Figure' && !element.alt) findings.push('A figure has no alternative text (/Alt).');
    }
    const tables = elements.filter((e) => e.role === 'Table').length;
    const headerCells = elements.filter((e) => e.role === 'TH').length;
    if (tables > 0 && headerCells === 0) findings.push('No table has header cells (TH).');
    const pdfa = pdfaFindings(pdf, info, metadata !== null);
    return { findings: [...findings, ...pdfa], pdfa, elements, readingOrder, artifacts };
  } finally {
    await doc.destroy();
  }
}
