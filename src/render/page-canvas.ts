import type { Face } from './fonts.ts';
import type { PdfImage } from './images.ts';
import type { FontUse } from './pdf-writer.ts';
import { num } from './pdf-writer.ts';
import type { StructureTree, TStructNode } from './structure.ts';
import type { Atom, Line, TLinkTarget } from './text.ts';

/*
 * Collects the content stream of each page and what the document uses (fonts, glyphs,
 * images). Layout works top-down in points from the page's top edge; this class flips to PDF
 * coordinates.
 */

const HEX = Array.from({ length: 65536 }, (_, i) => i.toString(16).padStart(4, '0'));

export interface ImageUse {
  img: PdfImage;
  resource: string;
}

/** A link's clickable area on a page, in PDF coordinates, and the Link element it belongs to. */
export interface TLinkAnnotation {
  page: number;
  rect: [number, number, number, number];
  uri: string;
  /** The words it covers: the annotation's description for screen readers. */
  text: string;
  node: TStructNode;
}

export class DocumentCanvas {
  readonly pages: string[][] = [];
  /** Links of a tagged document, in the order drawn (untagged documents have none). */
  readonly links: TLinkAnnotation[] = [];
  /** Per element, the Link element of each link in it: a link over two lines is one element. */
  private readonly linkNodes = new Map<TStructNode, Map<TLinkTarget, TStructNode>>();
  readonly fonts = new Map<Face, FontUse>();
  readonly images = new Map<string, ImageUse>();
  private page: string[] = [];
  private pageIndex = -1;
  /** The structure element what is drawn belongs to; none makes it an artifact. */
  private node: TStructNode | null = null;
  private pagination = false;
  /** Where the last artifact sequence ends, so that the next one, if it follows at once, joins it. */
  private lastArtifact: { page: string[]; end: number; pagination: boolean } | null = null;

  /**
   * With a structure tree, the document is tagged: every drawing is marked as the content of an
   * element or as an artifact. Without one, nothing is added, byte for byte.
   */
  constructor(
    readonly pageHeight: number,
    readonly structure: StructureTree | null = null,
  ) {}

  newPage(): void {
    this.page = [];
    this.pages.push(this.page);
    this.pageIndex = this.pages.length - 1;
  }

  /** Returns to an earlier page, for headers and footers drawn after pagination. */
  selectPage(i: number): void {
    this.page = this.pages[i]!;
    this.pageIndex = i;
  }

  /**
   * Draws what `draw` draws as the content of `node`, or with null as an artifact (page
   * furniture: `pagination` for headers, footers and page numbers).
   */
  within(node: TStructNode | null, draw: () => void, pagination = false): void {
    const [outerNode, outerPagination] = [this.node, this.pagination];
    this.node = node;
    this.pagination = pagination;
    try {
      draw();
    } finally {
      this.node = outerNode;
      this.pagination = outerPagination;
    }
  }

  /** Adds `ops` to the page: marked as content (or as an artifact) when the document is tagged. */
  private put(ops: string, artifact: boolean): void {
    if (!this.structure) {
      this.page.push(ops);
      return;
    }
    this.beginMarked(artifact);
    this.page.push(ops);
    this.endMarked(artifact);
  }

  /*
   * A marked-content sequence of a tagged document is opened and closed around what is drawn
   * into it, rather than given a function to draw: a tagged page opens hundreds, and a closure
   * each cost a measurable part of the tagging's time.
   */

  /** Opens a sequence for what is drawn next: the current element's content, or an artifact. */
  private beginMarked(artifact: boolean, actualText?: string): void {
    const node = artifact ? null : this.node;
    if (node) {
      // Readers honour ActualText on a sequence tagged Span (poppler on no other); the element's
      // own type is in the structure tree either way.
      const mcid = this.structure!.mark(node, this.pageIndex);
      this.page.push(actualText === undefined ? `/${node.type} <</MCID ${mcid}>> BDC\n` : `/Span <</MCID ${mcid} /ActualText ${utf16(actualText)}>> BDC\n`);
      return;
    }
    // Artifacts one after another share one sequence (a table row's border and column rules).
    const last = this.lastArtifact;
    if (last && last.page === this.page && last.end === this.page.length - 1 && last.pagination === this.pagination) this.page.pop();
    else this.page.push(this.pagination ? '/Artifact <</Type /Pagination>> BDC\n' : '/Artifact BMC\n');
  }

