/**
 * The one ZIP writer for everything the server sends as a ZIP (a batch's PDFs, an account's
 * export): archiver, stored entries, written while it is read so memory stays flat however large
 * the archive and however slowly the client reads.
 */
import { PassThrough, type Readable } from 'node:stream';
import archiver from 'archiver';
import { useNativeCrc32 } from './native-crc32.ts';

/** A stored ZIP entry's local header before its name (no extra field, no data descriptor). */
const ZIP_LOCAL_HEADER_BYTES = 30;
/** A ZIP download whose client reads nothing for this long is closed. */
export const ZIP_STALL_MS = 120_000;
/** How far the writer may run ahead of the client, in bytes: bounds memory however slow it reads. */
const ZIP_BACKLOG_BYTES = 8 * 1024 * 1024;

export type TZipWriter = {
  /** What the client reads. */
  stream: Readable;
  /** Whether the reader has gone (or the archive failed): the producer should stop. */
  readonly closed: boolean;
  /** Adds one entry once the client has caught up; false when the reader has gone. */
  append(name: string, bytes: Uint8Array | string, date?: Date): Promise<boolean>;
  finalize(): Promise<void>;
  fail(error: Error): void;
};

export function createZipWriter(opts: { stallMs?: number } = {}): TZipWriter {
  const stallMs = opts.stallMs ?? ZIP_STALL_MS;
  // PDFs are compressed already: stored entries cost no CPU and lose nothing.
  useNativeCrc32();
  const archive = archiver('zip', { store: true });
  const out = new PassThrough();
  archive.on('error', (error) => out.destroy(error));
  archive.pipe(out);
  // archiver takes every appended buffer at once and keeps its output until the client reads
  // it (its 'entry' event does not wait for that). So the bytes appended (each with its local
  // header) but not yet passed on are counted, and the next entry waits while the client is more
  // than ZIP_BACKLOG_BYTES behind.
  let appendedBytes = 0;
  let sentBytes = 0;
  let wake: (() => void) | undefined;
  const progress = () => wake?.();
  archive.on('data', (chunk: Buffer) => {
    sentBytes += chunk.byteLength;
    progress();
  });
  // Not out's 'data': listening to it would start the stream before the reply pipes it.
  out.on('drain', progress);
  out.on('close', progress);
  const backlog = () => appendedBytes - sentBytes + out.readableLength + out.writableLength;
  const clientCaughtUp = async () => {
    while (!out.destroyed && backlog() > ZIP_BACKLOG_BYTES) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  };
  // A client that stays connected but reads nothing for stallMs is dropped, whether the writer
  // waits on it mid-way or has appended everything and only buffered bytes remain.
  let seen = '';
  const watchdog = setInterval(() => {
    const buffered = archive.readableLength + out.readableLength + out.writableLength;
    const now = `${sentBytes}/${buffered}`;
    if (buffered > 0 && now === seen) out.destroy(new Error(`the client read nothing for ${stallMs / 1000} s`));
    seen = now;
  }, stallMs);
  watchdog.unref();
  out.on('close', () => clearInterval(watchdog));

  return {
    stream: out,
    get closed() {
      return out.destroyed;
    },
    async append(name, bytes, date) {
      await clientCaughtUp();
      if (out.destroyed) return false;
      const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      archive.append(data, { name, ...(date ? { date } : {}) });
      appendedBytes += ZIP_LOCAL_HEADER_BYTES + Buffer.byteLength(name) + data.byteLength;
      return true;
    },
    async finalize() {
      if (!out.destroyed) await archive.finalize();
    },
    fail(error) {
      out.destroy(error);
    },
  };
}
