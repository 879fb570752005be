import { createHash } from 'node:crypto';

/*
 * The sRGB colour profile that a PDF/A document's output intent carries, built here rather than
 * copied: ICC v4 can state sRGB's tone curve as its formula (a parametric curve) where a v2
 * profile needs a table of 1,024 points, so the whole profile is 548 bytes against the 3,024 of
 * the ICC's own sRGB2014 file (342 against 2,561 compressed), and every tagged document is 2.2 KB
 * smaller. PDF/A-2 accepts ICC profiles up to version 4.3. pdfa.test.ts checks it against the
 * ICC's profile.
 */

/** IEC 61966-2-1's linear sRGB to CIE XYZ matrix, for its D65 white (rows X, Y, Z; columns R, G, B). */
const SRGB_TO_XYZ_D65 = [
  [0.4124, 0.3576, 0.1805],
  [0.2126, 0.7152, 0.0722],
  [0.0193, 0.1192, 0.9505],
];
const D65 = [0.9505, 1, 1.089];
/** The ICC's connection space white, which a v4 display profile's colorants and white point are adapted to. */
const D50 = [0.9642, 1, 0.8249];
/** The Bradford cone response matrix, which the ICC asks for when adapting a display profile to D50. */
const BRADFORD = [
  [0.8951, 0.2664, -0.1614],
  [-0.7502, 1.7135, 0.0367],
  [0.0389, -0.0685, 1.0296],
];
/** sRGB's tone curve as ICC parametric function 3: (a·x + b)^g from d on, c·x below it. */
const SRGB_CURVE = { g: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045 };

type TMatrix = number[][];
const multiply = (m: TMatrix, n: TMatrix): TMatrix => m.map((row) => n[0]!.map((_, j) => row.reduce((sum, value, k) => sum + value * n[k]![j]!, 0)));
const applyTo = (m: TMatrix, v: number[]): number[] => m.map((row) => row.reduce((sum, value, k) => sum + value * v[k]!, 0));
function invert(m: TMatrix): TMatrix {
  const [[a, b, c], [d, e, f], [g, h, i]] = m as [[number, number, number], [number, number, number], [number, number, number]];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
}

/** The matrix that takes XYZ under D65 to XYZ under D50: the profile's `chad` tag. */
function d65ToD50(): TMatrix {
  const [fromD65, toD50] = [applyTo(BRADFORD, D65), applyTo(BRADFORD, D50)];
  const scale = fromD65.map((cone, k) => fromD65.map((_, j) => (j === k ? toD50[k]! / cone : 0)));
  return multiply(invert(BRADFORD), multiply(scale, BRADFORD));
}

/** An ICC tag's bytes: its type signature, four reserved bytes, then its body. */
function tag(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(type, 'latin1'), Buffer.alloc(4), body]);
}
function s15Fixed16(values: number[]): Buffer {
  const bytes = Buffer.alloc(4 * values.length);
  values.forEach((value, i) => bytes.writeInt32BE(Math.round(value * 65536), 4 * i));
  return bytes;
}
const xyz = (values: number[]) => tag('XYZ ', s15Fixed16(values));
/** A multiLocalizedUnicodeType with one record, in US English. */
function text(value: string): Buffer {
  const utf16 = Buffer.from(value, 'utf16le').swap16();
  const records = Buffer.alloc(20);
  records.writeUInt32BE(1, 0);
  records.writeUInt32BE(12, 4);
  records.write('enUS', 8, 'latin1');
  records.writeUInt32BE(utf16.length, 12);
  records.writeUInt32BE(28, 16);
  return tag('mluc', Buffer.concat([records, utf16]));
}
function parametricCurve(): Buffer {
  const body = Buffer.alloc(4);
  body.writeUInt16BE(3, 0);
  const { g, a, b, c, d } = SRGB_CURVE;
  return tag('para', Buffer.concat([body, s15Fixed16([g, a, b, c, d])]));
}

function buildProfile(): Uint8Array {
  const adapt = d65ToD50();
  const colorants = multiply(adapt, SRGB_TO_XYZ_D65);
  const column = (j: number) => colorants.map((row) => row[j]!);
  const curve = parametricCurve();
  // The three tone curves are one: tags may share their data.
  const tags: [string, Buffer][] = [
    ['desc', text('sRGB IEC61966-2.1')],
    ['cprt', text('No copyright, use freely')],
    ['wtpt', xyz(D50)],
    ['chad', tag('sf32', s15Fixed16(adapt.flat()))],
    ['rXYZ', xyz(column(0))],
    ['gXYZ', xyz(column(1))],
    ['bXYZ', xyz(column(2))],
    ['rTRC', curve],
    ['gTRC', curve],
    ['bTRC', curve],
  ];
  const table = Buffer.alloc(4 + 12 * tags.length);
  table.writeUInt32BE(tags.length, 0);
  const data: Buffer[] = [];
  const placed = new Map<Buffer, number>();
  let offset = 128 + table.length;
  tags.forEach(([signature, bytes], i) => {
    let at = placed.get(bytes);
    if (at === undefined) {
      at = offset;
      placed.set(bytes, at);
      // Each tag starts on a four-byte boundary, and the profile's size is a multiple of four.
      const padded = Buffer.concat([bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
      data.push(padded);
      offset += padded.length;
    }
    table.write(signature, 4 + 12 * i, 'latin1');
    table.writeUInt32BE(at, 8 + 12 * i);
    table.writeUInt32BE(bytes.length, 12 + 12 * i);
  });

  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0);
  header.writeUInt32BE(0x04300000, 8); // version 4.3
  header.write('mntrRGB XYZ ', 12, 'latin1'); // a display profile, RGB to the XYZ connection space
  // Its creation date, fixed so that documents keep their bytes: the year, month and day this was written.
  [2026, 11, 28, 0, 0, 0].forEach((part, i) => header.writeUInt16BE(part, 24 + 2 * i));
  header.write('acsp', 36, 'latin1');
  s15Fixed16(D50).copy(header, 68);
  const profile = Buffer.concat([header, table, ...data]);
  // The profile ID: the MD5 of the profile with its flags, rendering intent and ID fields zero, as they are here.
  createHash('md5').update(profile).digest().copy(profile, 84);
  return new Uint8Array(profile);
}

let profile: Uint8Array | undefined;

/** The sRGB profile (ICC v4.3, display class), built once per process. */
export function srgbProfile(): Uint8Array {
  profile ??= buildProfile();
  return profile;
}
