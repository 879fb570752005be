/**
 * Generates the reference PNG in code (no opaque binary in the repo): an RGBA gradient with a
 * varying alpha channel and a solid disc, so decoders must handle colour + alpha (the renderer
 * has to split it into an image and an SMask, like every baseline does).
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** An RGBA PNG, `width` x `height`, deterministic. */
export function makeGradientPng(width = 240, height = 160): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  const cx = width * 0.7;
  const cy = height * 0.45;
  const r2 = (Math.min(width, height) * 0.25) ** 2;
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const o = row + 1 + x * 4;
      const inDisc = (x - cx) ** 2 + (y - cy) ** 2 < r2;
      raw[o] = inDisc ? 230 : Math.round((x / (width - 1)) * 255);
      raw[o + 1] = inDisc ? 80 : Math.round((y / (height - 1)) * 200);
      raw[o + 2] = inDisc ? 40 : 180;
      raw[o + 3] = inDisc ? 255 : Math.round(80 + (x / (width - 1)) * 175);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
