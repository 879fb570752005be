import {
  HEADING_SIZE_PX,
  headingLevel,
  type TAlign,
  type THeaderFooter,
  type THeadingElement,
  type TImageElement,
  type TListElement,
  type TParagraphElement,
  type TTableElement,
  type TTextStyle,
} from '../contract/format-content.ts';
import { familyOf } from './fonts.ts';
import { prepareImage } from './images.ts';
import { DocumentCanvas } from './page-canvas.ts';
import { drawSigningBox, signingBoxSize } from './signing-box.ts';
import type { TSigningBox } from './signing-fields.ts';
import type { FlowContext, TListRows, TRowScope } from './flow-context.ts';
import {
  BLOCK_GAP,
  BORDER,
  CELL_PAD_X,
  CELL_PAD_Y,
  HEADER_FILL,
  HEADING_LINE_HEIGHT,
  LINE_HEIGHT,
  MISSING_IMAGE,
  PX,
  baselineOffset,
  maxLines,
  rowHeight,
} from './layout-metrics.ts';
import { StructureTree, type TStructNode, type TStructType } from './structure.ts';
import { richSpans } from './rich-spans.ts';
import { type BlockStyle, type Line, type RichSpan, layoutText, placeLine, sanitizeText } from './text.ts';

/*
 * Flows elements down the page. Units are points, measured from the page's top-left corner
 * (layout-metrics.ts); what a flow is given is flow-context.ts.
 */

/** Hard stop for input that bypassed the schema: past this, content is dropped with a warning. */
export const MAX_PAGES = 1_000;

class PageLimitReached extends Error {}

export class Flow {
  readonly canvas: DocumentCanvas;
  private y = 0;
  private readonly contentTop: number;
  private readonly contentBottom: number;
  private readonly contentLeft: number;
  readonly contentWidth: number;
  readonly pageWidth: number;
  private atPageTop = true;
  private stopped = false;
  /** This document's first page on the canvas: page numbers and the page limit count from here. */
  private readonly firstPage: number;
  /** Code points no bundled font could draw, in order of first appearance. */
  readonly missingGlyphs = new Set<number>();

  constructor(private readonly ctx: FlowContext) {
    const p = ctx.page;
    this.canvas = ctx.canvas ?? new DocumentCanvas(p.height, ctx.tagged ? new StructureTree() : null);
    this.firstPage = this.canvas.pages.length;
    this.pageWidth = p.width;
    this.contentTop = p.top;
    this.contentBottom = p.height - p.bottom;
    this.contentLeft = p.left;
    // A page whose margins leave no room still gets a usable strip rather than a negative width.
    this.contentWidth = Math.max(p.width - p.left - p.right, 36);
    if (this.contentBottom - this.contentTop < 36) this.contentBottom = this.contentTop + 36;
    this.newPage();
  }

  private newPage(): void {
    if (this.canvas.pages.length - this.firstPage >= MAX_PAGES) {
      if (!this.stopped) {
        this.ctx.warnings.push({ code: 'page_limit', message: `Content past ${MAX_PAGES} pages was left out.` });
      }
      this.stopped = true;
      throw new PageLimitReached();
    }
    this.canvas.newPage();
    this.y = this.contentTop;
    this.atPageTop = true;
  }

  private get remaining(): number {
    return this.contentBottom - this.y;
  }

  private gap(): void {
    if (!this.atPageTop) this.y += BLOCK_GAP;
  }

  private blockStyle(style: TTextStyle | undefined, over: Partial<BlockStyle> = {}): BlockStyle {
    const s = { ...this.ctx.baseStyle, ...stripUndefined(style) };
    return {
      family: familyOf(s.fontFamily),
      size: s.fontSize * PX,
      color: s.color,
      bold: false,
      italic: false,
      underline: false,
      ...over,
    };
  }

  private spans(template: string, markup: boolean, row?: TRowScope): RichSpan[] {
    const fill = (text: string) => sanitizeText(row ? row.rows.fill(row.index, text) : this.ctx.fill(text));
    return richSpans(template, { markup, extended: this.ctx.tagged === true, fill, warnings: this.ctx.warnings });
  }

  private listRows(list: string): TListRows {
    return this.ctx.listRows?.(list) ?? { count: 0, fill: (_row, template) => template };
  }

  /**
   * Draws as a new structure element of `type` (under `parent`, else the document) when the
   * document is tagged; `draw` gets the element, or null when it is not.
   */
  private element(type: TStructType, draw: (node: TStructNode | null) => void, parent?: TStructNode | null, extra?: Pick<TStructNode, 'alt' | 'scope'>): void {
    const structure = this.canvas.structure;
    if (!structure) return draw(null);
    // An element's language is its block's: the elements inside it (items, rows, cells) inherit it.
    const language = !parent && this.blockLanguage ? { lang: this.blockLanguage } : {};
    const node = structure.add(parent ?? structure.root, type, { ...extra, ...language });
    this.canvas.within(node, () => draw(node));
  }

