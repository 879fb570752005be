import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Face } from './fonts.ts';
import type { PdfImage } from './images.ts';

/*
 * Low-level PDF serialisation: numbered objects written as Buffer chunks, a classic xref table,
 * and the font objects (Type0 / CIDFontType2, Identity-H, subset FontFile2, ToUnicode).
 * Content streams address glyphs by their original glyph id (CID = GID), so the subset keeps
 * glyph ids and a subset program can be reused by any document with the same glyph set.
 */

/** A coordinate to two decimals, as short as it goes ("12", "12.5", "-0.05"). */
export function num(n: number): string {
  const k = Math.round(n * 100);
  if (k === 0) return '0';
  // Printing the hundredths from integers is what String(k / 100) prints, without the slower
  // shortest-double search; beyond 1e15 (and for NaN) that is used as it is.
  if (!(k > -1e15 && k < 1e15)) return String(k / 100);
  const abs = k < 0 ? -k : k;
  const whole = Math.floor(abs / 100);
  const cents = abs - whole * 100;
  const sign = k < 0 ? '-' : '';
  if (cents === 0) return `${sign}${whole}`;
  if (cents % 10 === 0) return `${sign}${whole}.${cents / 10}`;
  return `${sign}${whole}.${cents < 10 ? '0' : ''}${cents}`;
}

/** A PDF text string: literal ASCII when possible, otherwise UTF-16BE hex with a BOM. */
export function pdfString(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  let hex = 'FEFF';
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, '0');
  return `<${hex}>`;
}

export function pdfDate(d: Date): string {
  const t = Number.isNaN(d.getTime()) ? new Date(0) : d;
  const p = (n: number) => String(n).padStart(2, '0');
  return `D:${t.getUTCFullYear()}${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())}${p(t.getUTCHours())}${p(t.getUTCMinutes())}${p(t.getUTCSeconds())}Z`;
}

/** Objects per object stream: large enough to compress well, small enough for a reader to seek in. */
const OBJECTS_PER_STREAM = 200;
/** Below this many bytes, starting a compressor costs more time than the bytes it would save. */
const SMALL_STREAM = 1024;

export class PdfWriter {
  private readonly chunks: Uint8Array[] = [];
  private readonly digest = createHash('md5');
  private finished = false;
  private length = 0;
  private readonly offsets: number[] = [];
  /** For an object kept in an object stream, by object id: that stream's id, and the object's index in it. */
  private readonly streamOf: number[] = [];
  private readonly indexInStream: number[] = [];
  /** Small objects waiting for an object stream, in the order they were given. */
  private readonly packed: { id: number; body: string }[] = [];
  private count = 0;

