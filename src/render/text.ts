import bidiFactory from 'bidi-js';
import { LINK_COLOR } from '../contract/inline-markup.ts';
import LineBreaker from 'linebreak';
import { type Face, type FontChain, type Shaped, type TFaceFamily, fontChain, styleKey } from './fonts.ts';

/*
 * Text layout: styled runs -> font runs (per-character fallback) -> UAX #14 break opportunities
 * -> greedy lines -> UAX #9 visual order per line. Everything is measured in points.
 */

/** A link on the page: every atom of one link shares this object. */
export interface TLinkTarget {
  uri: string;
}

export interface RichSpan {
  text: string;
  bold: boolean;
  italic: boolean;
  underline?: boolean;
  link?: TLinkTarget;
}

export interface BlockStyle {
  family: TFaceFamily;
  /** Points. */
  size: number;
  color: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
}

export interface Atom {
  face: Face;
  size: number;
  shaped: Shaped;
  /** Points. */
  width: number;
  level: number;
  isSpace: boolean;
  underline: boolean;
  color: string;
  link?: TLinkTarget;
  /** The logical text, kept for ActualText when glyphs do not read back in order. */
  text: string;
  /** Where the text starts in its paragraph: the atom's place in reading order, which a right-to-left run reverses on the line. */
  start: number;
  /** Set during placement. */
  x: number;
}

export interface Line {
  atoms: Atom[];
  width: number;
  /** The line ends a paragraph or a forced break, so it is never justified. */
  hard: boolean;
}

// Controls other than tab and newline never print and some break PDF viewers' text extraction.
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function sanitizeText(text: string): string {
  let t = text;
  if (t.includes('\r')) t = t.replace(/\r\n?/g, '\n');
  if (t.includes('\t')) t = t.replace(/\t/g, ' ');
  t = t.replace(/[\u2028\u2029]/g, '\n');
  return t.replace(CONTROL_RE, (c) => (c.length === 1 && c.charCodeAt(0) >= 0xd800 ? '\uFFFD' : ''));
}

const RTL_RE = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200F\u202B\u202E\u2067]/;
const MARK_RE = /^[\p{M}\u200C\u200D\uFE00-\uFE0F]$/u;

let bidi: ReturnType<typeof bidiFactory> | null = null;

interface FontRun {
  start: number;
  end: number;
  face: Face;
  span: number;
  level: number;
}

export interface LayoutResult {
  lines: Line[];
  /** Code points no bundled font has a glyph for, in order of first appearance. */
  missingGlyphs: number[];
}

const WS_RE = /[ \n\u3000]+$/;
const MAX_SHAPED_WORD = 400;

function isMark(cp: number): boolean {
  return cp >= 0x300 && MARK_RE.test(String.fromCodePoint(cp));
}

/**
 * Lays out rich text in lines no wider than `maxWidth` points. `exactText` (tagged documents):
 * every glyph carries the text it stands for in this run alone (`Face.shape`).
 */
export function layoutText(spansIn: RichSpan[], style: BlockStyle, maxWidth: number, exactText = false): LayoutResult {
  const spans = spansIn.filter((s) => s.text.length > 0);
  const text = spans.map((s) => s.text).join('');
  if (text.length === 0) return { lines: [], missingGlyphs: [] };

  const { runs, missingGlyphs } = fontRuns(text, spans, style);
  const cutter = new AtomCutter(text, runs, style, spans, exactText);
  const filler = new LineFiller(maxWidth);
  const breaker = new LineBreaker(text);
  let last = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    placePiece(text, last, bk.position, cutter, filler, maxWidth);
    last = bk.position;
    if (bk.required) filler.endLine(true);
  }
  return { lines: filler.finish(), missingGlyphs };
}

/** Bidi embedding levels per UTF-16 unit, or null for text with nothing right-to-left in it (all level 0). */
function embeddingLevels(text: string): Uint8Array | null {
  if (!RTL_RE.test(text)) return null;
  bidi ??= bidiFactory();
  // The document is left-to-right; right-to-left runs are embedded in it (UAX #9 with base LTR).
  return bidi.getEmbeddingLevels(text, 'ltr').levels;
}

/**
 * Font runs: each character takes the first font in its chain that has it. Marks, joiners and
 * spaces stay with the current font when it can, so a cluster is never split across fonts.
 */