  /** Closes what `beginMarked(artifact)` opened; nothing that is drawn in between changes the element. */
  private endMarked(artifact: boolean): void {
    this.page.push('EMC\n');
    if (artifact || !this.node) this.lastArtifact = { page: this.page, end: this.page.length - 1, pagination: this.pagination };
  }

  /**
   * Draws what `draw` adds to the current page underneath everything already on it, turned by
   * `angle` radians about (cx, top).
   */
  behind(angle: number, cx: number, top: number, draw: () => void): void {
    const start = this.page.length;
    draw();
    const added = this.page.splice(start);
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    const x = cx;
    const y = this.pageHeight - top;
    // Move the centre to the origin, turn, and move it back.
    const tx = x - c * x + s * y;
    const ty = y - s * x - c * y;
    this.page.unshift(`q ${num(c)} ${num(s)} ${num(-s)} ${num(c)} ${num(tx)} ${num(ty)} cm\n`, ...added, 'Q\n');
  }

  private fontUse(face: Face): FontUse {
    let u = this.fonts.get(face);
    if (!u) {
      u = { face, resource: `F${this.fonts.size + 1}`, glyphs: new Map([[0, '']]) };
      this.fonts.set(face, u);
    }
    return u;
  }

  /**
   * Draws one laid-out line whose baseline is `baseline` points below the page top. Consecutive
   * plain atoms in one font share a TJ array, spaces included, so extractors see real spaces
   * and the stream stays short; justification gaps become TJ adjustments.
   */
  line(line: Line, baseline: number): void {
    if (!this.structure) return this.drawLine(line.atoms, baseline);
    // An empty line (a blank cell, a blank line in a paragraph) draws nothing: in a tagged
    // document it is not written at all, rather than marked as content with nothing in it.
    if (line.atoms.length === 0) return;
    const node = this.node;
    if (!node) {
      // Page furniture is an artifact, read by no one: its words need no parts of their own.
      this.beginMarked(true);
      this.drawLine(line.atoms, baseline);
      this.endMarked(true);
      return;
    }
    // Marked in reading order: a right-to-left run's words sit on the line in visual order, and
    // each part sets its own position, so the order they are drawn in changes nothing on the page.
    let atoms = line.atoms;
    for (const a of atoms) {
      if (a.level & 1) {
        atoms = [...atoms].sort((p, q) => p.start - q.start);
        break;
      }
    }
    for (let from = 0; from < atoms.length;) {
      const link = atoms[from]!.link;
      let to = from + 1;
      while (to < atoms.length && atoms[to]!.link === link) to++;
      // Most lines are one run of words without a link: drawn as they are, with no copy.
      const run = from === 0 && to === atoms.length ? atoms : atoms.slice(from, to);
      if (link) {
        // A link's words are in one Link element with one annotation per line.
        const linkNode = this.linkNode(node, link);
        this.node = linkNode;
        try {
          this.drawContentParts(run, baseline);
        } finally {
          this.node = node;
        }
        this.addLinkAnnotation(run, link, linkNode, baseline);
      } else this.drawContentParts(run, baseline);
      from = to;
    }
  }

  /** Draws an element's words as its marked-content sequences (`contentParts`). */
  private drawContentParts(atoms: Atom[], baseline: number): void {
    for (const part of this.contentParts(atoms)) {
      this.beginMarked(false, part.actualText);
      this.drawLine(part.atoms, baseline, part.actualText === undefined);
      this.endMarked(false);
    }
  }

