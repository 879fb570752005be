import { inflateSync } from 'node:zlib';

/*
 * Just enough of the TrueType container format to turn WOFF into a plain sfnt and to cut a
 * subset that keeps the original glyph ids. Keeping glyph ids means a page's content stream
 * can be written as soon as its text is shaped, before anyone knows which glyphs the whole
 * document uses, and lets subset programs be cached by glyph set alone.
 */

export interface SfntTables {
  tables: Map<string, Uint8Array>;
}

function tag(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Table directory of a TrueType/OpenType (sfnt) or WOFF 1.0 file. */
export function readTables(bytes: Uint8Array): SfntTables {
  const dv = view(bytes);
  const tables = new Map<string, Uint8Array>();
  if (tag(bytes, 0) === 'wOFF') {
    const numTables = dv.getUint16(12);
    for (let i = 0; i < numTables; i++) {
      const at = 44 + i * 20;
      const t = tag(bytes, at);
      const offset = dv.getUint32(at + 4);
      const compLength = dv.getUint32(at + 8);
      const origLength = dv.getUint32(at + 12);
      const raw = bytes.subarray(offset, offset + compLength);
      tables.set(t, compLength < origLength ? new Uint8Array(inflateSync(raw)) : raw);
    }
    return { tables };
  }
  const numTables = dv.getUint16(4);
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    const offset = dv.getUint32(at + 8);
    const length = dv.getUint32(at + 12);
    tables.set(tag(bytes, at), bytes.subarray(offset, offset + length));
  }
  return { tables };
}

