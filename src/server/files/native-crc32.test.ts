import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import crc32 from 'crc-32';
import { expect, it } from 'vitest';
import { javascriptCrc32Buf, nativeCrc32Buf, useNativeCrc32 } from './native-crc32.ts';

it('gives the same checksum as the JavaScript crc-32, whole or chained over pieces', () => {
  for (const size of [0, 1, 7, 64, 1000, 70_001]) {
    const data = randomBytes(size);
    expect(nativeCrc32Buf(data)).toBe(javascriptCrc32Buf(data));
    const seed = javascriptCrc32Buf(randomBytes(13));
    expect(nativeCrc32Buf(data, seed)).toBe(javascriptCrc32Buf(data, seed));
    const half = Math.floor(size / 2);
    expect(nativeCrc32Buf(data.subarray(half), nativeCrc32Buf(data.subarray(0, half)))).toBe(javascriptCrc32Buf(data));
  }
  expect(nativeCrc32Buf(new Uint8Array([0x31, 0x32, 0x33]))).toBe(javascriptCrc32Buf([0x31, 0x32, 0x33]));
  expect(nativeCrc32Buf([0x31, 0x32, 0x33])).toBe(javascriptCrc32Buf([0x31, 0x32, 0x33]));
  // The well-known check value of CRC-32 for "123456789", as crc-32's signed result.
  expect(nativeCrc32Buf(Buffer.from('123456789')) >>> 0).toBe(0xcbf43926);
});

it('replaces the function in the copy of crc-32 that the ZIP writer loads', () => {
  useNativeCrc32();
  // archiver -> zip-stream -> compress-commons -> crc-32, each resolved from the one before, as
  // Node resolves them; a second, nested copy of crc-32 would leave the ZIP writer unpatched.
  let from = createRequire(import.meta.url);
  for (const name of ['archiver', 'zip-stream', 'compress-commons']) from = createRequire(from.resolve(`${name}/package.json`));
  const zipWritersCrc32 = from('crc-32') as typeof crc32;
  expect(zipWritersCrc32.buf).toBe(nativeCrc32Buf);
});
