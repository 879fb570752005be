/**
 * PDFs a bulk job rendered, kept on local disk (named by document id) so the batch's ZIP sends
 * those bytes instead of rendering every document a second time. The render threads write them. A cache, never the record: a document the spool does
 * not have (made by a worker on another machine, swept, or the disk was wiped) is re-rendered
 * from its snapshot, which gives the same bytes.
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export type TPdfSpool = {
  /** Creates the job's folder and returns where each document's PDF goes (written by the render thread). */
  prepare(jobId: string, documentIds: readonly string[]): Promise<string[]>;
  get(jobId: string, documentId: string): Promise<Buffer | undefined>;
  /** Removes PDFs of documents that were not stored after all (a cancelled or repeated chunk). */
  discard(jobId: string, documentIds: readonly string[]): Promise<void>;
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
  const file = (jobId: string, documentId: string) => {
    if (!SAFE_ID.test(documentId)) throw new Error(`unexpected document id ${JSON.stringify(documentId)}`);
    return path.join(jobDir(jobId), `${documentId}.pdf`);
  };
  return {
    async prepare(jobId, documentIds) {
      await mkdir(jobDir(jobId), { recursive: true });
      return documentIds.map((id) => file(jobId, id));
    },
    async get(jobId, documentId) {
      try {
        return await readFile(file(jobId, documentId));
      } catch {
        return undefined;
      }
    },
    async discard(jobId, documentIds) {
      await Promise.all(documentIds.map((id) => rm(file(jobId, id), { force: true })));
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
