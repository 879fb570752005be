/**
 * The one ZIP writer for everything the server sends as a ZIP (a batch's PDFs, an account's
 * export): stored entries, each written as it is added, so memory stays flat however large the
 * archive and however slowly the client reads.
 *
 * Written here rather than taken from a package: at batch size (50,000 entries) archiver held
 * hundreds of MB while a client read its central directory, and yazl's time grew with the square
 * of the entries (measurements in docs/server-capacity.md, "The ZIP writer"). A batch needs only
 * the simplest form of the format: no compression (PDFs are compressed already), sizes and
 * checksums known before each entry is written, UTF-8 names, and ZIP64 records once the archive
 * passes 4 GB or 65,535 entries (a 50,000-row batch is about 4.5 GB).
 */
import { PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';

/** A ZIP download whose client reads nothing for this long is closed. */
export const ZIP_STALL_MS = 120_000;
/**
 * How far the writer may run ahead of the client, in bytes: bounds memory however slow it reads.
 * It is the stream's own buffer limit, so a write past it answers false and the next entry waits
 * for 'drain', Node's usual backpressure.
 */
const ZIP_BACKLOG_BYTES = 8 * 1024 * 1024;
/** The central directory goes out in pieces of this size, each waiting for the client like an entry. */
const DIRECTORY_PIECE_BYTES = 256 * 1024;

const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
const LOCAL_HEADER_BYTES = 30;
const DIRECTORY_RECORD_BYTES = 46;
/** The ZIP64 extra field that carries a local header's offset past 4 GB: tag, size, 8 bytes. */
const ZIP64_OFFSET_EXTRA_BYTES = 12;
const ZIP64_END_RECORD_BYTES = 56;
const ZIP64_END_LOCATOR_BYTES = 20;
const END_RECORD_BYTES = 22;
/** General purpose flag bit 11: names are UTF-8. */
const FLAG_UTF8_NAMES = 0x0800;
const VERSION_PLAIN = 20;
const VERSION_ZIP64 = 45;
/** Made on Unix (3), so the external attributes below are a file mode that unzip restores. */
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64;
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

export type TZipWriter = {
  /** What the client reads. */
  stream: Readable;
  /** Whether the reader has gone (or the archive failed): the producer should stop. */
  readonly closed: boolean;
  /** Adds one entry once the client has caught up; false when the reader has gone. */
  append(name: string, bytes: Uint8Array | string, date?: Date): Promise<boolean>;
  /**
   * Writes the central directory and ends the archive. Settles once all of it is in the stream
   * (the client may still be reading the last few KB), or once the stream has closed early (the
   * client left or stalled), which `closed` then says.
   */
  finalize(): Promise<void>;
  fail(error: Error): void;
};

/** MS-DOS time and date, in the server's local time as ZIP readers expect; the format spans 1980–2107. */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = at.getFullYear();
  if (Number.isNaN(year) || year < 1980) return { time: 0, date: (1 << 5) | 1 };
  if (year > 2107) return { time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 };
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

/** The name's bytes, refusing what would unpack outside the folder it is unpacked into. */
function entryName(name: string): Buffer {
  const parts = name.split('/');
  if (name === '' || name.startsWith('/') || name.includes('\\') || /^[a-z]:/i.test(name) || parts.includes('..') || parts.includes('')) {
    throw new Error(`Not a relative ZIP entry name: ${JSON.stringify(name)}`);
  }
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.byteLength > U16_MAX) throw new Error('A ZIP entry name is longer than 65,535 bytes.');
  return bytes;
}

type TEntry = { name: Buffer; crc: number; size: number; time: number; date: number; offset: number };

function localHeader(entry: TEntry): Buffer {
  const header = Buffer.allocUnsafe(LOCAL_HEADER_BYTES + entry.name.byteLength);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION_PLAIN, 4);
  header.writeUInt16LE(FLAG_UTF8_NAMES, 6);
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt16LE(entry.time, 10);
  header.writeUInt16LE(entry.date, 12);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.size, 18); // compressed size: stored, so the same
  header.writeUInt32LE(entry.size, 22);
  header.writeUInt16LE(entry.name.byteLength, 26);
  header.writeUInt16LE(0, 28); // no extra field
  entry.name.copy(header, LOCAL_HEADER_BYTES);
  return header;
}

