import { createHash } from 'node:crypto';

/** What the tests read of an RGB matrix/tone-curve ICC profile (ICC.1:2010, clauses 7 and 10). */
export type TIccProfile = {
  size: number;
  version: number;
  deviceClass: string;
  colourSpace: string;
  connectionSpace: string;
  /** Whether the header's profile ID is the MD5 the specification asks for (v4; v2 has none). */
  idMatches: boolean;
  description: string;
  wtpt: number[];
  rXYZ: number[];
  gXYZ: number[];
  bXYZ: number[];
  /** The red tone curve, from 0..1 to 0..1; the green and blue ones must be the same. */
  tone: (value: number) => number;
};

const s15Fixed16 = (bytes: Buffer, at: number) => bytes.readInt32BE(at) / 65536;

function curveOf(bytes: Buffer, at: number): (value: number) => number {
  const type = bytes.toString('latin1', at, at + 4);
  if (type === 'curv') {
    const count = bytes.readUInt32BE(at + 8);
    if (count === 0) return (x) => x;
    if (count === 1) return (x) => x ** (bytes.readUInt16BE(at + 12) / 256);
    const table = Array.from({ length: count }, (_, i) => bytes.readUInt16BE(at + 12 + 2 * i) / 65535);
    return (x) => {
      const position = x * (count - 1);
      const below = Math.min(Math.floor(position), count - 2);
      return table[below]! + (table[below + 1]! - table[below]!) * (position - below);
    };
  }
  if (type === 'para') {
    const kind = bytes.readUInt16BE(at + 8);
    const [g, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = Array.from({ length: [1, 3, 4, 5, 7][kind]! }, (_, i) => s15Fixed16(bytes, at + 12 + 4 * i));
    switch (kind) {
      case 0:
        return (x) => x ** g!;
      case 1:
        return (x) => (x >= -b / a ? (a * x + b) ** g! : 0);
      case 2:
        return (x) => (x >= -b / a ? (a * x + b) ** g! + c : c);
      case 3:
        return (x) => (x >= d ? (a * x + b) ** g! : c * x);
      case 4:
        return (x) => (x >= d ? (a * x + b) ** g! + e : c * x + f);
    }
  }
  throw new Error(`Unknown tone curve type ${type}`);
}

function textOf(bytes: Buffer, at: number, length: number): string {
  const type = bytes.toString('latin1', at, at + 4);
  if (type === 'desc') return bytes.toString('latin1', at + 12, at + 12 + bytes.readUInt32BE(at + 8) - 1);
  if (type === 'mluc') {
    const recordAt = at + 16;
    const textLength = bytes.readUInt32BE(recordAt + 4);
    const textAt = at + bytes.readUInt32BE(recordAt + 8);
    if (textAt + textLength > at + length) throw new Error('A text tag runs past its end');
    return Buffer.from(bytes.subarray(textAt, textAt + textLength))
      .swap16()
      .toString('utf16le');
  }
  throw new Error(`Unknown text type ${type}`);
}

/** Reads `bytes` as an ICC profile, throwing where its structure is broken. */
export function readIccProfile(bytes: Buffer): TIccProfile {
  const size = bytes.readUInt32BE(0);
  if (size !== bytes.length) throw new Error(`The header says ${size} bytes, the profile has ${bytes.length}`);
  if (bytes.toString('latin1', 36, 40) !== 'acsp') throw new Error('No profile file signature');
  const version = bytes[8]!;
  const tags = new Map<string, { at: number; length: number }>();
  const count = bytes.readUInt32BE(128);
  for (let i = 0; i < count; i++) {
    const entry = 132 + 12 * i;
    const at = bytes.readUInt32BE(entry + 4);
    const length = bytes.readUInt32BE(entry + 8);
    if (at % 4 !== 0 || at < 132 + 12 * count || at + length > size) throw new Error(`Tag ${i} is misplaced`);
    tags.set(bytes.toString('latin1', entry, entry + 4), { at, length });
  }
  const tagAt = (signature: string) => {
    const found = tags.get(signature);
    if (!found) throw new Error(`No ${signature} tag`);
    return found;
  };
  const xyz = (signature: string) => {
    const { at } = tagAt(signature);
    if (bytes.toString('latin1', at, at + 4) !== 'XYZ ') throw new Error(`${signature} is not an XYZ tag`);
    return [0, 1, 2].map((i) => s15Fixed16(bytes, at + 8 + 4 * i));
  };
  const zeroed = Buffer.from(bytes);
  for (const [from, to] of [
    [44, 48],
    [64, 68],
    [84, 100],
  ] as const)
    zeroed.fill(0, from, to);
  const tone = curveOf(bytes, tagAt('rTRC').at);
  for (const other of ['gTRC', 'bTRC']) {
    const curve = curveOf(bytes, tagAt(other).at);
    if ([0, 0.25, 0.5, 1].some((x) => curve(x) !== tone(x))) throw new Error(`${other} differs from rTRC`);
  }
  const description = tagAt('desc');
  tagAt('cprt');
  return {
    size,
    version,
    deviceClass: bytes.toString('latin1', 12, 16),
    colourSpace: bytes.toString('latin1', 16, 20),
    connectionSpace: bytes.toString('latin1', 20, 24),
    idMatches: createHash('md5').update(zeroed).digest().equals(bytes.subarray(84, 100)),
    description: textOf(bytes, description.at, description.length),
    wtpt: xyz('wtpt'),
    rXYZ: xyz('rXYZ'),
    gXYZ: xyz('gXYZ'),
    bXYZ: xyz('bXYZ'),
    tone,
  };
}