function checksum(data: Uint8Array): number {
  let sum = 0;
  const n = data.length;
  let i = 0;
  for (; i + 3 < n; i += 4) sum = (sum + ((data[i]! << 24) | (data[i + 1]! << 16) | (data[i + 2]! << 8) | data[i + 3]!)) >>> 0;
  if (i < n) {
    let last = 0;
    for (let k = 0; k < 4; k++) last = (last << 8) | (i + k < n ? data[i + k]! : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/** Serialises tables into an sfnt, tags sorted as the format requires. */
export function writeSfnt(tables: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tables.keys()].sort();
  const numTables = tags.length;
  const headerLen = 12 + numTables * 16;
  let total = headerLen;
  for (const t of tags) total += (tables.get(t)!.length + 3) & ~3;
  const out = new Uint8Array(total);
  const dv = view(out);
  dv.setUint32(0, 0x00010000);
  dv.setUint16(4, numTables);
  let es = 0;
  while (1 << (es + 1) <= numTables) es++;
  dv.setUint16(6, (1 << es) * 16);
  dv.setUint16(8, es);
  dv.setUint16(10, numTables * 16 - (1 << es) * 16);
  let offset = headerLen;
  let headOffset = -1;
  tags.forEach((t, i) => {
    const data = tables.get(t)!;
    const at = 12 + i * 16;
    for (let k = 0; k < 4; k++) out[at + k] = t.charCodeAt(k);
    dv.setUint32(at + 4, checksum(data));
    dv.setUint32(at + 8, offset);
    dv.setUint32(at + 12, data.length);
    out.set(data, offset);
    if (t === 'head') headOffset = offset;
    offset += (data.length + 3) & ~3;
  });
  if (headOffset >= 0) {
    dv.setUint32(headOffset + 8, 0);
    dv.setUint32(headOffset + 8, (0xb1b0afba - checksum(out)) >>> 0);
  }
  return out;
}

/** The subset-relevant tables of one font, decoded once per process. */
export class GlyfSource {
  private readonly glyf: Uint8Array;
  private readonly offsets: Uint32Array;
  private readonly tables: Map<string, Uint8Array>;
  readonly numGlyphs: number;

  constructor(sfnt: SfntTables) {
    this.tables = sfnt.tables;
    const head = sfnt.tables.get('head');
    const maxp = sfnt.tables.get('maxp');
    const loca = sfnt.tables.get('loca');
    const glyf = sfnt.tables.get('glyf');
    if (!head || !maxp || !loca || !glyf) throw new Error('font has no TrueType outlines');
    this.glyf = glyf;
    this.numGlyphs = view(maxp).getUint16(4);
    const longLoca = view(head).getInt16(50) === 1;
    const lv = view(loca);
    this.offsets = new Uint32Array(this.numGlyphs + 1);
    for (let i = 0; i <= this.numGlyphs; i++) {
      this.offsets[i] = longLoca ? lv.getUint32(i * 4) : lv.getUint16(i * 2) * 2;
    }
  }

  private glyph(gid: number): Uint8Array {
    if (gid >= this.numGlyphs) return new Uint8Array(0);
    return this.glyf.subarray(this.offsets[gid]!, this.offsets[gid + 1]!);
  }

  /** Adds the components of composite glyphs, which must travel with the glyphs that use them. */
  private closure(gids: Iterable<number>): number[] {
    const seen = new Set<number>([0]);
    const stack = [...gids];
    while (stack.length > 0) {
      const gid = stack.pop()!;
      if (seen.has(gid) || gid < 0 || gid >= this.numGlyphs) continue;
      seen.add(gid);
      const g = this.glyph(gid);
      if (g.length < 10 || view(g).getInt16(0) >= 0) continue;
      const dv = view(g);
      let at = 10;
      // Composite glyph records: flags, glyphIndex, then arguments and transform of varying size.
      for (let guard = 0; guard < 256 && at + 4 <= g.length; guard++) {
        const flags = dv.getUint16(at);
        stack.push(dv.getUint16(at + 2));
        at += 4 + (flags & 0x0001 ? 4 : 2);
        if (flags & 0x0008) at += 2;
        else if (flags & 0x0040) at += 4;
        else if (flags & 0x0080) at += 8;
        if (!(flags & 0x0020)) break;
      }
    }
    return [...seen].sort((a, b) => a - b);
  }

  /**
   * A TrueType program holding only `gids` (plus composite components and .notdef) at their
   * original ids; every other glyph is empty. Tables a PDF viewer does not read (cmap, name,
   * post, layout) are left out, as the PDF carries widths and the Unicode mapping itself.
   */
  subset(gids: Iterable<number>): Uint8Array {
    const keep = this.closure(gids);
    const maxGid = keep[keep.length - 1] ?? 0;
    const numGlyphs = maxGid + 1;
    let glyfLen = 0;
    for (const gid of keep) glyfLen += (this.glyph(gid).length + 3) & ~3;
    const glyf = new Uint8Array(glyfLen);
    const loca = new Uint8Array((numGlyphs + 1) * 4);
    const lv = view(loca);
    let pos = 0;
    let k = 0;
    for (let gid = 0; gid < numGlyphs; gid++) {
      lv.setUint32(gid * 4, pos);
      if (keep[k] === gid) {
        const g = this.glyph(gid);
        glyf.set(g, pos);
        pos += (g.length + 3) & ~3;
        k++;
      }
    }
    lv.setUint32(numGlyphs * 4, pos);

    const out = new Map<string, Uint8Array>();
    const head = new Uint8Array(this.tables.get('head')!);
    view(head).setInt16(50, 1);
    out.set('head', head);
    const maxp = new Uint8Array(this.tables.get('maxp')!);
    view(maxp).setUint16(4, numGlyphs);
    out.set('maxp', maxp);
    const hhea = new Uint8Array(this.tables.get('hhea')!);
    const numHMetrics = view(hhea).getUint16(34);
    const keptMetrics = Math.min(numHMetrics, numGlyphs);
    view(hhea).setUint16(34, keptMetrics);
    out.set('hhea', hhea);
    const hmtx = this.tables.get('hmtx')!;
    // Long metrics for the kept range, then left side bearings for the rest.
    const hmtxLen = keptMetrics * 4 + (numGlyphs - keptMetrics) * 2;
    const newHmtx = new Uint8Array(hmtxLen);
    newHmtx.set(hmtx.subarray(0, keptMetrics * 4), 0);
    if (numGlyphs > keptMetrics) {
      newHmtx.set(hmtx.subarray(numHMetrics * 4, numHMetrics * 4 + (numGlyphs - keptMetrics) * 2), keptMetrics * 4);
    }
    out.set('hmtx', newHmtx);
    out.set('loca', loca);
    out.set('glyf', glyf);
    for (const t of ['cvt ', 'fpgm', 'prep', 'OS/2']) {
      const data = this.tables.get(t);
      if (data) out.set(t, data);
    }
    return writeSfnt(out);
  }
}
