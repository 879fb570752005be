import type { Readable } from 'node:stream';
import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import type { TBulkJob } from '../../../contract/bulk.ts';
import type { TRenderableFormat } from '../../../contract/format-content.ts';
import { MAX_MERGED_DOCUMENTS } from '../../../render/index.ts';
import { createZipWriter, ZIP_STALL_MS } from '../../files/zip-writer.ts';
import { AppError } from '../../http/app-error.ts';
import type { TBulkServiceDeps } from './bulk-deps.ts';
import { jobNotFound } from './bulk-job-view.ts';
import type { TBatchDocument } from './bulk.repository.ts';
import type { createBatchStatus } from './batch-status.ts';
import { uniqueNamer, zipEntryName } from './zip-names.ts';

/** Documents read from the spool (or rendered again) at a time for the ZIP. */
const ZIP_RENDER_BATCH = 16;
/** Documents read from the database per query while writing a ZIP. */
const ZIP_PAGE = 1_000;

/** A batch's documents to take away: a ZIP of its PDFs, or one merged PDF. */
export function createBatchDownloads(deps: TBulkServiceDeps, status: Pick<ReturnType<typeof createBatchStatus>, 'get'>) {
  const zipStallMs = deps.zipStallMs ?? ZIP_STALL_MS;
  return {
    /**
     * The batch's PDFs as one ZIP, written while it is sent, a few documents at a time so memory
     * stays flat: the bytes the job spooled, or a re-render from the snapshot (the same bytes).
     */
    async zip(ownerId: string, id: string, mode?: TApiKeyMode): Promise<{ job: TBulkJob; stream: Readable }> {
      const job = await status.get(ownerId, id, mode);
      const row = await deps.bulk.get(ownerId, id);
      if (!row?.snapshotId) throw jobNotFound();
      if (job.done === 0) throw new AppError('conflict', 'This batch has no documents yet.');
      const snapshot = await deps.bulk.snapshotOf(ownerId, row.snapshotId);
      if (!snapshot) throw jobNotFound();
      const format: TRenderableFormat = { content: snapshot.content, placeholders: snapshot.placeholders };
      const assets = await deps.assets.forRender(ownerId, snapshot.content);
      const pool = await deps.pool();
      const zip = createZipWriter({ stallMs: zipStallMs });
      const name = uniqueNamer();
      const pattern = job.fileNamePattern;
      const bulk = deps.bulk;
      const spooled = await deps.spool.reader(id);
      const log = deps.log;
      let after = -1;
      let page: TBatchDocument[] = [];
      /** The next few documents and their PDFs: spooled, or rendered again where the spool has none. */
      const nextBatch = async (): Promise<{ docs: TBatchDocument[]; files: (Uint8Array | undefined)[] } | undefined> => {
        if (page.length === 0) {
          page = await bulk.batchDocuments(ownerId, id, after, ZIP_PAGE);
          if (page.length === 0) return undefined;
        }
        const docs = page.splice(0, ZIP_RENDER_BATCH);
        after = docs.at(-1)?.batchRow ?? after;
        const files: (Uint8Array | undefined)[] = await spooled.getMany(docs.map((d) => d.id));
        const missing = docs.flatMap((d, i) => (files[i] ? [] : [i]));
        if (missing.length > 0) {
          const rendered = await pool.render({
            format,
            assets,
            items: missing.map((i) => ({ data: docs[i]!.data, title: docs[i]!.name, creationDate: docs[i]!.createdAt.getTime() })),
            returnBytes: true,
          });
          missing.forEach((docIndex, k) => (files[docIndex] = rendered.bytes?.[k]));
        }
        return { docs, files };
      };
      // The next batch is read while this one goes out, so the disk and the client overlap. Its
      // failure is marked handled at once (it is awaited later, after this batch is sent).
      const prefetch = () => {
        const batch = nextBatch();
        batch.catch(() => undefined);
        return batch;
      };
      void (async () => {
        let upcoming: ReturnType<typeof nextBatch> | undefined;
        try {
          upcoming = prefetch();
          for (;;) {
            const batch = await upcoming;
            upcoming = undefined;
            if (!batch || zip.closed) break;
            const { docs, files } = batch;
            upcoming = prefetch();
            for (const [i, d] of docs.entries()) {
              const bytes = files[i];
              if (!bytes) continue;
              const entry = name(zipEntryName(pattern, { ...d.data, document: d.name, row: String(d.batchRow ?? '') }));
              if (!(await zip.append(entry, bytes, d.createdAt))) return;
            }
          }
          await zip.finalize();
        } catch (error) {
          log.error({ err: error, jobId: id }, 'bulk ZIP failed');
          zip.fail(error as Error);
        } finally {
          // A client that left mid-way leaves a read in flight; it must end before its file closes.
          await upcoming?.catch(() => undefined);
          await spooled.close().catch(() => undefined);
        }
      })();
      return { job, stream: zip.stream };
    },

    /** The batch's documents as one PDF, rendered in a pool thread with one copy of each font. */
    async mergedPdf(ownerId: string, id: string): Promise<{ job: TBulkJob; bytes: Uint8Array }> {
      const job = await status.get(ownerId, id);
      const row = await deps.bulk.get(ownerId, id);
      if (!row?.snapshotId) throw jobNotFound();
      if (job.done === 0) throw new AppError('conflict', 'This batch has no documents yet.');
      if (job.done > MAX_MERGED_DOCUMENTS) {
        throw new AppError(
          'bad_request',
          `A merged PDF holds at most ${MAX_MERGED_DOCUMENTS.toLocaleString('en-US')} documents; this batch has ${job.done.toLocaleString('en-US')}. Download the ZIP instead.`,
        );
      }
      const snapshot = await deps.bulk.snapshotOf(ownerId, row.snapshotId);
      if (!snapshot) throw jobNotFound();
      const docs = await deps.bulk.batchDocuments(ownerId, id, -1, MAX_MERGED_DOCUMENTS);
      const pool = await deps.pool();
      const rendered = await pool.render({
        format: { content: snapshot.content, placeholders: snapshot.placeholders },
        assets: await deps.assets.forRender(ownerId, snapshot.content),
        items: docs.map((d) => ({ data: d.data, title: d.name, creationDate: d.createdAt.getTime() })),
        returnBytes: true,
        merged: { title: `${job.formatName} - ${job.fileName}`, creationDate: (row.finishedAt ?? row.createdAt).getTime() },
      });
      const bytes = rendered.bytes?.[0];
      if (!bytes) throw new Error(`merged PDF of bulk job ${id} came back empty`);
      return { job, bytes };
    },
  };
}