  /**
   * A run of an element's words, cut into its marked-content sequences: the words that read back
   * as their text together, and on its own each word whose glyphs do not, whose sequence carries
   * its text as ActualText. (Text extractors that read the structure, such as poppler's, stop at
   * a sequence nested inside another, so the ActualText is not a nested span.)
   */
  private contentParts(atoms: Atom[]): { atoms: Atom[]; actualText?: string }[] {
    const parts: { atoms: Atom[]; actualText?: string }[] = [];
    for (const a of atoms) {
      const readsBack = claimGlyphs(a, this.fontUse(a.face)) && a.shaped.inLogicalOrder;
      const last = parts.at(-1);
      if (readsBack && last && last.actualText === undefined) last.atoms.push(a);
      else parts.push(readsBack ? { atoms: [a] } : { atoms: [a], actualText: actualText(a) });
    }
    return parts;
  }

  private linkNode(parent: TStructNode, link: TLinkTarget): TStructNode {
    let links = this.linkNodes.get(parent);
    if (!links) this.linkNodes.set(parent, (links = new Map()));
    let node = links.get(link);
    if (!node) {
      node = this.structure!.add(parent, 'Link');
      links.set(link, node);
    }
    return node;
  }

  /** `atoms`: the link's words on this line, in reading order. */
  private addLinkAnnotation(atoms: Atom[], link: TLinkTarget, node: TStructNode, baseline: number): void {
    let last = atoms.length - 1;
    while (last > 0 && atoms[last]!.isSpace) last--;
    const words = atoms.slice(0, last + 1);
    const size = Math.max(...atoms.map((a) => a.size));
    const left = Math.min(...words.map((a) => a.x));
    const right = Math.max(...words.map((a) => a.x + a.width));
    // The line's box around the words: from above the capitals to below the descenders.
    const rect: TLinkAnnotation['rect'] = [left, this.pageHeight - baseline - size * 0.25, right, this.pageHeight - baseline + size * 0.9];
    const text = words.map((a) => a.text).join('');
    this.links.push({ page: this.pageIndex, rect, uri: link.uri, text, node });
    node.kids.push({ annotation: this.links.length - 1 });
  }

  /**
   * `readsBack`: false for an atom whose marked content already carries its ActualText; otherwise
   * an atom whose glyphs do not read back in order is wrapped in a span with its ActualText.
   */
  private drawLine(atoms: Atom[], baseline: number, readsBack = true): void {
    const y = num(this.pageHeight - baseline);
    const out = this.page;
    out.push('BT\n');
    let curFace: Face | null = null;
    let curSize = -1;
    let curColor = '';
    let inArray = false;
    let penX = 0;
    for (const a of atoms) {
      const use = this.fontUse(a.face);
      const plain = readsBack && a.shaped.inLogicalOrder && a.shaped.yOffsets === null;
      const sameRun = inArray && plain && a.face === curFace && a.size === curSize && a.color === curColor;
      if (!sameRun) {
        if (inArray) out.push('] TJ\n');
        inArray = false;
        if (a.face !== curFace || a.size !== curSize) {
          out.push(`/${use.resource} ${num(a.size)} Tf\n`);
          curFace = a.face;
          curSize = a.size;
        }
        if (a.color !== curColor) {
          out.push(`${rgb(a.color)} rg\n`);
          curColor = a.color;
        }
        out.push(`1 0 0 1 ${num(a.x)} ${y} Tm\n`);
        if (plain) {
          out.push('[');
          inArray = true;
          penX = a.x;
        }
      }
      if (plain) {
        const delta = ((a.x - penX) * 1000) / a.size;
        if (delta > 0.01 || delta < -0.01) out.push(`${num(-delta)} `);
        const r = glyphArray(a, use);
        out.push(r.body);
        penX = a.x + (r.end * a.size) / a.face.unitsPerEm;
      } else {
        const span = readsBack && !a.shaped.inLogicalOrder;
        if (span) out.push(`/Span << /ActualText ${utf16(actualText(a))} >> BDC\n`);
        out.push(glyphOps(a, use));
        if (span) out.push('EMC\n');
      }
    }
    if (inArray) out.push('] TJ\n');
    out.push('ET\n');
    this.underlines(atoms, baseline);
  }

