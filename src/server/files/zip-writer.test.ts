import { randomBytes } from 'node:crypto';
import { type PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';
import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { createZipWriter } from './zip-writer.ts';

type TUnzipped = { name: string; bytes: Buffer | undefined; modified: Date; stored: boolean; offset: number; zip64Extra: boolean };

/**
 * Every entry as yauzl (a reader written by others) finds it, with sizes checked by yauzl and each
 * read entry's checksum checked here. `read` picks the entries whose contents are read.
 */
function unzip(source: Buffer | { reader: yauzl.RandomAccessReader; size: number }, read: (name: string) => boolean = () => true): Promise<TUnzipped[]> {
  const options: yauzl.Options = { lazyEntries: true, validateEntrySizes: true };
  return new Promise((resolve, reject) => {
    const opened = (error: Error | null, zip: yauzl.ZipFile) => {
      if (error) return reject(error);
      const entries: TUnzipped[] = [];
      const found = (entry: yauzl.Entry, bytes: Buffer | undefined) => {
        entries.push({
          name: entry.fileName,
          bytes,
          modified: entry.getLastModDate(),
          stored: entry.compressionMethod === 0,
          offset: entry.relativeOffsetOfLocalHeader,
          zip64Extra: entry.extraFields.some((f) => f.id === 0x0001),
        });
        zip.readEntry();
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!read(entry.fileName)) return found(entry, undefined);
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          buffer(stream).then((data) => {
            if (zlib.crc32(data) !== entry.crc32) return reject(new Error(`${entry.fileName}: checksum ${entry.crc32} recorded, ${zlib.crc32(data)} read`));
            found(entry, data);
          }, reject);
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    };
    if (Buffer.isBuffer(source)) yauzl.fromBuffer(source, options, opened);
    else yauzl.fromRandomAccessReader(source.reader, source.size, options, opened);
  });
}

/**
 * Keeps what a stream sends as references to its chunks, so a reader can seek in an archive of
 * several GB made of one repeated buffer without the bytes ever being copied.
 */
function keepReferences(stream: Readable) {
  const chunks: { at: number; bytes: Buffer }[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    chunks.push({ at: size, bytes: chunk });
    size += chunk.byteLength;
  });
  class Kept extends yauzl.RandomAccessReader {
    override _readStreamForRange(start: number, end: number): Readable {
      const parts = chunks
        .filter((c) => c.at < end && c.at + c.bytes.byteLength > start)
        .map((c) => c.bytes.subarray(Math.max(0, start - c.at), Math.min(c.bytes.byteLength, end - c.at)));
      return Readable.from(parts);
    }
  }
  return { ended: finished(stream), size: () => size, reader: new Kept() };
}