  /** The language of the block being drawn, when it is not the document's. */
  private blockLanguage: string | undefined;

  /** Draws a block whose text is in `lang`, another language than the document's. */
  inLanguage(lang: string | undefined, draw: () => void): void {
    this.blockLanguage = lang;
    try {
      draw();
    } finally {
      this.blockLanguage = undefined;
    }
  }

  private layout(spans: RichSpan[], style: BlockStyle, width: number): Line[] {
    const r = layoutText(spans, style, width, this.ctx.tagged === true);
    for (const cp of r.missingGlyphs) this.missingGlyphs.add(cp);
    return r.lines;
  }

  /** Draws lines, moving to a new page whenever the next line would not fit. */
  private lines(lines: Line[], left: number, width: number, lineHeight: number, ascent: number, align: TAlign): void {
    for (const line of lines) {
      if (this.remaining < lineHeight && !this.atPageTop) this.newPage();
      placeLine(line, left, width, align);
      this.canvas.line(line, this.y + ascent);
      this.y += lineHeight;
      this.atPageTop = false;
    }
  }

  run(elements: unknown[], draw: (el: unknown) => void): void {
    try {
      for (const el of elements) draw(el);
    } catch (e) {
      if (!(e instanceof PageLimitReached)) throw e;
    }
  }

  heading(el: THeadingElement): void {
    const style = this.blockStyle(el.style, {
      size: HEADING_SIZE_PX[el.fontSize] * PX,
      bold: el.bold,
      italic: el.italic,
      underline: el.underline,
    });
    const lines = this.layout(this.spans(el.content, false), style, this.contentWidth);
    if (lines.length === 0) return;
    const lh = style.size * HEADING_LINE_HEIGHT;
    this.gap();
    // Keep a heading with at least the start of what follows it.
    if (this.remaining < lh * Math.min(lines.length, 2) + BLOCK_GAP + style.size && !this.atPageTop) this.newPage();
    this.element(`H${headingLevel(el)}`, () => this.lines(lines, this.contentLeft, this.contentWidth, lh, baselineOffset(style.size, lh), el.align));
  }

  paragraph(el: TParagraphElement): void {
    const box = this.ctx.signingBox?.(el.content);
    if (box) return this.signingParagraph(box, el.align, this.blockStyle(el.style));
    const style = this.blockStyle(el.style, { bold: el.bold, italic: el.italic, underline: el.underline });
    const lines = this.layout(this.spans(el.content, true), style, this.contentWidth);
    if (lines.length === 0) return;
    const lh = style.size * LINE_HEIGHT;
    this.gap();
    this.element('P', () => this.lines(lines, this.contentLeft, this.contentWidth, lh, baselineOffset(style.size, lh), el.align));
  }

  list(el: TListElement): void {
    // A repeating list prints its item templates once per row of its list placeholder.
    const items: { text: string; row?: TRowScope }[] = [];
    if (el.repeat) {
      const rows = this.listRows(el.repeat);
      for (let index = 0; index < rows.count; index++) for (const text of el.items) items.push({ text, row: { rows, index } });
    } else for (const text of el.items) items.push({ text });
    if (items.length === 0) return;
    const style = this.blockStyle(el.style);
    const lh = style.size * LINE_HEIGHT;
    const ascent = baselineOffset(style.size, lh);
    const indent = style.size * 1.8;
    const textLeft = this.contentLeft + indent;
    const textWidth = Math.max(this.contentWidth - indent, 36);
    this.gap();
    this.element('L', (list) =>
      items.forEach((item, i) => {
        const lines = this.layout(this.spans(item.text, true, item.row), style, textWidth);
        const marker = el.listStyle === 'numbered' ? `${i + 1}.` : '\u2022';
        const markerLine = this.layout([{ text: marker, bold: false, italic: false }], style, indent)[0];
        if (lines.length === 0) return;
        if (this.remaining < lh && !this.atPageTop) this.newPage();
        this.element(
          'LI',
          (listItem) => {
            if (markerLine) {
              placeLine(markerLine, this.contentLeft, indent - style.size * 0.5, 'right');
              this.element('Lbl', () => this.canvas.line(markerLine, this.y + ascent), listItem);
            }
            this.element('LBody', () => this.lines(lines, textLeft, textWidth, lh, ascent, 'left'), listItem);
          },
          list,
        );
        this.y += style.size * 0.25;
      }),
    );
  }

