import type * as Fontkit from 'fontkit';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TFontFamily } from '../contract/format-content.ts';
import { GlyfSource, readTables, writeSfnt } from './sfnt.ts';

/*
 * Fonts come from npm packages so a deployment needs nothing installed on the host:
 *   Arial, Helvetica -> Arimo (metric-compatible with Arial)
 *   Times New Roman  -> Tinos (metric-compatible with Times New Roman; Fontsource ships it split
 *                       by script, so each split is one more link in the chain)
 *   Inter            -> Inter
 * and every chain then falls back to Noto Sans Devanagari, Noto Naskh Arabic, DejaVu Sans, and
 * Noto Sans SC, JP and KR (read only when text needs them).
 * Each file is read and parsed at most once per process, on first use.
 */

const require = createRequire(import.meta.url);
// fontkit's CommonJS build, because Node loads it about 30 ms faster than the ES module build,
// and that is a tenth of the renderer's cold start.
const fontkit = require('fontkit') as typeof Fontkit;

function packageDir(pkg: string): string {
  try {
    return dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    return dirname(require.resolve(pkg));
  }
}

interface FaceSpec {
  name: string;
  pkg: string;
  file: string;
}

function expo(pkg: string, dir: string, prefix: string): FaceSpec {
  return { name: `${prefix}-${dir}`, pkg: `@expo-google-fonts/${pkg}`, file: `${dir}/${prefix}_${dir}.ttf` };
}

const TINOS_SPLITS = ['latin', 'latin-ext', 'greek', 'cyrillic', 'cyrillic-ext', 'greek-ext', 'vietnamese'];

/** A face family: the text families of the builder, and the script face typed signatures print in. */
export type TFaceFamily = 'sans' | 'serif' | 'inter' | 'script';

export type StyleKey = 0 | 1 | 2 | 3; // bit 1: bold, bit 0: italic
export function styleKey(bold: boolean, italic: boolean): StyleKey {
  return ((bold ? 2 : 0) | (italic ? 1 : 0)) as StyleKey;
}

function primarySpecs(family: TFaceFamily, style: StyleKey): FaceSpec[] {
  const bold = style & 2;
  const italic = style & 1;
  // Dancing Script (OFL) has Latin only: other scripts fall back along the chain, as in any family.
  if (family === 'script') return [expo('dancing-script', '400Regular', 'DancingScript')];
  if (family === 'serif') {
    const w = bold ? 700 : 400;
    const s = italic ? 'italic' : 'normal';
    return TINOS_SPLITS.map((split) => ({
      name: `Tinos-${split}-${w}${s}`,
      pkg: '@fontsource/tinos',
      file: `files/tinos-${split}-${w}-${s}.woff`,
    }));
  }
  const dir = `${bold ? '700Bold' : '400Regular'}${italic ? '_Italic' : ''}`;
  return family === 'sans' ? [expo('arimo', dir, 'Arimo')] : [expo('inter', dir, 'Inter')];
}

function fallbackSpecs(style: StyleKey): FaceSpec[] {
  const bold = style & 2;
  const italic = style & 1;
  const dejavu = ['DejaVuSans', 'DejaVuSans-Oblique', 'DejaVuSans-Bold', 'DejaVuSans-BoldOblique'][style]!;
  return [
    expo('noto-sans-devanagari', bold ? '700Bold' : '400Regular', 'NotoSansDevanagari'),
    expo('noto-naskh-arabic', bold ? '700Bold' : '400Regular', 'NotoNaskhArabic'),
    { name: italic || bold ? dejavu : 'DejaVuSans', pkg: 'dejavu-fonts-ttf', file: `ttf/${dejavu}.ttf` },
    // Han characters take their shapes from Simplified Chinese; kana from Japanese; Hangul from Korean.
    ...(['sc', 'jp', 'kr'] as const).map((region) => expo(`noto-sans-${region}`, bold ? '700Bold' : '400Regular', `NotoSans${region.toUpperCase()}`)),
  ];
}