function fontRuns(text: string, spans: RichSpan[], style: BlockStyle): { runs: FontRun[]; missingGlyphs: number[] } {
  const spanChains: FontChain[] = [];
  const spanStart: number[] = [];
  let pos = 0;
  for (const s of spans) {
    spanChains.push(fontChain(style.family, styleKey(style.bold || s.bold, style.italic || s.italic)));
    spanStart.push(pos);
    pos += s.text.length;
  }
  const levels = embeddingLevels(text);

  const runs: FontRun[] = [];
  const missingGlyphs: number[] = [];
  let cur: FontRun | null = null;
  let spanIdx = 0;
  for (let i = 0; i < text.length;) {
    while (spanIdx + 1 < spans.length && i >= spanStart[spanIdx + 1]!) spanIdx++;
    const chain = spanChains[spanIdx]!;
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    const level = levels ? levels[i]! : 0;
    let face: Face | null = null;
    if (cur && cur.span === spanIdx && (cp === 0x20 || cp === 0x0a || isMark(cp)) && (cp === 0x0a || cur.face.has(cp))) {
      face = cur.face;
    } else {
      face = chain.faceFor(cp);
      if (!face) {
        if (cp !== 0x0a && !missingGlyphs.includes(cp)) missingGlyphs.push(cp);
        face = cur && cur.span === spanIdx ? cur.face : chain.primary;
      }
    }
    if (cur && cur.face === face && cur.span === spanIdx && cur.level === level) {
      cur.end = i + len;
    } else {
      cur = { start: i, end: i + len, face, span: spanIdx, level };
      runs.push(cur);
    }
    i += len;
  }
  return { runs, missingGlyphs };
}

/**
 * Shapes ranges of the text into atoms, one per font run a range crosses. Ranges mostly come in
 * text order, so it keeps its place in the runs rather than searching them from the start.
 */
class AtomCutter {
  private runIdx = 0;
  private readonly text: string;
  private readonly runs: FontRun[];
  private readonly style: BlockStyle;
  private readonly spans: RichSpan[];
  private readonly exactText: boolean;

  constructor(text: string, runs: FontRun[], style: BlockStyle, spans: RichSpan[], exactText: boolean) {
    this.text = text;
    this.runs = runs;
    this.style = style;
    this.spans = spans;
    this.exactText = exactText;
  }

  /** Appends the atoms of [a, b) to `out`. */
  atomsOf(a: number, b: number, isSpace: boolean, out: Atom[]): void {
    const runs = this.runs;
    while (this.runIdx > 0 && runs[this.runIdx]!.start > a) this.runIdx--;
    while (runs[this.runIdx]!.end <= a) this.runIdx++;
    for (let r = this.runIdx; r < runs.length && runs[r]!.start < b; r++) {
      const run = runs[r]!;
      const atom = this.makeAtom(run, Math.max(a, run.start), Math.min(b, run.end), isSpace);
      if (atom) out.push(atom);
    }
  }

  private makeAtom(run: FontRun, a: number, b: number, isSpace: boolean): Atom | null {
    let t = this.text.slice(a, b);
    if (isSpace) t = t.replace(/\n/g, '');
    if (t.length === 0) return null;
    const style = this.style;
    const rtl = (run.level & 1) === 1;
    const shaped = run.face.shape(t, rtl, this.exactText);
    const span = this.spans[run.span]!;
    const atom: Atom = {
      face: run.face,
      size: style.size,
      shaped,
      width: (shaped.width * style.size) / run.face.unitsPerEm,
      level: run.level,
      isSpace,
      underline: style.underline || span.underline === true || span.link !== undefined,
      color: span.link ? LINK_COLOR : style.color,
      text: t,
      start: a,
      x: 0,
    };
    if (span.link) atom.link = span.link;
    return atom;
  }
}

/**
 * Greedy line filling. Spaces after a word are held until the next word: they join the line only
 * if that word fits after them, so a line never ends or starts with spaces.
 */
class LineFiller {
  private readonly lines: Line[] = [];
  private line: Atom[] = [];
  private lineWidth = 0;
  private pendingSpaces: Atom[] = [];
  private pendingSpaceWidth = 0;
  private readonly maxWidth: number;

  constructor(maxWidth: number) {
    this.maxWidth = maxWidth;
  }

  endLine(hard: boolean): void {
    this.lines.push(finishLine(this.line, this.lineWidth, hard));
    this.line = [];
    this.lineWidth = 0;
    this.pendingSpaces = [];
    this.pendingSpaceWidth = 0;
  }

