/**
 * PDFs of single documents, kept on local disk so a document downloaded again is read instead of
 * rendered again. A cache, never the record: every read is checked against the SHA-256 stored
 * with the document, and a miss (another machine made it, it was swept, the disk was wiped) is
 * rendered again from the snapshot, which gives the same bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { removeOlderThan } from './sweep-dir.ts';

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Writes a cache entry from any thread (the render threads write the PDFs they make themselves,
 * so the event loop never touches those bytes): under a temporary name, then renamed whole.
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
  /** Where a document's PDF is kept; a render thread may write it there with writeCacheFileSync. */
  fileOf(documentId: string): string;
  /** The cached bytes when they hash to `sha256`, else undefined. */
  get(documentId: string, sha256: string): Promise<Uint8Array | undefined>;
  put(documentId: string, pdf: Uint8Array): Promise<void>;
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
  return {
    fileOf,
    async get(documentId, sha256) {
      try {
        const bytes = await readFile(fileOf(documentId));
        return createHash('sha256').update(bytes).digest('hex') === sha256 ? bytes : undefined;
      } catch {
        return undefined;
      }
    },
    async put(documentId, pdf) {
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