  table(el: TTableElement): void {
    // A repeating body row is printed once per row of its list placeholder, in its place.
    const repeat = el.repeat && el.repeat.row < el.rows.length && !(el.headerRow && el.repeat.row === 0) ? el.repeat : undefined;
    // Which list row each table row is filled for (none outside the repeat).
    const scopes: (TRowScope | undefined)[] = [];
    let rows = el.rows;
    if (repeat) {
      const listRows = this.listRows(repeat.list);
      const template = el.rows[repeat.row]!;
      rows = el.rows.slice(0, repeat.row);
      for (let index = 0; index < listRows.count; index++) {
        scopes[rows.length] = { rows: listRows, index };
        rows.push(template);
      }
      for (const row of el.rows.slice(repeat.row + 1)) rows.push(row);
    }
    if (rows.length === 0) return;
    const cols = Math.max(1, ...rows.map((r) => r.length));
    const weights = Array.from({ length: cols }, (_, c) => {
      const w = el.columnWidths?.[c];
      return typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : 1;
    });
    const total = weights.reduce((a, b) => a + b, 0);
    const widths = weights.map((w) => (w / total) * this.contentWidth);
    const xs: number[] = [this.contentLeft];
    for (const w of widths) xs.push(xs[xs.length - 1]! + w);

    const base = this.blockStyle(el.style);
    const lh = base.size * LINE_HEIGHT;
    const ascent = baselineOffset(base.size, lh);
    // Cells of one column with the same text lay out the same (a repeating row's quantities, its
    // empty cells): laid out once. Lines are placed afresh right before each is drawn, so sharing
    // them is safe.
    const laidOut = new Map<string, Line[]>();
    // A cell that is one signing tag holds its box: blank lines as tall as the box, drawn over.
    const boxCells = new Map<Line[], TSigningBox>();
    const headerStyle = { ...base, bold: true };
    const layoutRow = (row: string[], header: boolean, scope?: TRowScope): Line[][] => {
      const cells: Line[][] = [];
      for (let c = 0; c < cols; c++) {
        const box = this.ctx.signingBox?.(row[c] ?? '');
        if (box) {
          const { h } = signingBoxSize(box, Math.max(widths[c]! - 2 * CELL_PAD_X, 8));
          const blank = Array.from({ length: Math.max(1, Math.ceil(h / lh)) }, (): Line => ({ atoms: [], width: 0, hard: true }));
          boxCells.set(blank, box);
          cells.push(blank);
          continue;
        }
        const spans = this.spans(row[c] ?? '', true, scope);
        let key = `${c}${header ? 'h' : 'b'}`;
        for (const s of spans)
          key += `\u0001${s.bold ? 'b' : ''}${s.italic ? 'i' : ''}${s.underline ? 'u' : ''}${s.link ? `\u0003${s.link.uri}` : ''}\u0002${s.text}`;
        let lines = laidOut.get(key);
        if (!lines) {
          lines = this.layout(spans, header ? headerStyle : base, Math.max(widths[c]! - 2 * CELL_PAD_X, 8));
          laidOut.set(key, lines);
        }
        cells.push(lines);
      }
      return cells;
    };

    const header = el.headerRow ? layoutRow(rows[0]!, true) : null;
    const headerHeight = header ? rowHeight(header, lh) : 0;

    // In a tagged document, each row's cells are structure elements (`cellNodes`, one per column).
    const drawRow = (cells: Line[][], from: number[], count: number, isHeader: boolean, cellNodes?: TStructNode[]) => {
      const h = count * lh + 2 * CELL_PAD_Y;
      const top = this.y;
      if (isHeader) this.canvas.rect(xs[0]!, top, xs[cols]! - xs[0]!, h, { fill: HEADER_FILL });
      cells.forEach((lines, c) => {
        const drawCell = () => {
          const box = boxCells.get(lines);
          if (box) {
            if (from[c] === 0) this.signingBox(box, xs[c]! + CELL_PAD_X, top + CELL_PAD_Y, widths[c]! - 2 * CELL_PAD_X, base);
            return;
          }
          const slice = lines.slice(from[c], from[c]! + count);
          slice.forEach((line, k) => {
            placeLine(line, xs[c]! + CELL_PAD_X, widths[c]! - 2 * CELL_PAD_X, 'left');
            this.canvas.line(line, top + CELL_PAD_Y + k * lh + ascent);
          });
        };
        if (cellNodes) this.canvas.within(cellNodes[c]!, drawCell);
        else drawCell();
      });
      this.canvas.rect(xs[0]!, top, xs[cols]! - xs[0]!, h, { stroke: BORDER, lineWidth: 0.5 });
      for (let c = 1; c < cols; c++) this.canvas.vline(xs[c]!, top, top + h, BORDER, 0.5);
      this.y += h;
      this.atPageTop = false;
    };

    this.gap();
    // A table that only places text side by side is read as its cells' paragraphs, not as a grid.
    const layoutOnly = el.layout === true;
    this.element(layoutOnly ? 'Div' : 'Table', (table) => {
      // The table's rows as structure: a header row's cells are column headers (and with a header
      // column, each row's first cell is its row's header), and a row split over pages is one row.
      // The header repeated on a new page is an artifact.
      let head: TStructNode | undefined;
      let body: TStructNode | undefined;
      const rowNodes = (isHeader: boolean): TStructNode[] | undefined => {
        const structure = this.canvas.structure;
        if (!structure || !table) return undefined;
        if (layoutOnly) return Array.from({ length: cols }, () => structure.add(table, 'P'));
        const group = isHeader ? (head ??= structure.add(table, 'THead')) : (body ??= structure.add(table, 'TBody'));
        const tr = structure.add(group, 'TR');
        return Array.from({ length: cols }, (_, c) =>
          isHeader
            ? structure.add(tr, 'TH', { scope: 'Column' })
            : el.headerColumn && c === 0
              ? structure.add(tr, 'TH', { scope: 'Row' })
              : structure.add(tr, 'TD'),
        );
      };
      const continueOnNewPage = () => {
        this.newPage();
        if (header) this.canvas.within(null, () => drawRow(header, new Array(cols).fill(0), maxLines(header), true));
      };

      const bodyStart = header ? 1 : 0;
      if (header) {
        // The header never sits alone at the bottom of a page.
        const firstBody = rows.length > 1 ? Math.min(rowHeight(layoutRow(rows[1]!, false, scopes[1]), lh), lh + 2 * CELL_PAD_Y) : 0;
        if (this.remaining < headerHeight + firstBody && !this.atPageTop) this.newPage();
        drawRow(header, new Array(cols).fill(0), maxLines(header), true, rowNodes(true));
      }
      const freshPageRoom = this.contentBottom - this.contentTop - headerHeight;
      for (let r = bodyStart; r < rows.length; r++) {
        const cells = layoutRow(rows[r]!, false, scopes[r]);
        const cellNodes = rowNodes(false);
        const from = new Array<number>(cols).fill(0);
        let left = maxLines(cells);
        if (left === 0) left = 1;
        const fitFresh = Math.floor((freshPageRoom - 2 * CELL_PAD_Y) / lh);
        while (left > 0) {
          const fit = Math.floor((this.remaining - 2 * CELL_PAD_Y) / lh);
          if (left <= fit) {
            drawRow(cells, from, left, false, cellNodes);
            break;
          }
          const atFreshTop = this.y <= this.contentTop + headerHeight + 0.01;
          // Moving the whole row is better than splitting it, when a fresh page can hold it.
          if (!atFreshTop && (left <= fitFresh || fit < 1)) {
            continueOnNewPage();
            continue;
          }
          // Taller than a page: split between lines, never through one. At least one line is
          // drawn each time round, so even a page too small for a line cannot loop forever.
          const n = Math.max(1, Math.min(fit, left));
          drawRow(cells, from, n, false, cellNodes);
          for (let c = 0; c < cols; c++) from[c]! += n;
          left -= n;
          if (left > 0) continueOnNewPage();
        }
      }
    });
  }