  private underlines(atoms: Atom[], baseline: number): void {
    for (let i = 0; i < atoms.length; i++) {
      const a = atoms[i]!;
      if (!a.underline) continue;
      // Underline spaces only between underlined words, never a dangling one at the end.
      let j = i;
      while (j + 1 < atoms.length && atoms[j + 1]!.underline) j++;
      while (j > i && atoms[j]!.isSpace) j--;
      const last = atoms[j]!;
      const x0 = a.x;
      const x1 = last.x + last.width;
      const f = a.face;
      const thick = Math.max((f.underlineThickness * a.size) / f.unitsPerEm, 0.5);
      const pos = baseline - (f.underlinePosition * a.size) / f.unitsPerEm;
      this.page.push(`${rgb(a.color)} rg ${num(x0)} ${num(this.pageHeight - pos - thick / 2)} ${num(x1 - x0)} ${num(thick)} re f\n`);
      i = j;
    }
  }

  /** A rectangle: a rule or a fill, so an artifact, unless it stands for content (`content`). */
  rect(x: number, top: number, w: number, h: number, opts: { fill?: string; stroke?: string; lineWidth?: number; content?: boolean }): void {
    const y = this.pageHeight - top - h;
    let s = '';
    if (opts.fill) s += `${rgb(opts.fill)} rg `;
    if (opts.stroke) s += `${rgb(opts.stroke)} RG ${num(opts.lineWidth ?? 0.5)} w `;
    s += `${num(x)} ${num(y)} ${num(w)} ${num(h)} re ${opts.fill && opts.stroke ? 'B' : opts.fill ? 'f' : 'S'}\n`;
    this.put(s, !opts.content);
  }

  hline(x0: number, x1: number, top: number, color: string, width: number): void {
    const y = num(this.pageHeight - top);
    this.put(`${rgb(color)} RG ${num(width)} w ${num(x0)} ${y} m ${num(x1)} ${y} l S\n`, true);
  }

  vline(x: number, top: number, bottom: number, color: string, width: number): void {
    this.put(`${rgb(color)} RG ${num(width)} w ${num(x)} ${num(this.pageHeight - top)} m ${num(x)} ${num(this.pageHeight - bottom)} l S\n`, true);
  }

  image(img: PdfImage, x: number, top: number, w: number, h: number): void {
    let use = this.images.get(img.hash);
    if (!use) {
      use = { img, resource: `Im${this.images.size + 1}` };
      this.images.set(img.hash, use);
    }
    this.put(`q ${num(w)} 0 0 ${num(h)} ${num(x)} ${num(this.pageHeight - top - h)} cm /${use.resource} Do Q\n`, false);
  }
}

const rgbCache = new Map<string, string>();
function rgb(hex: string): string {
  let s = rgbCache.get(hex);
  if (!s) {
    const v = /^#[0-9a-fA-F]{6}$/.test(hex) ? parseInt(hex.slice(1), 16) : 0;
    s = `${num(((v >> 16) & 255) / 255)} ${num(((v >> 8) & 255) / 255)} ${num((v & 255) / 255)}`;
    if (rgbCache.size > 1000) rgbCache.clear();
    rgbCache.set(hex, s);
  }
  return s;
}

/*
 * Text extractors reverse right-to-left runs into logical order themselves (poppler does it per
 * word, after ActualText replacement), so a right-to-left atom's ActualText is given in visual
 * order, the order its glyphs sit on the page.
 */
function actualText(a: Atom): string {
  return a.level & 1 ? [...a.text].reverse().join('') : a.text;
}

/**
 * Records the atom's glyphs in the font's ToUnicode map, which gives each glyph one text: the first
 * it stood for in the document. False when a glyph stands for something else here (in
 * Devanagari, the glyph of "ा" drawn as part of "ो"), so the atom would read back wrong.
 */
