import { createRequire } from 'node:module';
import path from 'node:path';
import type { THeadingSize } from '../../../contract/format-content.ts';
import { AppError } from '../../http/app-error.ts';
import type { TBlock, TConversion } from './blocks.ts';
import { badFile } from './file-check.ts';

/*
 * PDF: the text layer only (no tables or images), through pdf.js's legacy build for Node.
 * Text items are grouped into lines by their baseline, lines are ordered top to bottom and left
 * to right, and lines become paragraphs where the vertical gap is clearly larger than the usual
 * line spacing. Lines set clearly larger than the body text become headings; lines starting with
 * a bullet become list items; bare page numbers at the top or bottom of a page are dropped.
 */

export const MAX_PDF_PAGES = 100;
/** Time for the text of the whole file; what is read by then is imported, with a warning. */
export const PDF_TIME_BUDGET_MS = 20_000;

type TPdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsPromise: Promise<TPdfjs> | null = null;
/** Loaded on first use: the library takes about half a second to load and most requests never need it. */
function loadPdfjs(): Promise<TPdfjs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

let assetDirs: { cMapUrl: string; standardFontDataUrl: string } | null = null;
/** Character maps (for CJK text) and standard-font metrics shipped in the package, as file paths. */
function pdfjsAssetDirs() {
  if (!assetDirs) {
    const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    assetDirs = { cMapUrl: path.join(root, 'cmaps') + path.sep, standardFontDataUrl: path.join(root, 'standard_fonts') + path.sep };
  }
  return assetDirs;
}

interface TItem {
  x: number;
  y: number;
  end: number;
  size: number;
  text: string;
}

interface TLine {
  page: number;
  y: number;
  x: number;
  right: number;
  size: number;
  text: string;
}

const BULLET_RE = /^[•◦▪▫●○■□‣⁃∙·–-]\s*/;
const PAGE_NUMBER_RE = /^(?:-\s*)?(?:page\s+)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?(?:\s*-)?$/i;

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Items on (nearly) the same baseline form a line, read left to right. */
function groupLines(items: TItem[], page: number): TLine[] {
  const groups: { y: number; size: number; items: TItem[] }[] = [];
  for (const item of items) {
    const g = groups.find((l) => Math.abs(l.y - item.y) <= 0.45 * Math.min(l.size, item.size));
    if (g) {
      g.items.push(item);
      g.size = Math.max(g.size, item.size);
    } else {
      groups.push({ y: item.y, size: item.size, items: [item] });
    }
  }
  const lines: TLine[] = [];
  for (const g of groups) {
    g.items.sort((a, b) => a.x - b.x);
    let text = '';
    let prevEnd: number | null = null;
    let chars = 0;
    let weighted = 0;
    for (const it of g.items) {
      if (prevEnd !== null && it.x - prevEnd > it.size * 0.12 && !text.endsWith(' ') && !it.text.startsWith(' ')) text += ' ';
      text += it.text;
      prevEnd = Math.max(prevEnd ?? it.end, it.end);
      const n = it.text.trim().length;
      chars += n;
      weighted += n * it.size;
    }
    text = text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    lines.push({
      page,
      y: g.y,
      x: g.items[0]!.x,
      right: prevEnd ?? g.items[0]!.end,
      size: chars > 0 ? weighted / chars : g.size,
      text,
    });
  }
  // Top of the page first (PDF y grows upwards), then left to right.
  lines.sort((a, b) => b.y - a.y || a.x - b.x);
  // A bare page number as the first or last line of the page.
  if (lines.length > 1 && PAGE_NUMBER_RE.test(lines[lines.length - 1]!.text)) lines.pop();
  if (lines.length > 1 && PAGE_NUMBER_RE.test(lines[0]!.text)) lines.shift();
  return lines;
}

function headingSize(ratio: number): THeadingSize {
  if (ratio >= 2) return 'text-4xl';
  if (ratio >= 1.6) return 'text-3xl';
  if (ratio >= 1.3) return 'text-2xl';
  return 'text-xl';
}

