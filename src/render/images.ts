import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';

/*
 * Images become PDF image XObjects. Opaque, non-interlaced PNGs pass their compressed data
 * straight through (PDF understands PNG predictors) and JPEGs pass through as DCTDecode; only
 * PNGs with transparency or interlacing are decoded. Results are cached by content, so a
 * letterhead logo used on every document is prepared once per process.
 */

export interface PdfImage {
  width: number;
  height: number;
  /** Dictionary entries of the image stream, without /Length, /SMask or /Type. */
  dict: string;
  data: Uint8Array;
  smask: { dict: string; data: Uint8Array } | null;
  /** Stable id for the document's resource name and dedupe. */
  hash: string;
}

function be32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function isPng(b: Uint8Array): boolean {
  return b.length > 33 && PNG_SIG.every((v, i) => b[i] === v);
}

function isJpeg(b: Uint8Array): boolean {
  return b.length > 4 && b[0] === 0xff && b[1] === 0xd8;
}

function pngImage(bytes: Uint8Array, hash: string): PdfImage {
  const width = be32(bytes, 16);
  const height = be32(bytes, 20);
  const bitDepth = bytes[24]!;
  const colorType = bytes[25]!;
  const interlace = bytes[28]!;
  if (width === 0 || height === 0 || width > 20_000 || height > 20_000) throw new Error('bad PNG size');
  let hasTrns = false;
  let palette: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const len = be32(bytes, at);
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
    const body = bytes.subarray(at + 8, at + 8 + len);
    if (type === 'IDAT') idat.push(body);
    else if (type === 'tRNS') hasTrns = true;
    else if (type === 'PLTE') palette = body;
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  if (idat.length === 0) throw new Error('PNG without image data');

  const opaque = (colorType === 0 || colorType === 2 || colorType === 3) && !hasTrns;
  if (opaque && interlace === 0 && (colorType !== 3 || palette)) {
    const colors = colorType === 2 ? 3 : 1;
    let cs = colorType === 2 ? '/DeviceRGB' : '/DeviceGray';
    if (colorType === 3 && palette) {
      cs = `[/Indexed /DeviceRGB ${palette.length / 3 - 1} <${Buffer.from(palette).toString('hex')}>]`;
    }
    const data = Buffer.concat(idat);
    // Validate now: a corrupt stream must become the empty box, not a broken PDF.
    inflateSync(data);
    return {
      width,
      height,
      dict: `/Subtype /Image /Width ${width} /Height ${height} /ColorSpace ${cs} /BitsPerComponent ${bitDepth} /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors ${colors} /BitsPerComponent ${bitDepth} /Columns ${width} >>`,
      data,
      smask: null,
      hash,
    };
  }

  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const px = png.data;
  const n = width * height;
  const rgb = Buffer.allocUnsafe(n * 3);
  const alpha = Buffer.allocUnsafe(n);
  let translucent = false;
  for (let i = 0, j = 0; i < n; i++, j += 4) {
    rgb[i * 3] = px[j]!;
    rgb[i * 3 + 1] = px[j + 1]!;
    rgb[i * 3 + 2] = px[j + 2]!;
    alpha[i] = px[j + 3]!;
    if (px[j + 3] !== 255) translucent = true;
  }
  return {
    width,
    height,
    dict: `/Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`,
    data: deflateSync(rgb),
    smask: translucent
      ? {
          dict: `/Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
          data: deflateSync(alpha),
        }
      : null,
    hash,
  };
}

function jpegImage(bytes: Uint8Array, hash: string): PdfImage {
  for (let at = 2; at + 9 < bytes.length;) {
    if (bytes[at] !== 0xff) throw new Error('bad JPEG marker');
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const len = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const bpc = bytes[at + 4]!;
      const height = (bytes[at + 5]! << 8) | bytes[at + 6]!;
      const width = (bytes[at + 7]! << 8) | bytes[at + 8]!;
      const comps = bytes[at + 9]!;
      if (width === 0 || height === 0) throw new Error('bad JPEG size');
      const cs = comps === 1 ? '/DeviceGray' : comps === 4 ? '/DeviceCMYK' : '/DeviceRGB';
      // Adobe writes CMYK JPEGs inverted; this is what every viewer expects.
      const decode = comps === 4 ? ' /Decode [1 0 1 0 1 0 1 0]' : '';
      return {
        width,
        height,
        dict: `/Subtype /Image /Width ${width} /Height ${height} /ColorSpace ${cs} /BitsPerComponent ${bpc} /Filter /DCTDecode${decode}`,
        data: bytes,
        smask: null,
        hash,
      };
    }
    at += 2 + len;
  }
  throw new Error('JPEG without frame header');
}

const byHash = new Map<string, PdfImage | null>();
const byBuffer = new WeakMap<Uint8Array, { fingerprint: string; img: PdfImage | null }>();

/*
 * Hashing a large image for every document costs more than the rest of a page, so a buffer
 * seen before is recognised by identity. A sampled fingerprint guards against a caller that
 * reuses one buffer for different images; assets are otherwise treated as immutable.
 */
function fingerprint(b: Uint8Array): string {
  let h = b.length;
  const step = Math.max(1, Math.floor(b.length / 256));
  for (let i = 0; i < b.length; i += step) h = (Math.imul(h, 31) + b[i]!) | 0;
  for (let i = Math.max(0, b.length - 64); i < b.length; i++) h = (Math.imul(h, 31) + b[i]!) | 0;
  return `${b.length}:${h}`;
}
const HASH_CACHE_LIMIT = 64;

/** The prepared image, or null when the bytes are not a PNG or JPEG we can read. */
export function prepareImage(bytes: Uint8Array): PdfImage | null {
  const fp = fingerprint(bytes);
  const seen = byBuffer.get(bytes);
  if (seen && seen.fingerprint === fp) return seen.img;
  const hash = createHash('sha1').update(bytes).digest('hex');
  let img = byHash.get(hash);
  if (img === undefined) {
    try {
      img = isPng(bytes) ? pngImage(bytes, hash) : isJpeg(bytes) ? jpegImage(bytes, hash) : null;
    } catch {
      img = null;
    }
    if (byHash.size >= HASH_CACHE_LIMIT) byHash.delete(byHash.keys().next().value!);
    byHash.set(hash, img);
  }
  byBuffer.set(bytes, { fingerprint: fp, img });
  return img;
}