function claimGlyphs(a: Atom, use: FontUse): boolean {
  const { gids, texts } = a.shaped;
  let same = true;
  for (let i = 0; i < gids.length; i++) {
    const mapped = use.glyphs.get(gids[i]!);
    if (mapped === undefined) use.glyphs.set(gids[i]!, texts[i]!);
    else if (mapped !== texts[i]) same = false;
  }
  return same;
}

function utf16(s: string): string {
  let h = '<FEFF';
  for (let i = 0; i < s.length; i++) h += HEX[s.charCodeAt(i)];
  return `${h}>`;
}

/**
 * The TJ array body for an atom without vertical offsets, and where the PDF's pen ends (font
 * units from the atom's start).
 */
function glyphArray(a: Atom, use: FontUse): { body: string; end: number } {
  const s = a.shaped;
  const face = a.face;
  const glyphs = use.glyphs;
  // A shaped word is drawn the same wherever it appears (shapes are cached per face), so its
  // operands are made once; only the document's record of the glyphs it uses is per document.
  let known = glyphArrays.get(s);
  if (known && known.face === face) {
    for (let i = 0; i < s.gids.length; i++) if (!glyphs.has(s.gids[i]!)) glyphs.set(s.gids[i]!, s.texts[i]!);
    return known;
  }
  const scale = 1000 / face.unitsPerEm;
  let pen = 0;
  let q = 0;
  // Pieces joined once into one flat string: a string grown with += stays a tree that every
  // page's join would walk again.
  const body: string[] = ['<'];
  for (let i = 0; i < s.gids.length; i++) {
    const gid = s.gids[i]!;
    if (!glyphs.has(gid)) glyphs.set(gid, s.texts[i]!);
    const target = pen + (s.xOffsets ? s.xOffsets[i]! : 0);
    const delta = target - q;
    if (delta > 0.5 || delta < -0.5) body.push(`> ${num(-delta * scale)} <`);
    body.push(HEX[gid]!);
    q = target + face.advance(gid);
    pen += s.advances[i]!;
  }
  body.push('>');
  // The next atom starts at the shaped advance, not where the PDF's own widths left the pen.
  known = { body: body.join(''), end: q, face };
  glyphArrays.set(s, known);
  return known;
}

const glyphArrays = new WeakMap<Atom['shaped'], { body: string; end: number; face: Face }>();

/**
 * TJ operands for a shaped atom. The pen is tracked in font units: each glyph goes where the
 * shaper put it, and a TJ adjustment corrects the difference from the font's own advance
 * (kerning, mark offsets). Vertical offsets use text rise.
 */
function glyphOps(a: Atom, use: FontUse): string {
  const s = a.shaped;
  const face = a.face;
  const scale = 1000 / face.unitsPerEm;
  const glyphs = use.glyphs;
  let pen = 0;
  let q = 0;
  let rise = 0;
  let out = '[<';
  let open = true;
  let parts = '';
  for (let i = 0; i < s.gids.length; i++) {
    const gid = s.gids[i]!;
    if (!glyphs.has(gid)) glyphs.set(gid, s.texts[i]!);
    const dy = s.yOffsets ? s.yOffsets[i]! : 0;
    if (dy !== rise) {
      out += open ? '>] TJ\n' : '] TJ\n';
      parts += out;
      parts += `${num((dy * a.size) / face.unitsPerEm)} Ts\n`;
      rise = dy;
      out = '[<';
      open = true;
    }
    const target = pen + (s.xOffsets ? s.xOffsets[i]! : 0);
    const delta = target - q;
    if (delta > 0.5 || delta < -0.5) {
      out += `${open ? '>' : ''} ${num(-delta * scale)} <`;
      open = true;
    }
    out += HEX[gid];
    q = target + face.advance(gid);
    pen += s.advances[i]!;
  }
  out += open ? '>] TJ\n' : '] TJ\n';
  parts += out;
  if (rise !== 0) parts += '0 Ts\n';
  return parts;
}