/** Lines into headings, paragraphs and bulleted lists. Exported for tests. */
export function linesToBlocks(lines: TLine[]): TBlock[] {
  if (lines.length === 0) return [];
  // The body size is the one most characters are set in.
  const bySize = new Map<number, number>();
  for (const l of lines) {
    const key = Math.round(l.size * 2) / 2;
    bySize.set(key, (bySize.get(key) ?? 0) + l.text.length);
  }
  const body = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const sameSize = (a: number, b: number) => Math.abs(a - b) <= Math.max(a, b) * 0.12;
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1]!;
    const b = lines[i]!;
    const gap = a.y - b.y;
    if (a.page === b.page && sameSize(a.size, body) && sameSize(b.size, body) && gap > 0 && gap < body * 3) gaps.push(gap);
  }
  const spacing = median(gaps) ?? body * 1.2;
  const rights = lines.filter((l) => sameSize(l.size, body)).map((l) => l.right);
  const fullRight = rights.length ? [...rights].sort((a, b) => a - b)[Math.floor(rights.length * 0.9)]! : Infinity;
  const isHeading = (size: number) => size >= body * 1.15;

  type TGroup = { kind: 'text' | 'bullet'; lines: TLine[] };
  const groups: TGroup[] = [];
  let current: TGroup | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const prev = i > 0 ? lines[i - 1]! : undefined;
    const bullet = BULLET_RE.test(line.text) && line.text.replace(BULLET_RE, '').length > 0;
    let breakBefore = true;
    if (current && prev) {
      if (prev.page === line.page) {
        const gap = prev.y - line.y;
        const threshold = sameSize(line.size, body) ? spacing * 1.45 : Math.max(prev.size, line.size) * 1.75;
        breakBefore = gap <= 0 || gap > threshold || !sameSize(prev.size, line.size);
      } else {
        // A paragraph running over a page break: no full stop before, a lowercase start after.
        breakBefore = !(sameSize(prev.size, line.size) && !/[.!?:]$/.test(prev.text) && /^\p{Ll}/u.test(line.text));
      }
      // A continuation line of a bullet is indented to the text after the bullet.
      if (!breakBefore && current.kind === 'bullet' && line.x < current.lines[0]!.x - 1) breakBefore = true;
    }
    if (bullet) breakBefore = true;
    if (breakBefore || !current) {
      current = { kind: bullet ? 'bullet' : 'text', lines: [line] };
      groups.push(current);
    } else {
      current.lines.push(line);
    }
  }

  const join = (ls: TLine[]) => {
    let text = '';
    ls.forEach((l, i) => {
      if (i === 0) {
        text = l.text;
        return;
      }
      const prev = ls[i - 1]!;
      if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(l.text)) text = text.slice(0, -1) + l.text;
      // A line that stops well short of the margin was broken on purpose (an address, a list).
      else if (prev.right < fullRight * 0.8) text += `\n${l.text}`;
      else text += ` ${l.text}`;
    });
    return text;
  };

  const blocks: TBlock[] = [];
  for (const g of groups) {
    if (g.kind === 'bullet') {
      const item = join(g.lines).replace(BULLET_RE, '').replace(/\n/g, ' ');
      const last = blocks[blocks.length - 1];
      if (last?.kind === 'list') last.items.push(item);
      else blocks.push({ kind: 'list', ordered: false, items: [item] });
      continue;
    }
    const size = Math.max(...g.lines.map((l) => l.size));
    const text = join(g.lines);
    if (isHeading(size) && text.length <= 150) {
      blocks.push({ kind: 'heading', text: text.replace(/\n/g, ' '), size: headingSize(size / body) });
    } else {
      blocks.push({ kind: 'paragraph', text });
    }
  }
  return blocks;
}

function isPdfjsError(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
}

export async function convertPdf(bytes: Uint8Array, opts: { timeBudgetMs?: number } = {}): Promise<TConversion> {
  const pdfjs = await loadPdfjs();
  const started = Date.now();
  const budget = opts.timeBudgetMs ?? PDF_TIME_BUDGET_MS;
  const warnings: string[] = [];
  const task = pdfjs.getDocument({
    // A copy: pdf.js may take ownership of (detach) the buffer it is given.
    data: new Uint8Array(bytes),
    ...pdfjsAssetDirs(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    disableStream: true,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    verbosity: 0,
  });
  try {
    let doc: Awaited<typeof task.promise>;
    try {
      doc = await task.promise;
    } catch (error) {
      if (isPdfjsError(error, 'PasswordException')) {
        throw badFile('This PDF is password-protected. Remove the password (for example, print it to a new PDF) and import it again.');
      }
      throw badFile('This PDF is damaged or is not a valid PDF, so it cannot be read.');
    }
    const pages = Math.min(doc.numPages, MAX_PDF_PAGES);
    if (doc.numPages > MAX_PDF_PAGES) {
      warnings.push(`The PDF has ${doc.numPages} pages; only the first ${MAX_PDF_PAGES} were imported.`);
    }
    const lines: TLine[] = [];
    let failedPages = 0;
    for (let p = 1; p <= pages; p++) {
      if (Date.now() - started > budget) {
        warnings.push(`Reading the PDF took too long; only the first ${p - 1} of its pages were imported.`);
        break;
      }
      try {
        const page = await doc.getPage(p);
        const content = await page.getTextContent();
        const items: TItem[] = [];
        for (const raw of content.items) {
          if (!('str' in raw) || raw.str.length === 0) continue;
          const [a, b, c, d, x, y] = raw.transform as number[];
          // Text rotated off the horizontal (stamps, margins notes) is not part of the reading flow.
          if (Math.abs(b ?? 0) > Math.abs(a ?? 0) * 0.2) continue;
          const size = Math.hypot(c ?? 0, d ?? 0) || raw.height || 1;
          items.push({ x: x ?? 0, y: y ?? 0, end: (x ?? 0) + raw.width, size, text: raw.str });
        }
        lines.push(...groupLines(items, p));
        page.cleanup();
      } catch {
        failedPages++;
      }
    }
    if (failedPages > 0)
      warnings.push(`${failedPages} page${failedPages === 1 ? '' : 's'} of the PDF could not be read and ${failedPages === 1 ? 'was' : 'were'} left out.`);
    if (lines.length === 0) {
      throw badFile('This PDF has no selectable text (it may be a scanned image), so there is nothing to import.');
    }
    warnings.push('Only the text of the PDF was imported: check the layout, and add tables and images in the builder.');
    return { blocks: linesToBlocks(lines), warnings };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badFile('This PDF is damaged or is not a valid PDF, so it cannot be read.');
  } finally {
    await task.destroy().catch(() => {});
  }
}