export function familyOf(f: TFontFamily | string | undefined): 'sans' | 'serif' | 'inter' {
  if (f === 'Times New Roman') return 'serif';
  if (f === 'Inter') return 'inter';
  return 'sans';
}

/** A glyph sequence in visual order, measured in font units. */
export interface Shaped {
  gids: number[];
  advances: number[];
  /** Per-glyph offsets, or null when every glyph sits on the pen position. */
  xOffsets: number[] | null;
  yOffsets: number[] | null;
  width: number;
  /** The Unicode text each glyph stands for (for the ToUnicode map). */
  texts: string[];
  /**
   * False when glyphs do not read back as the text (reordered matras, conjuncts, right-to-left
   * runs, whose contextual forms may share one glyph between letters): the atom then carries
   * ActualText.
   */
  inLogicalOrder: boolean;
}

// Scripts that need no shaping beyond kerning: Latin, Greek, Cyrillic, punctuation, currency.
const SIMPLE_TEXT_RE = /^[\u0020-\u007E\u00A0-\u024F\u0370-\u0377\u037A-\u03FF\u0400-\u0482\u048A-\u052F\u2010-\u205E\u20A0-\u20C0]*$/;

const SHAPE_CACHE_LIMIT = 4000;
const ZERO_WIDTH_JOINER = '\u200d';
const KERN_CACHE_LIMIT = 50_000;

let nextFaceIndex = 0;

export class Face {
  readonly index = nextFaceIndex++;
  readonly name: string;
  readonly font: Fontkit.Font;
  readonly glyf: GlyfSource;
  readonly unitsPerEm: number;
  readonly ascent: number;
  readonly descent: number;
  readonly capHeight: number;
  readonly italicAngle: number;
  readonly bbox: [number, number, number, number];
  readonly underlinePosition: number;
  readonly underlineThickness: number;
  private readonly advanceTable: Uint16Array;
  private readonly cmap = new Map<number, number>();
  private readonly shapeCache = new Map<string, Shaped>();
  private readonly exactShapeCache = new Map<string, Shaped>();
  private readonly kernCache = new Map<number, number>();

  constructor(name: string, bytes: Uint8Array) {
    this.name = name;
    const tables = readTables(bytes);
    // fontkit reads WOFF too, but a plain sfnt lets it and the subsetter share one copy.
    const sfnt = bytes[0] === 0x77 ? writeSfnt(tables.tables) : bytes;
    this.font = fontkit.create(Buffer.from(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength));
    this.glyf = new GlyfSource(readTables(sfnt));
    const f = this.font;
    this.unitsPerEm = f.unitsPerEm;
    this.ascent = f.ascent;
    this.descent = f.descent;
    this.capHeight = f.capHeight || f.ascent * 0.7;
    this.italicAngle = f.italicAngle || 0;
    this.bbox = [f.bbox.minX, f.bbox.minY, f.bbox.maxX, f.bbox.maxY];
    this.underlinePosition = f.underlinePosition || -f.unitsPerEm * 0.1;
    this.underlineThickness = f.underlineThickness || f.unitsPerEm * 0.05;
    const hhea = tables.tables.get('hhea')!;
    const hmtx = tables.tables.get('hmtx')!;
    const numH = new DataView(hhea.buffer, hhea.byteOffset).getUint16(34);
    const hv = new DataView(hmtx.buffer, hmtx.byteOffset, hmtx.byteLength);
    this.advanceTable = new Uint16Array(this.glyf.numGlyphs);
    for (let g = 0; g < this.glyf.numGlyphs; g++) {
      this.advanceTable[g] = hv.getUint16(Math.min(g, numH - 1) * 4);
    }
  }

  gidFor(cp: number): number {
    let gid = this.cmap.get(cp);
    if (gid === undefined) {
      gid = this.font.hasGlyphForCodePoint(cp) ? this.font.glyphForCodePoint(cp).id : 0;
      this.cmap.set(cp, gid);
    }
    return gid;
  }