function directoryRecordBytes(entry: TEntry): number {
  return DIRECTORY_RECORD_BYTES + entry.name.byteLength + (entry.offset >= U32_MAX ? ZIP64_OFFSET_EXTRA_BYTES : 0);
}

function writeDirectoryRecord(entry: TEntry, target: Buffer, at: number): void {
  const zip64 = entry.offset >= U32_MAX;
  target.writeUInt32LE(0x02014b50, at);
  target.writeUInt16LE(VERSION_MADE_BY, at + 4);
  target.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_PLAIN, at + 6);
  target.writeUInt16LE(FLAG_UTF8_NAMES, at + 8);
  target.writeUInt16LE(0, at + 10);
  target.writeUInt16LE(entry.time, at + 12);
  target.writeUInt16LE(entry.date, at + 14);
  target.writeUInt32LE(entry.crc, at + 16);
  target.writeUInt32LE(entry.size, at + 20);
  target.writeUInt32LE(entry.size, at + 24);
  target.writeUInt16LE(entry.name.byteLength, at + 28);
  target.writeUInt16LE(zip64 ? ZIP64_OFFSET_EXTRA_BYTES : 0, at + 30);
  target.writeUInt16LE(0, at + 32); // no comment
  target.writeUInt16LE(0, at + 34); // disk
  target.writeUInt16LE(0, at + 36); // internal attributes
  target.writeUInt32LE(FILE_ATTRIBUTES, at + 38);
  target.writeUInt32LE(zip64 ? U32_MAX : entry.offset, at + 42);
  entry.name.copy(target, at + DIRECTORY_RECORD_BYTES);
  if (zip64) {
    const extra = at + DIRECTORY_RECORD_BYTES + entry.name.byteLength;
    target.writeUInt16LE(0x0001, extra);
    target.writeUInt16LE(8, extra + 2);
    target.writeBigUInt64LE(BigInt(entry.offset), extra + 4);
  }
}

/** The central directory, in pieces of about DIRECTORY_PIECE_BYTES. */
function* directoryPieces(entries: readonly TEntry[]): Generator<Buffer> {
  let piece = Buffer.allocUnsafe(DIRECTORY_PIECE_BYTES);
  let used = 0;
  for (const entry of entries) {
    const bytes = directoryRecordBytes(entry);
    if (used + bytes > piece.byteLength) {
      yield piece.subarray(0, used);
      piece = Buffer.allocUnsafe(Math.max(DIRECTORY_PIECE_BYTES, bytes));
      used = 0;
    }
    writeDirectoryRecord(entry, piece, used);
    used += bytes;
  }
  if (used > 0) yield piece.subarray(0, used);
}

/** The end of central directory record, with the ZIP64 record and locator ahead of it when a count or offset does not fit. */
function endRecords(count: number, directoryOffset: number, directorySize: number): Buffer {
  // 0xFFFF itself means "see the ZIP64 record" to readers, so 65,535 entries need one too.
  const zip64 = count >= U16_MAX || directoryOffset >= U32_MAX || directorySize >= U32_MAX;
  const end = Buffer.alloc((zip64 ? ZIP64_END_RECORD_BYTES + ZIP64_END_LOCATOR_BYTES : 0) + END_RECORD_BYTES);
  let at = 0;
  if (zip64) {
    const zip64EndOffset = directoryOffset + directorySize;
    end.writeUInt32LE(0x06064b50, 0);
    end.writeBigUInt64LE(BigInt(ZIP64_END_RECORD_BYTES - 12), 4); // the size of what follows this field
    end.writeUInt16LE(VERSION_MADE_BY, 12);
    end.writeUInt16LE(VERSION_ZIP64, 14);
    // Disk numbers (16, 20) stay 0.
    end.writeBigUInt64LE(BigInt(count), 24);
    end.writeBigUInt64LE(BigInt(count), 32);
    end.writeBigUInt64LE(BigInt(directorySize), 40);
    end.writeBigUInt64LE(BigInt(directoryOffset), 48);
    at = ZIP64_END_RECORD_BYTES;
    end.writeUInt32LE(0x07064b50, at);
    end.writeBigUInt64LE(BigInt(zip64EndOffset), at + 8);
    end.writeUInt32LE(1, at + 16); // one disk
    at += ZIP64_END_LOCATOR_BYTES;
  }
  end.writeUInt32LE(0x06054b50, at);
  end.writeUInt16LE(zip64 ? U16_MAX : count, at + 8);
  end.writeUInt16LE(zip64 ? U16_MAX : count, at + 10);
  end.writeUInt32LE(zip64 ? U32_MAX : directorySize, at + 12);
  end.writeUInt32LE(zip64 ? U32_MAX : directoryOffset, at + 16);
  return end;
}