  image(el: TImageElement): void {
    let w = el.width * PX;
    let h = el.height * PX;
    const maxH = this.contentBottom - this.contentTop;
    // Scale to fit the page, keeping the aspect ratio.
    const s = Math.min(1, this.contentWidth / w, maxH / h);
    w *= s;
    h *= s;
    this.gap();
    if (this.remaining < h && !this.atPageTop) this.newPage();
    const x =
      el.align === 'center'
        ? this.contentLeft + (this.contentWidth - w) / 2
        : el.align === 'right'
          ? this.contentLeft + this.contentWidth - w
          : this.contentLeft;
    const bytes = el.src ? this.ctx.assets[el.src] : undefined;
    const img = bytes instanceof Uint8Array ? prepareImage(bytes) : null;
    const drawFigure = () => {
      if (img) {
        // The image keeps its own proportions inside the box, centred, as the builder's canvas shows it.
        const fit = Math.min(w / img.width, h / img.height);
        const dw = img.width * fit;
        const dh = img.height * fit;
        this.canvas.image(img, x + (w - dw) / 2, this.y + (h - dh) / 2, dw, dh);
      } else {
        this.ctx.warnings.push({
          code: bytes ? 'image_unreadable' : 'image_missing',
          message: bytes ? `Image ${el.src} is not a PNG or JPEG we can read.` : `No image data for ${el.src || '(empty source)'}.`,
          elementId: el.id,
        });
        // The empty box stands where the image would: it is the figure's content.
        this.canvas.rect(x, this.y, w, h, { stroke: MISSING_IMAGE, lineWidth: 0.75, content: true });
      }
    };
    if (el.decorative && this.canvas.structure) this.canvas.within(null, drawFigure);
    else this.element('Figure', drawFigure, null, el.alt ? { alt: sanitizeText(this.ctx.fill(el.alt)) } : {});
    this.y += h;
    this.atPageTop = false;
  }

