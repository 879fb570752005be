/**
 * PDFs of single documents, kept so a document downloaded is read instead of rendered again. A
 * cache, never the record: every read is checked against the SHA-256 stored with the document,
 * and a miss (another process or machine made it, it was swept or forgotten, the disk was wiped)
 * is rendered again from the snapshot, which gives the same bytes.
 *
 * Two tiers. The process keeps the PDFs it made last in memory, which serves the download that
 * follows a generation. On disk go the PDFs that are costly to make again (`isCostlyToMakeAgain`)
 * and those made again for a download: a file for every document cost the render threads more CPU
 * than rendering a small one again does (docs/server-capacity.md, "The PDF cache").
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createBoundedLru } from './bounded-lru.ts';
import { removeOlderThan } from './sweep-dir.ts';

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * A render that took longer than this (its thread's wall time, which load only lengthens) is kept
 * on disk. A one-page document renders in about 1.5 ms; a file costs about half that again in the
 * kernel on some file systems, and most documents are downloaded once, right after they are made.
 */
export const COSTLY_RENDER_MS = 20;

/** The largest PDF the memory tier keeps; a larger one is kept on disk instead. */
export const MEMORY_ENTRY_MAX_BYTES = 256 * 1024;

const MEMORY_LIMITS = { maxEntries: 4096, maxSize: 32 * 1024 * 1024 };

/** Whether a PDF that took `renderMs` to make is worth a file of its own. */
export const isCostlyToMakeAgain = (renderMs: number, pdf: Uint8Array, costlyRenderMs = COSTLY_RENDER_MS) =>
  renderMs >= costlyRenderMs || pdf.byteLength > MEMORY_ENTRY_MAX_BYTES;

/**
 * Writes a cache file from any thread (a render thread writes the costly PDFs it makes itself):
 * under a temporary name, then renamed whole.
 */
export function writeCacheFileSync(file: string, pdf: Uint8Array): void {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temporary, pdf);
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written only costs a render on the next download.
    rmSync(temporary, { force: true });
  }
}

export type TPdfCache = {
  /** Where a document's PDF is kept on disk; a render thread writes it there with writeCacheFileSync when `isCostlyToMakeAgain`. */
  fileOf(documentId: string): string;
  /** The cached bytes when they hash to `sha256`, else undefined. */
  get(documentId: string, sha256: string): Promise<Uint8Array | undefined>;
  /** Keeps a PDF just made in memory (and nowhere else), under the hash it was made with. */
  remember(documentId: string, pdf: Uint8Array, sha256: string): void;
  /** Keeps a PDF made again for a download in memory and on disk: it was asked for after it had been forgotten, and may be again. */
  put(documentId: string, pdf: Uint8Array, sha256: string): Promise<void>;
  delete(documentId: string): Promise<void>;
  /** Removes entries not written for maxAgeMs; answers how many. */
  sweep(maxAgeMs: number): Promise<number>;
};

export function createPdfCache(dir: string): TPdfCache {
  const fileOf = (documentId: string) => {
    if (!SAFE_ID.test(documentId)) throw new Error(`unexpected document id ${JSON.stringify(documentId)}`);
    // Two levels keep directories small for instances with millions of documents.
    return path.join(dir, documentId.slice(0, 2), `${documentId}.pdf`);
  };
  const recent = createBoundedLru<string, { pdf: Uint8Array; sha256: string }>(MEMORY_LIMITS);
  const remember = (documentId: string, pdf: Uint8Array, sha256: string) => {
    if (pdf.byteLength > MEMORY_ENTRY_MAX_BYTES) return;
    // A view of a larger buffer would keep all of it (a small Buffer is a slice of a shared pool).
    const own = pdf.byteLength === pdf.buffer.byteLength ? pdf : new Uint8Array(pdf);
    // Readers get these very bytes; none of them writes to or transfers what it is given.
    recent.set(documentId, { pdf: own, sha256 }, own.byteLength);
  };
  return {
    fileOf,
    async get(documentId, sha256) {
      const kept = recent.get(documentId);
      if (kept?.sha256 === sha256) return kept.pdf;
      try {
        const bytes = await readFile(fileOf(documentId));
        return createHash('sha256').update(bytes).digest('hex') === sha256 ? bytes : undefined;
      } catch {
        return undefined;
      }
    },
    remember,
    async put(documentId, pdf, sha256) {
      remember(documentId, pdf, sha256);
      const file = fileOf(documentId);
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(temporary, pdf);
        await rename(temporary, file);
      } catch {
        // A cache that cannot be written only costs a render on the next download.
        await rm(temporary, { force: true }).catch(() => {});
      }
    },
    async delete(documentId) {
      recent.delete(documentId);
      await rm(fileOf(documentId), { force: true }).catch(() => {});
    },
    async sweep(maxAgeMs) {
      let shards: string[] = [];
      try {
        shards = await readdir(dir);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const shard of shards) removed += await removeOlderThan(path.join(dir, shard), maxAgeMs);
      return removed;
    },
  };
}