  has(cp: number): boolean {
    return this.gidFor(cp) !== 0;
  }

  advance(gid: number): number {
    return this.advanceTable[gid] ?? 0;
  }

  private kernTables: PairSubtable[][] | null = null;

  /**
   * Pair kerning read straight from the font's GPOS 'kern' lookups (what fontkit's shaper would
   * apply to simple text), without running the shaper: asking it per pair cost ~100 us each.
   */
  private kern(gA: number, gB: number): number {
    const key = gA * 0x10000 + gB;
    let k = this.kernCache.get(key);
    if (k === undefined) {
      this.kernTables ??= kernLookups(this.font);
      k = 0;
      for (const lookup of this.kernTables) k += pairAdjustment(lookup, gA, gB);
      if (this.kernCache.size >= KERN_CACHE_LIMIT) this.kernCache.clear();
      this.kernCache.set(key, k);
    }
    return k;
  }

  /**
   * `exact`, for tagged documents: each glyph's text is what it stands for in this run, whatever
   * the process shaped before, and a glyph that stands for none (a letter's dots drawn apart, a
   * mark the font adds) gets a zero width joiner, since PDF/A and PDF/UA want every glyph to map to
   * text; the atom's ActualText then carries the words. Untagged documents keep the texts they
   * always had, so that they re-render to the same bytes.
   */
  shape(text: string, rtl: boolean, exact = false): Shaped {
    const cache = exact ? this.exactShapeCache : this.shapeCache;
    const key = rtl ? `\u0001${text}` : text;
    let s = cache.get(key);
    if (s) return s;
    s = !rtl && SIMPLE_TEXT_RE.test(text) ? this.shapeSimple(text) : this.shapeComplex(text, rtl, exact);
    if (cache.size >= SHAPE_CACHE_LIMIT) {
      // Dropping the oldest quarter keeps the cost of eviction off the common path.
      let n = SHAPE_CACHE_LIMIT >> 2;
      for (const k of cache.keys()) {
        cache.delete(k);
        if (--n === 0) break;
      }
    }
    cache.set(key, s);
    return s;
  }

  private shapeSimple(text: string): Shaped {
    const gids: number[] = [];
    const advances: number[] = [];
    const texts: string[] = [];
    let width = 0;
    let prevGid = -1;
    for (let i = 0; i < text.length; i++) {
      const cp = text.charCodeAt(i);
      const gid = this.gidFor(cp);
      if (prevGid > 0 && gid > 0) {
        const k = this.kern(prevGid, gid);
        if (k !== 0) {
          advances[advances.length - 1]! += k;
          width += k;
        }
      }
      const adv = this.advance(gid);
      gids.push(gid);
      advances.push(adv);
      texts.push(text[i]!);
      width += adv;
      prevGid = gid;
    }
    return { gids, advances, xOffsets: null, yOffsets: null, width, texts, inLogicalOrder: true };
  }