  /**
   * `objectStreams`: small objects given to `packedObject` are compressed together in object
   * streams, and the cross-reference is a stream (PDF 1.5). A tagged document has an object per
   * structure element, hundreds for a long table, which would otherwise outweigh its text.
   * Without it the file is written as it always was, byte for byte.
   */
  constructor(private readonly objectStreams = false) {
    this.raw('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  }

  /** An object that may be kept in an object stream (never a stream, nor the document's catalog). */
  packedObject(id: number, body: string): void {
    if (this.objectStreams) this.packed.push({ id, body });
    else this.object(id, body);
  }

  private writeObjectStreams(): void {
    for (let from = 0; from < this.packed.length; from += OBJECTS_PER_STREAM) {
      const to = Math.min(from + OBJECTS_PER_STREAM, this.packed.length);
      const streamId = this.alloc();
      let header = '';
      let bodies = '';
      for (let i = from; i < to; i++) {
        const { id, body } = this.packed[i]!;
        // Bodies are latin1 (text in them is escaped or hex), so their length is their byte count.
        header += `${id} ${bodies.length} `;
        bodies += `${body}\n`;
        this.streamOf[id] = streamId;
        this.indexInStream[id] = i - from;
      }
      const text = header + bodies;
      const small = text.length < SMALL_STREAM;
      this.stream(
        streamId,
        `/Type /ObjStm /N ${to - from} /First ${header.length}${small ? '' : ' /Filter /FlateDecode'}`,
        small ? Buffer.from(text, 'latin1') : cachedObjectStream(text),
      );
    }
  }

  private raw(s: string | Uint8Array, digestAs?: string): void {
    const b = typeof s === 'string' ? Buffer.from(s, 'latin1') : s;
    this.chunks.push(b);
    this.length += b.length;
    if (!this.finished) this.digest.update(digestAs ?? b);
  }

  alloc(): number {
    this.count++;
    this.offsets.push(-1);
    return this.count;
  }

  object(id: number, body: string): void {
    this.offsets[id - 1] = this.length;
    this.raw(`${id} 0 obj\n${body}\nendobj\n`);
  }

  /**
   * `digestAs` stands in for large cached data (images, font programs) in the file ID hash: it
   * must identify the bytes exactly (a content hash or cache key), and saves hashing them again.
   */
  stream(id: number, dict: string, data: Uint8Array, digestAs?: string): void {
    this.offsets[id - 1] = this.length;
    this.raw(`${id} 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\n`);
    this.raw(data, digestAs);
    this.raw('\nendstream\nendobj\n');
  }

  finish(rootId: number, infoId: number): Uint8Array {
    if (this.objectStreams) return this.finishWithStreams(rootId, infoId);
    // The file identifier is a hash of everything before it, so identical input gives identical bytes.
    const id = this.digest.digest('hex');
    this.finished = true;
    const xrefAt = this.length;
    let xref = `xref\n0 ${this.count + 1}\n0000000000 65535 f \n`;
    for (const off of this.offsets) xref += `${String(Math.max(off, 0)).padStart(10, '0')} 00000 n \n`;
    this.raw(xref);
    this.raw(`trailer\n<< /Size ${this.count + 1} /Root ${rootId} 0 R /Info ${infoId} 0 R /ID [<${id}> <${id}>] >>\nstartxref\n${xrefAt}\n%%EOF\n`);
    return Buffer.concat(this.chunks, this.length);
  }

  /** The cross-reference as a stream, which can point into object streams. */
  private finishWithStreams(rootId: number, infoId: number): Uint8Array {
    this.writeObjectStreams();
    const id = this.digest.digest('hex');
    this.finished = true;
    const xrefId = this.alloc();
    const xrefAt = this.length;
    this.offsets[xrefId - 1] = xrefAt;
    // Each entry: a type byte, then an offset (or object stream id) and an index, each as wide as
    // this file needs. Every row is sent as its difference from the row above (PNG "Up"), which
    // turns the long runs of objects in one object stream into zeros that compress to almost nothing.
    const offsetBytes = Math.max(1, Math.ceil(Math.log2(this.length + 1) / 8));
    // Two bytes for the third field: object 0, the head of the free list, has generation 65535.
    const indexBytes = 2;
    const columns = 1 + offsetBytes + indexBytes;
    const table = Buffer.alloc((this.count + 1) * columns);
    table.writeUInt16BE(65535, 1 + offsetBytes);
    for (let n = 1; n <= this.count; n++) {
      const at = n * columns;
      const stream = this.streamOf[n];
      table[at] = stream === undefined ? 1 : 2;
      table.writeUIntBE(stream ?? Math.max(this.offsets[n - 1]!, 0), at + 1, offsetBytes);
      if (stream !== undefined) table.writeUInt16BE(this.indexInStream[n]!, at + 1 + offsetBytes);
    }
    // A short table is cheaper to send as it is than to start a compressor for.
    const small = table.length < SMALL_STREAM;
    const data = small ? table : deflateSync(upPredicted(table, columns));
    const filter = small ? '' : ` /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns ${columns} >>`;
    this.raw(
      `${xrefId} 0 obj\n<< /Type /XRef /Size ${this.count + 1} /W [1 ${offsetBytes} ${indexBytes}] /Root ${rootId} 0 R /Info ${infoId} 0 R /ID [<${id}> <${id}>]${filter} /Length ${data.length} >>\nstream\n`,
    );
    this.raw(data);
    this.raw(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`);
    return Buffer.concat(this.chunks, this.length);
  }
}

/**
 * PNG's "Up" filter: each row after a filter-type byte of 2, as its difference from the row above.
 * Consecutive objects in one object stream then differ only in the last byte of the index.
 */
function upPredicted(table: Buffer, columns: number): Buffer {
  const rows = table.length / columns;
  const out = Buffer.alloc(rows * (columns + 1));
  for (let r = 0; r < rows; r++) {
    out[r * (columns + 1)] = 2;
    for (let c = 0; c < columns; c++) {
      const above = r === 0 ? 0 : table[(r - 1) * columns + c]!;
      out[r * (columns + 1) + 1 + c] = (table[r * columns + c]! - above) & 0xff;
    }
  }
  return out;
}

/** Glyphs a document uses from one face, with the text each stands for. */
export interface FontUse {
  face: Face;
  resource: string;
  glyphs: Map<number, string>;
}

interface SubsetEntry {
  fontFile: Uint8Array;
  length1: number;
  key: string;
}

const subsetCache = new Map<string, SubsetEntry>();
const SUBSET_CACHE_LIMIT = 128;

function cachedSubset(face: Face, gids: number[]): SubsetEntry {
  const key = `${face.name}:${gids.join(',')}`;
  let e = subsetCache.get(key);
  if (e) {
    // Refresh recency so fonts every document uses stay while one-off sets age out.
    subsetCache.delete(key);
    subsetCache.set(key, e);
    return e;
  }
  const program = face.glyf.subset(gids);
  e = { fontFile: deflateSync(program), length1: program.length, key };
  if (subsetCache.size >= SUBSET_CACHE_LIMIT) subsetCache.delete(subsetCache.keys().next().value!);
  subsetCache.set(key, e);
  return e;
}

const objectStreamCache = new Map<string, Uint8Array>();

/**
 * Documents of one format have the same structure, element for element, as long as their lists
 * are as long, so the compressed object stream of their structure elements is reused as well.
 */
function cachedObjectStream(text: string): Uint8Array {
  let z = objectStreamCache.get(text);
  if (!z) {
    z = deflateSync(Buffer.from(text, 'latin1'), { level: 1 });
    if (objectStreamCache.size >= 64) objectStreamCache.delete(objectStreamCache.keys().next().value!);
    objectStreamCache.set(text, z);
  }
  return z;
}

const toUnicodeCache = new Map<string, Uint8Array>();

/** Most documents map the same glyphs to the same text, so the compressed CMap is reused. */
function cachedToUnicode(cmap: string): Uint8Array {
  let z = toUnicodeCache.get(cmap);
  if (!z) {
    z = deflateSync(Buffer.from(cmap, 'latin1'));
    if (toUnicodeCache.size >= 256) toUnicodeCache.delete(toUnicodeCache.keys().next().value!);
    toUnicodeCache.set(cmap, z);
  }
  return z;
}

/**
 * Page content is compressed at a low level: it is a fresh stream for every document, and level 1
 * costs a third of the default for output only slightly larger on this kind of text.
 */
export function compressContent(data: string, level = 1): Uint8Array {
  return deflateSync(Buffer.from(data, 'latin1'), { level });
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

function utf16hex(s: string): string {
  let h = '';
  for (let i = 0; i < s.length; i++) h += hex4(s.charCodeAt(i));
  return h;
}

function subsetTag(key: string): string {
  const d = createHash('md5').update(key).digest();
  let t = '';
  for (let i = 0; i < 6; i++) t += String.fromCharCode(65 + (d[i]! % 26));
  return t;
}

/** Writes the Type0 font for one face and returns its object id. */
export function writeFont(w: PdfWriter, use: FontUse): number {
  const { face } = use;
  const gids = [...use.glyphs.keys()].sort((a, b) => a - b);
  const subset = cachedSubset(face, gids);
  const scale = 1000 / face.unitsPerEm;
  const psName = `${subsetTag(`${face.name}:${gids.join(',')}`)}+${face.name.replace(/[^A-Za-z0-9-]/g, '')}`;

  // W array: runs of consecutive glyph ids share one bracket.
  let wArr = '';
  for (let i = 0; i < gids.length;) {
    let j = i;
    const ws: string[] = [];
    while (j < gids.length && gids[j] === gids[i]! + (j - i)) {
      ws.push(num(face.advance(gids[j]!) * scale));
      j++;
    }
    wArr += `${gids[i]} [${ws.join(' ')}] `;
    i = j;
  }

  let bf = '';
  let bfCount = 0;
  const entries: string[] = [];
  for (const gid of gids) {
    const t = use.glyphs.get(gid)!;
    if (gid === 0 || t.length === 0) continue;
    entries.push(`<${hex4(gid)}> <${utf16hex(t)}>`);
  }
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = entries.slice(i, i + 100);
    bf += `${chunk.length} beginbfchar\n${chunk.join('\n')}\nendbfchar\n`;
    bfCount++;
  }
  const cmap =
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n' +
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n' +
    '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n' +
    '1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n' +
    bf +
    'endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend';
  void bfCount;

  const type0 = w.alloc();
  const cid = w.alloc();
  const desc = w.alloc();
  const file = w.alloc();
  const toUni = w.alloc();
  const [x0, y0, x1, y1] = face.bbox;
  const flags = 4 | (face.italicAngle !== 0 ? 64 : 0);
  w.object(type0, `<< /Type /Font /Subtype /Type0 /BaseFont /${psName} /Encoding /Identity-H /DescendantFonts [${cid} 0 R] /ToUnicode ${toUni} 0 R >>`);
  w.object(
    cid,
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${psName} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${desc} 0 R /CIDToGIDMap /Identity /DW 0 /W [${wArr}] >>`,
  );
  w.object(
    desc,
    `<< /Type /FontDescriptor /FontName /${psName} /Flags ${flags} /FontBBox [${num(x0 * scale)} ${num(y0 * scale)} ${num(x1 * scale)} ${num(y1 * scale)}] /ItalicAngle ${num(face.italicAngle)} /Ascent ${num(face.ascent * scale)} /Descent ${num(face.descent * scale)} /CapHeight ${num(face.capHeight * scale)} /StemV 80 /FontFile2 ${file} 0 R >>`,
  );
  w.stream(file, `/Filter /FlateDecode /Length1 ${subset.length1}`, subset.fontFile, `font:${subset.key}`);
  w.stream(toUni, '/Filter /FlateDecode', cachedToUnicode(cmap));
  return type0;
}

/** Writes an image XObject (and its soft mask) and returns its object id. */
/** `colourSpace`: in place of the image's own device colour space (a CMYK profile in PDF/A). */
export function writeImage(w: PdfWriter, img: PdfImage, colourSpace?: string): number {
  const id = w.alloc();
  let smaskRef = '';
  if (img.smask) {
    const sm = w.alloc();
    w.stream(sm, `/Type /XObject ${img.smask.dict}`, img.smask.data, `smask:${img.hash}`);
    smaskRef = ` /SMask ${sm} 0 R`;
  }
  const dict = colourSpace ? img.dict.replace(/\/ColorSpace \/Device\w+/, `/ColorSpace ${colourSpace}`) : img.dict;
  w.stream(id, `/Type /XObject ${dict}${smaskRef}`, img.data, `image:${img.hash}${colourSpace ?? ''}`);
  return id;
}