  placeWord(word: Atom[], width: number): void {
    if (this.line.length > 0 && this.lineWidth + this.pendingSpaceWidth + width > this.maxWidth) {
      this.endLine(false);
    }
    if (this.line.length > 0) {
      this.line.push(...this.pendingSpaces);
      this.lineWidth += this.pendingSpaceWidth;
    }
    this.pendingSpaces = [];
    this.pendingSpaceWidth = 0;
    this.line.push(...word);
    this.lineWidth += width;
  }

  holdSpaces(spaces: Atom[]): void {
    for (const s of spaces) {
      this.pendingSpaces.push(s);
      this.pendingSpaceWidth += s.width;
    }
  }

  /** Ends the last line; the text's last line is always hard, so it is never justified. */
  finish(): Line[] {
    const lines = this.lines;
    if (this.line.length > 0 || lines.length === 0) this.endLine(true);
    else if (lines.length > 0) lines[lines.length - 1]!.hard = true;
    return lines;
  }
}

/** Places the text between two break opportunities: its word, then its trailing spaces, held for the next word. */
function placePiece(text: string, a: number, b: number, cutter: AtomCutter, filler: LineFiller, maxWidth: number): void {
  const ws = WS_RE.exec(text.slice(a, b));
  const wordEnd = ws ? a + ws.index : b;
  const word: Atom[] = [];
  // A run with no break opportunity this long cannot fit a line anyway; shaping it whole
  // first would cost seconds in complex scripts, so it goes straight to the character cut.
  const overlong = wordEnd - a > MAX_SHAPED_WORD;
  if (wordEnd > a && !overlong) cutter.atomsOf(a, wordEnd, false, word);
  const wordWidth = widthOf(word);
  if (overlong || wordWidth > maxWidth) {
    // A word longer than the line is cut between characters rather than overflowing the page.
    for (const g of splitGraphemes(text, a, wordEnd)) {
      const part: Atom[] = [];
      cutter.atomsOf(g[0], g[1], false, part);
      filler.placeWord(part, widthOf(part));
    }
  } else if (word.length > 0) {
    filler.placeWord(word, wordWidth);
  }
  if (wordEnd < b) {
    const spaces: Atom[] = [];
    cutter.atomsOf(wordEnd, b, true, spaces);
    filler.holdSpaces(spaces);
  }
}

function widthOf(atoms: Atom[]): number {
  let w = 0;
  for (const at of atoms) w += at.width;
  return w;
}

function splitGraphemes(text: string, a: number, b: number): [number, number][] {
  const out: [number, number][] = [];
  let start = a;
  for (let i = a; i < b;) {
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    if (i > start && !isMark(cp) && text.charCodeAt(i - 1) !== 0x94d && text.charCodeAt(i - 1) !== 0x200d) {
      out.push([start, i]);
      start = i;
    }
    i += len;
  }
  if (b > start) out.push([start, b]);
  return out;
}

/** Puts a line's atoms in visual order (UAX #9 rule L2). */
function finishLine(atoms: Atom[], width: number, hard: boolean): Line {
  let maxLevel = 0;
  let minOdd = 255;
  for (const a of atoms) {
    if (a.level > maxLevel) maxLevel = a.level;
    if (a.level & 1 && a.level < minOdd) minOdd = a.level;
  }
  if (maxLevel > 0 && minOdd !== 255) {
    for (let lvl = maxLevel; lvl >= minOdd; lvl--) {
      let i = 0;
      while (i < atoms.length) {
        if (atoms[i]!.level >= lvl) {
          let j = i;
          while (j < atoms.length && atoms[j]!.level >= lvl) j++;
          reverseRange(atoms, i, j);
          i = j;
        } else i++;
      }
    }
  }
  return { atoms, width, hard };
}

function reverseRange<T>(arr: T[], from: number, to: number): void {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const t = arr[i]!;
    arr[i] = arr[j]!;
    arr[j] = t;
  }
}

/** Sets each atom's x for the alignment; justified lines stretch their spaces. */
export function placeLine(line: Line, left: number, maxWidth: number, align: 'left' | 'center' | 'right' | 'justify'): void {
  let x = left;
  let extraPerSpace = 0;
  const slack = maxWidth - line.width;
  if (align === 'center') x += slack / 2;
  else if (align === 'right') x += slack;
  else if (align === 'justify' && !line.hard && slack > 0) {
    let spaces = 0;
    for (const a of line.atoms) if (a.isSpace) spaces++;
    if (spaces > 0) extraPerSpace = slack / spaces;
  }
  for (const a of line.atoms) {
    a.x = x;
    x += a.width;
    if (a.isSpace) x += extraPerSpace;
  }
}