  private shapeComplex(text: string, rtl: boolean, exact: boolean): Shaped {
    // fontkit keeps one glyph object per glyph id, holding the code points it was first made for,
    // and hands that object back from later runs: a glyph first met in another word, or with no
    // code points, would carry that text into the ToUnicode map, which would then depend on what
    // the process had shaped before. An empty cache for the run gives each glyph its own here.
    const cache = this.font as unknown as { _glyphs: Record<number, unknown> };
    const kept = cache._glyphs;
    if (exact) cache._glyphs = {};
    let run: Fontkit.GlyphRun;
    try {
      run = this.font.layout(text, undefined, undefined, undefined, rtl ? 'rtl' : 'ltr');
    } finally {
      cache._glyphs = kept;
    }
    const n = run.glyphs.length;
    const gids = new Array<number>(n);
    const advances = new Array<number>(n);
    const texts = new Array<string>(n);
    let xOffsets: number[] | null = null;
    let yOffsets: number[] | null = null;
    let width = 0;
    let joined = '';
    for (let i = 0; i < n; i++) {
      const g = run.glyphs[i]!;
      const p = run.positions[i]!;
      gids[i] = g.id;
      advances[i] = p.xAdvance;
      width += p.xAdvance;
      const t = String.fromCodePoint(...g.codePoints);
      texts[i] = exact && t === '' ? ZERO_WIDTH_JOINER : t;
      joined += t;
      if (p.xOffset !== 0) (xOffsets ??= new Array<number>(n).fill(0))[i] = p.xOffset;
      if (p.yOffset !== 0) (yOffsets ??= new Array<number>(n).fill(0))[i] = p.yOffset;
    }
    // `joined` leaves out the joiners given above, so an atom that has one gets ActualText too.
    const inLogicalOrder = !rtl && joined === text && !(exact && texts.includes(ZERO_WIDTH_JOINER));
    return { gids, advances, xOffsets, yOffsets, width, texts, inLogicalOrder };
  }
}

const faces = new Map<string, Face | null>();

function loadFace(spec: FaceSpec): Face | null {
  let face = faces.get(spec.name);
  if (face === undefined) {
    try {
      face = new Face(spec.name, new Uint8Array(readFileSync(join(packageDir(spec.pkg), spec.file))));
    } catch {
      // A missing optional font only narrows the fallback chain; text still renders.
      face = null;
    }
    faces.set(spec.name, face);
  }
  return face;
}

/** The ordered fonts tried for each character of text in one family and style. */
export class FontChain {
  private readonly specs: FaceSpec[];
  private readonly loaded: (Face | null | undefined)[];
  private readonly pick = new Map<number, number>();
  readonly primary: Face;

  constructor(family: TFaceFamily, style: StyleKey) {
    this.specs = [...primarySpecs(family, style), ...fallbackSpecs(style)];
    this.loaded = new Array(this.specs.length);
    const first = this.face(0) ?? this.firstAvailable();
    if (!first) throw new Error('no usable font found in node_modules');
    this.primary = first;
  }

  private firstAvailable(): Face | null {
    for (let i = 0; i < this.specs.length; i++) {
      const f = this.face(i);
      if (f) return f;
    }
    return null;
  }

  private face(i: number): Face | null {
    let f = this.loaded[i];
    if (f === undefined) {
      f = loadFace(this.specs[i]!);
      this.loaded[i] = f;
    }
    return f;
  }

  /** The first font that has a glyph for `cp`, or null when none does. */
  faceFor(cp: number): Face | null {
    let idx = this.pick.get(cp);
    if (idx === undefined) {
      idx = -1;
      for (let i = 0; i < this.specs.length; i++) {
        const f = this.face(i);
        if (f && f.has(cp)) {
          idx = i;
          break;
        }
      }
      this.pick.set(cp, idx);
    }
    return idx < 0 ? null : this.face(idx);
  }
}

const chains = new Map<string, FontChain>();

export function fontChain(family: TFaceFamily, style: StyleKey): FontChain {
  const key = `${family}${style}`;
  let c = chains.get(key);
  if (!c) {
    c = new FontChain(family, style);
    chains.set(key, c);
  }
  return c;
}

/* fontkit parses GPOS into plain objects and lazy arrays; these are the parts pair kerning reads. */
interface LazyList<T> {
  length: number;
  get?(i: number): T;
  [i: number]: T;
}
interface Coverage {
  version: number;
  glyphs?: LazyList<number>;
  rangeRecords?: LazyList<{ start: number; end: number; startCoverageIndex: number }>;
}
interface ClassDef {
  version: number;
  startGlyph?: number;
  classValueArray?: LazyList<number>;
  classRangeRecord?: LazyList<{ start: number; end: number; class: number }>;
}
interface PairValue {
  xAdvance?: number;
}
interface PairSubtable {
  version: number;
  coverage: Coverage;
  pairSets?: LazyList<LazyList<{ secondGlyph: number; value1?: PairValue }>>;
  classDef1?: ClassDef;
  classDef2?: ClassDef;
  classRecords?: LazyList<LazyList<{ value1?: PairValue }>>;
}