  /** A paragraph that is one signing tag: its box on its own, placed as the paragraph is aligned. */
  private signingParagraph(box: TSigningBox, align: TAlign, style: BlockStyle): void {
    const { w, h } = signingBoxSize(box, this.contentWidth);
    this.gap();
    if (this.remaining < h && !this.atPageTop) this.newPage();
    const x =
      align === 'center' ? this.contentLeft + (this.contentWidth - w) / 2 : align === 'right' ? this.contentLeft + this.contentWidth - w : this.contentLeft;
    this.element('P', () => this.signingBox(box, x, this.y, w, style));
    this.y += h;
    this.atPageTop = false;
  }

  /** Draws a signing box at (x, top), at most `maxWidth` wide (signing-box.ts). */
  private signingBox(box: TSigningBox, x: number, top: number, maxWidth: number, style: BlockStyle): void {
    drawSigningBox({ canvas: this.canvas, oneLine: (text, lineStyle) => this.oneLine(text, lineStyle) }, box, { x, top, maxWidth }, style);
  }

  /** `text` set on one line, however wide (the caller shrinks or places it). */
  private oneLine(text: string, style: BlockStyle): Line | undefined {
    return this.layout([{ text: sanitizeText(text), bold: false, italic: false }], style, 100_000)[0];
  }

  /** Header and footer lines, drawn on every page once the page count is known. */
  /**
   * Writes `text` large and pale across each of this document's pages, diagonally and behind
   * the content, so the page stays readable and the mark cannot be cropped off.
   */
  watermark(text: string): void {
    const p = this.ctx.page;
    const style: BlockStyle = { ...this.blockStyle(undefined, { bold: true }), size: 96, color: '#f2c4c4' };
    const [line] = this.layout([{ text: sanitizeText(text), bold: true, italic: false }], style, p.width * 2);
    if (!line) return;
    const lh = style.size * LINE_HEIGHT;
    const angle = Math.atan2(p.height, p.width);
    for (let i = this.firstPage; i < this.canvas.pages.length; i++) {
      this.canvas.selectPage(i);
      this.canvas.behind(angle, p.width / 2, p.height / 2, () => {
        placeLine(line, 0, p.width, 'center');
        this.canvas.within(null, () => this.canvas.line(line, p.height / 2 - lh / 2 + baselineOffset(style.size, lh)));
      });
    }
  }

  decorate(header: THeaderFooter | undefined, footer: THeaderFooter | undefined): void {
    const pages = this.canvas.pages.length - this.firstPage;
    const p = this.ctx.page;
    for (let i = 0; i < pages; i++) {
      this.canvas.selectPage(this.firstPage + i);
      for (const [hf, where] of [
        [header, 'top'],
        [footer, 'bottom'],
      ] as const) {
        if (!hf || hf.text.length === 0) continue;
        const template = hf.text.replaceAll('{{page}}', String(i + 1)).replaceAll('{{pages}}', String(pages));
        const style = this.blockStyle(hf.style, { size: (hf.style?.fontSize ?? 12) * PX });
        const lines = this.layout(this.spans(template, true), style, this.contentWidth).slice(0, 2);
        const lh = style.size * LINE_HEIGHT;
        const blockH = lines.length * lh;
        const top = where === 'top' ? Math.max((p.top - blockH) / 2, 4) : p.height - Math.max((p.bottom + blockH) / 2, blockH + 4);
        lines.forEach((line, k) => {
          placeLine(line, this.contentLeft, this.contentWidth, hf.align);
          // Page furniture: read once by a screen reader from the document, not on every page.
          this.canvas.within(null, () => this.canvas.line(line, top + k * lh + baselineOffset(style.size, lh)), true);
        });
      }
    }
  }
}

function stripUndefined<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  const r: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (r as Record<string, unknown>)[k] = v;
  return r;
}