const settledWithin = async (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('the ZIP writer', () => {
  it('writes stored entries that read back byte for byte, with their names and dates', async () => {
    const zip = createZipWriter();
    const whole = buffer(zip.stream);
    const pdf = randomBytes(300_000);
    const date = new Date(2026, 10, 27, 9, 30, 12);
    expect(await zip.append('Offer for Zoë Ørsted.pdf', pdf, date)).toBe(true);
    expect(await zip.append('account/profile.json', '{"name":"Zoë"}\n')).toBe(true);
    expect(await zip.append('empty.txt', new Uint8Array(0))).toBe(true);
    await zip.finalize();

    const entries = await unzip(await whole);
    expect(entries.map((e) => e.name)).toEqual(['Offer for Zoë Ørsted.pdf', 'account/profile.json', 'empty.txt']);
    expect(entries[0]!.bytes!.equals(pdf)).toBe(true);
    expect(entries[1]!.bytes!.toString('utf8')).toBe('{"name":"Zoë"}\n');
    expect(entries[2]!.bytes!.byteLength).toBe(0);
    expect(entries.every((e) => e.stored)).toBe(true);
    // ZIP times are local and to two seconds.
    expect(entries[0]!.modified.getTime()).toBe(new Date(2026, 10, 27, 9, 30, 12).getTime());
  });

  it('keeps a part of a larger buffer as that part only', async () => {
    const zip = createZipWriter();
    const whole = buffer(zip.stream);
    const backing = Buffer.from('headPAYLOADtail');
    await zip.append('part.bin', backing.subarray(4, 11));
    await zip.finalize();
    expect((await unzip(await whole))[0]!.bytes!.toString()).toBe('PAYLOAD');
  });

  it('holds the next entry back while the client is behind, and goes on as it reads', async () => {
    const zip = createZipWriter();
    const reader = zip.stream;
    const chunk = randomBytes(3 * 1024 * 1024);
    // Nobody reads yet: the first few are taken, then the writer waits on the client.
    const appended: boolean[] = [];
    let waiting: Promise<boolean> | undefined;
    for (let i = 0; i < 10; i++) {
      const next = zip.append(`part ${i}.bin`, chunk);
      if (!(await settledWithin(next, 200))) {
        waiting = next;
        break;
      }
      appended.push(await next);
    }
    expect(waiting).toBeDefined();
    expect(appended.length).toBeGreaterThan(0);
    expect(appended.length).toBeLessThan(6);
    // Reading lets it go on, and every entry arrives.
    const whole = buffer(reader);
    expect(await waiting).toBe(true);
    await zip.finalize();
    expect(await unzip(await whole)).toHaveLength(appended.length + 1);
  });

  it('ends with a readable central directory for more entries than a plain ZIP can count', async () => {
    const zip = createZipWriter();
    const whole = buffer(zip.stream);
    // Past 65,535 entries the count needs the ZIP64 end records.
    const count = 66_000;
    for (let i = 0; i < count; i++) await zip.append(`n/${i}.txt`, String(i));
    await zip.finalize();
    const entries = await unzip(await whole);
    expect(entries).toHaveLength(count);
    expect(entries[count - 1]).toMatchObject({ name: `n/${count - 1}.txt` });
    expect(entries[count - 1]!.bytes!.toString()).toBe(String(count - 1));
  }, 60_000);

  it('records offsets from 4 GB on in ZIP64 fields that another reader follows', async () => {
    const zip = createZipWriter();
    const kept = keepReferences(zip.stream);
    // 1 MB blocks with names of one length, so a filler can put the next entry at exactly
    // 0xFFFFFFFF, the first offset the 4-byte field cannot hold (it means "see ZIP64").
    const block = Buffer.alloc(1024 * 1024, 0x25);
    const blockName = (i: number) => `block ${String(i).padStart(4, '0')}.bin`;
    const blockEntryBytes = 30 + blockName(0).length + block.byteLength;
    const blocks = Math.floor(0xffffffff / blockEntryBytes);
    for (let i = 0; i < blocks; i++) await zip.append(blockName(i), block);
    const fillerName = 'filler.bin';
    await zip.append(fillerName, Buffer.alloc(0xffffffff - blocks * blockEntryBytes - 30 - fillerName.length, 0x2e));
    await zip.append('exact.txt', 'at 0xFFFFFFFF');
    await zip.append('after.txt', 'past the 4 GB mark');
    await zip.finalize();
    await kept.ended;
    expect(kept.size()).toBeGreaterThan(2 ** 32);

    const wanted = new Set(['exact.txt', 'after.txt', blockName(blocks - 1)]);
    const entries = await unzip({ reader: kept.reader, size: kept.size() }, (name) => wanted.has(name));
    expect(entries).toHaveLength(blocks + 3);
    // 0xFFFFFFFF in the 4-byte field means "see ZIP64", so that offset itself must be in the extra field.
    expect(entries[blocks + 1]).toMatchObject({ name: 'exact.txt', offset: 0xffffffff, zip64Extra: true });
    expect(entries[blocks]).toMatchObject({ name: 'filler.bin', zip64Extra: false });
    expect(entries[blocks + 1]!.bytes!.toString()).toBe('at 0xFFFFFFFF');
    expect(entries[blocks + 2]!.name).toBe('after.txt');
    expect(entries[blocks + 2]!.offset).toBeGreaterThan(2 ** 32);
    expect(entries[blocks + 2]!.bytes!.toString()).toBe('past the 4 GB mark');
    expect(entries[blocks - 1]!.bytes!.equals(block)).toBe(true);
  }, 120_000);

  it('writes the ZIP64 end records for exactly 65,535 entries, the count that means "see ZIP64"', async () => {
    const zip = createZipWriter();
    const whole = buffer(zip.stream);
    for (let i = 0; i < 0xffff; i++) await zip.append(`${i}`, '');
    await zip.finalize();
    const bytes = await whole;
    const end = bytes.byteLength - 22;
    expect(bytes.readUInt32LE(end)).toBe(0x06054b50);
    expect(bytes.readUInt16LE(end + 10)).toBe(0xffff);
    // The locator sits just before the end record and points at the ZIP64 record with the real count.
    expect(bytes.readUInt32LE(end - 20)).toBe(0x07064b50);
    const zip64End = Number(bytes.readBigUInt64LE(end - 20 + 8));
    expect(bytes.readUInt32LE(zip64End)).toBe(0x06064b50);
    expect(bytes.readBigUInt64LE(zip64End + 4)).toBe(44n);
    expect(bytes.readBigUInt64LE(zip64End + 32)).toBe(0xffffn);
    const opened = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
    expect(opened.entryCount).toBe(0xffff);
    opened.close();
  }, 60_000);

  it('sends the central directory only as fast as the client reads it', async () => {
    const zip = createZipWriter();
    const reader = zip.stream;
    const kept = keepReferences(reader);
    // 300,000 entries make a directory of about 16 MB, twice what the writer may run ahead.
    const count = 300_000;
    for (let i = 0; i < count; i++) await zip.append(`e${i}`, '');
    reader.pause();
    const finished = zip.finalize();
    expect(await settledWithin(finished, 300)).toBe(false);
    // Waiting on the client: about the backlog limit is buffered (a piece in flight counts in both
    // of the stream's buffers), not the whole directory.
    expect(reader.readableLength + (reader as PassThrough).writableLength).toBeLessThanOrEqual(8 * 1024 * 1024 + 3 * 256 * 1024);
    reader.resume();
    await finished;
    await kept.ended;
    const opened = await yauzl.fromRandomAccessReaderPromise(kept.reader, kept.size(), { lazyEntries: true });
    expect(opened.entryCount).toBe(count);
  }, 60_000);

  it('finishes when the client leaves after the whole archive is queued', async () => {
    const zip = createZipWriter();
    zip.stream.on('error', () => undefined);
    // More than the stream's reading side holds, less than the writer may run ahead: nothing waits
    // until the end, which waits for a reader that never comes.
    await zip.append('one.bin', randomBytes(1024 * 1024));
    const finished = zip.finalize();
    expect(await settledWithin(finished, 200)).toBe(false);
    zip.stream.destroy();
    expect(await settledWithin(finished, 1000)).toBe(true);
    expect(zip.closed).toBe(true);
  });

  it('refuses names that would unpack outside the folder, and entries after the end', async () => {
    for (const name of ['', '/etc/passwd', '../up.txt', 'a/../../up.txt', 'a\\b.txt', 'C:/x.txt', 'c:x.txt', 'a//b.txt', 'folder/']) {
      const zip = createZipWriter();
      await expect(zip.append(name, 'x'), name).rejects.toThrow('Not a relative ZIP entry name');
    }
    const zip = createZipWriter();
    const whole = buffer(zip.stream);
    await zip.append('dots..in..name.txt', 'fine');
    await zip.finalize();
    await expect(zip.append('late.txt', 'x')).rejects.toThrow('after the archive was finalized');
    expect((await unzip(await whole)).map((e) => e.name)).toEqual(['dots..in..name.txt']);
  });

  it('tells the producer to stop once the client has gone, and finishes at once', async () => {
    const zip = createZipWriter();
    await zip.append('first.bin', randomBytes(1000));
    zip.stream.destroy();
    expect(await zip.append('second.bin', randomBytes(1000))).toBe(false);
    expect(zip.closed).toBe(true);
    expect(await settledWithin(zip.finalize(), 1000)).toBe(true);
  });

  it('finishes when the client stops reading before the end and is dropped', async () => {
    const zip = createZipWriter();
    const failure = new Promise<Error>((resolve) => zip.stream.once('error', resolve));
    await zip.append('big.bin', randomBytes(12 * 1024 * 1024));
    const finished = zip.finalize();
    expect(await settledWithin(finished, 200)).toBe(false);
    zip.fail(new Error('the client read nothing'));
    expect(await settledWithin(finished, 1000)).toBe(true);
    expect((await failure).message).toBe('the client read nothing');
    expect(zip.closed).toBe(true);
  });
});