function at<T>(list: LazyList<T>, i: number): T | undefined {
  return typeof list.get === 'function' ? list.get(i) : list[i];
}

function coverageIndex(cov: Coverage, gid: number): number {
  if (cov.version === 1 && cov.glyphs) {
    let lo = 0;
    let hi = cov.glyphs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const g = at(cov.glyphs, mid)!;
      if (g === gid) return mid;
      if (g < gid) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
  if (cov.version === 2 && cov.rangeRecords) {
    for (let i = 0; i < cov.rangeRecords.length; i++) {
      const r = at(cov.rangeRecords, i)!;
      if (gid >= r.start && gid <= r.end) return r.startCoverageIndex + gid - r.start;
    }
  }
  return -1;
}

function classOf(cd: ClassDef | undefined, gid: number): number {
  if (!cd) return 0;
  if (cd.version === 1 && cd.classValueArray && cd.startGlyph !== undefined) {
    const i = gid - cd.startGlyph;
    return i >= 0 && i < cd.classValueArray.length ? (at(cd.classValueArray, i) ?? 0) : 0;
  }
  if (cd.version === 2 && cd.classRangeRecord) {
    for (let i = 0; i < cd.classRangeRecord.length; i++) {
      const r = at(cd.classRangeRecord, i)!;
      if (gid >= r.start && gid <= r.end) return r.class;
    }
  }
  return 0;
}

function kernLookups(font: Fontkit.Font): PairSubtable[][] {
  try {
    const gpos = (
      font as unknown as {
        GPOS?: {
          featureList: LazyList<{ tag: string; feature: { lookupListIndexes: number[] } }>;
          lookupList: LazyList<{ lookupType: number; subTables: LazyList<PairSubtable & { lookupType?: number; extension?: PairSubtable }> }>;
        };
      }
    ).GPOS;
    if (!gpos) return [];
    const indexes = new Set<number>();
    for (let i = 0; i < gpos.featureList.length; i++) {
      const f = at(gpos.featureList, i)!;
      if (f.tag === 'kern') for (const li of f.feature.lookupListIndexes) indexes.add(li);
    }
    const lookups: PairSubtable[][] = [];
    for (const li of [...indexes].sort((a, b) => a - b)) {
      const lookup = at(gpos.lookupList, li);
      if (!lookup) continue;
      const subs: PairSubtable[] = [];
      for (let i = 0; i < lookup.subTables.length; i++) {
        const st = at(lookup.subTables, i)!;
        if (lookup.lookupType === 2) subs.push(st);
        else if (lookup.lookupType === 9 && st.lookupType === 2 && st.extension) subs.push(st.extension);
      }
      if (subs.length > 0) lookups.push(subs);
    }
    return lookups;
  } catch {
    // A font whose GPOS fontkit cannot read is simply not kerned.
    return [];
  }
}

/** The first subtable covering the pair decides, as in OpenType lookup processing. */
function pairAdjustment(lookup: PairSubtable[], g1: number, g2: number): number {
  for (const st of lookup) {
    const ci = coverageIndex(st.coverage, g1);
    if (ci < 0) continue;
    if (st.version === 1 && st.pairSets) {
      const set = at(st.pairSets, ci);
      if (!set) continue;
      for (let i = 0; i < set.length; i++) {
        const rec = at(set, i)!;
        if (rec.secondGlyph === g2) return rec.value1?.xAdvance ?? 0;
      }
      continue;
    }
    if (st.version === 2 && st.classRecords) {
      const row = at(st.classRecords, classOf(st.classDef1, g1));
      const rec = row ? at(row, classOf(st.classDef2, g2)) : undefined;
      return rec?.value1?.xAdvance ?? 0;
    }
  }
  return 0;
}