export function createZipWriter(opts: { stallMs?: number } = {}): TZipWriter {
  const stallMs = opts.stallMs ?? ZIP_STALL_MS;
  const out = new PassThrough({ writableHighWaterMark: ZIP_BACKLOG_BYTES });
  const entries: TEntry[] = [];
  /** Bytes written so far, which is where the next local header starts. */
  let written = 0;
  let finalizing = false;
  // A client that stays connected but reads nothing for stallMs is dropped, whether the writer
  // waits on it mid-way or has written everything and only buffered bytes remain. It starts with
  // the first write, so a writer made and never used leaves no timer behind.
  let watchdog: NodeJS.Timeout | undefined;
  let progressBefore: number | undefined;
  const watchStalls = () => {
    watchdog = setInterval(() => {
      const buffered = out.readableLength + out.writableLength;
      // Grows exactly when the client reads (a chunk moving between the two buffers counts twice, equally each time).
      const progress = written - buffered;
      if (buffered > 0 && progress === progressBefore) out.destroy(new Error(`the client read nothing for ${stallMs / 1000} s`));
      progressBefore = progress;
    }, stallMs);
    watchdog.unref();
  };
  out.on('close', () => clearInterval(watchdog));
  const write = (chunk: Buffer) => {
    if (!watchdog) watchStalls();
    written += chunk.byteLength;
    out.write(chunk);
  };
  const clientCaughtUp = () =>
    new Promise<void>((resolve) => {
      if (out.destroyed || !out.writableNeedDrain) return resolve();
      const settle = () => {
        out.off('drain', settle);
        out.off('close', settle);
        resolve();
      };
      out.on('drain', settle);
      out.on('close', settle);
    });

  return {
    stream: out,
    get closed() {
      return out.destroyed;
    },
    async append(name, bytes, date = new Date()) {
      await clientCaughtUp();
      // Checked after the wait, so an entry cannot land inside a central directory begun meanwhile.
      if (finalizing) throw new Error('A ZIP entry added after the archive was finalized.');
      if (out.destroyed) return false;
      const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      // Sizes past 4 GB would need ZIP64 in every header; nothing the server sends comes near.
      if (data.byteLength >= U32_MAX) throw new Error('A ZIP entry of 4 GB or more.');
      const entry: TEntry = { name: entryName(name), crc: zlib.crc32(data), size: data.byteLength, ...dosDateTime(date), offset: written };
      entries.push(entry);
      write(localHeader(entry));
      if (data.byteLength > 0) write(data);
      return true;
    },
    async finalize() {
      finalizing = true;
      const directoryOffset = written;
      for (const piece of directoryPieces(entries)) {
        await clientCaughtUp();
        if (out.destroyed) return;
        write(piece);
      }
      if (out.destroyed) return;
      // 'finish': everything is in the readable side; 'close': the client left or stalled.
      const ended = new Promise<void>((resolve) => {
        out.once('finish', resolve);
        out.once('close', resolve);
      });
      write(endRecords(entries.length, directoryOffset, written - directoryOffset));
      out.end();
      await ended;
    },
    fail(error) {
      out.destroy(error);
    },
  };
}
