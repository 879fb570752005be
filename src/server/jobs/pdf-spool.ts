/**
 * PDFs a bulk job rendered, kept on local disk so the batch's ZIP sends those bytes instead of
 * rendering every document a second time. A cache, never the record: a document the spool does
 * not have (made by a worker on another machine, swept, or the disk was wiped) is re-rendered
 * from its snapshot, which gives the same bytes.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type TPdfSpool = {
  put(jobId: string, row: number, bytes: Uint8Array): Promise<void>;
  get(jobId: string, row: number): Promise<Buffer | undefined>;
  drop(jobId: string): Promise<void>;
  /** Removes spools not touched for maxAgeMs. */
  sweep(maxAgeMs: number): Promise<number>;
};

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

export function createPdfSpool(dir: string): TPdfSpool {
  const jobDir = (jobId: string) => {
    if (!SAFE_ID.test(jobId)) throw new Error(`unexpected job id ${JSON.stringify(jobId)}`);
    return path.join(dir, jobId);
  };
  const file = (jobId: string, row: number) => path.join(jobDir(jobId), `${Math.trunc(row)}.pdf`);
  return {
    async put(jobId, row, bytes) {
      await mkdir(jobDir(jobId), { recursive: true });
      const target = file(jobId, row);
      // Written whole, then renamed: a reader never sees half a file, even after a crash.
      const temp = `${target}.${process.pid}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, target);
    },
    async get(jobId, row) {
      try {
        return await readFile(file(jobId, row));
      } catch {
        return undefined;
      }
    },
    async drop(jobId) {
      await rm(jobDir(jobId), { recursive: true, force: true });
    },
    async sweep(maxAgeMs) {
      let removed = 0;
      let entries: string[] = [];
      try {
        entries = await readdir(dir);
      } catch {
        return 0;
      }
      for (const name of entries) {
        const full = path.join(dir, name);
        try {
          if (Date.now() - (await stat(full)).mtimeMs > maxAgeMs) {
            await rm(full, { recursive: true, force: true });
            removed++;
          }
        } catch {
          // Gone already; nothing to do.
        }
      }
      return removed;
    },
  };
}
