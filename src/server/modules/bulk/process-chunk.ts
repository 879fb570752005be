import { randomUUID } from 'node:crypto';
import { batchDocumentName } from '../../../contract/bulk.ts';
import { DEFAULT_CLIENT_NAME, clientNameOf } from '../../../contract/documents.ts';
import type { TRenderableFormat } from '../../../contract/format-content.ts';
import type { TBulkChunkPayload } from '../../jobs/bulk-chunk.job.ts';
import { expansionChecker } from '../pdf/index.ts';
import type { TBulkServiceDeps } from './bulk-deps.ts';
import { finishIfDone } from './finish-job.ts';

/** Renders the chunks of running batches, as the queue hands them to this process. */
export function createChunkProcessor(deps: TBulkServiceDeps) {
  const quota = (ownerId: string) => deps.quota.generations(ownerId);

  // A job's chunks all render one snapshot with its images: loaded once per job, not per chunk.
  const renderInputCache = new Map<string, Promise<{ format: TRenderableFormat; assets: Record<string, Uint8Array> }>>();
  function renderInputs(ownerId: string, snapshotId: string) {
    const key = `${ownerId}:${snapshotId}`;
    let entry = renderInputCache.get(key);
    if (!entry) {
      entry = (async () => {
        const snapshot = await deps.bulk.snapshotOf(ownerId, snapshotId);
        if (!snapshot) throw new Error(`snapshot ${snapshotId} is missing`);
        return {
          format: { content: snapshot.content, placeholders: snapshot.placeholders },
          assets: await deps.assets.forRender(ownerId, snapshot.content),
        };
      })();
      entry.catch(() => renderInputCache.delete(key));
      renderInputCache.set(key, entry);
      // A few recent jobs are plenty; the oldest goes first.
      if (renderInputCache.size > 8) renderInputCache.delete(renderInputCache.keys().next().value as string);
    }
    return entry;
  }

  return {
    /** Renders and stores one chunk of a running job. Safe to run twice for the same chunk. */
    async processChunk(payload: TBulkChunkPayload): Promise<void> {
      const { ownerId, jobId } = payload;
      const timings: Record<string, number> = {};
      let mark = performance.now();
      const lap = (name: string) => {
        const now = performance.now();
        timings[name] = Math.round(now - mark);
        mark = now;
      };
      const job = await deps.bulk.get(ownerId, jobId);
      if (!job || !job.snapshotId || (job.status !== 'queued' && job.status !== 'running')) return;
      if (job.status === 'queued') await deps.bulk.markRunning(ownerId, jobId);
      const rows = await deps.bulk.pendingRows(ownerId, jobId, payload.fromSeq, payload.toSeq);
      if (rows.length > 0) {
        const { format, assets } = await renderInputs(ownerId, job.snapshotId);
        const pool = await deps.pool();
        const createdAt = new Date();
        const shas: (string | undefined)[] = new Array(rows.length);
        const failures: { row: number; message: string }[] = [];
        const documentIds = rows.map(() => randomUUID());
        // A row whose values would make a document too large to lay out is a row error, found
        // before any rendering, like a missing required value.
        const renderable: number[] = [];
        const tooLarge = expansionChecker(format);
        rows.forEach((r, i) => {
          const problem = tooLarge(r.data);
          if (problem) failures.push({ row: r.row, message: problem });
          else renderable.push(i);
        });
        // Named as the format's version says: its pattern, else the format and the row's subject.
        const naming = { name: job.formatName, documentNamePattern: format.content.documentNamePattern, placeholders: format.placeholders };
        const nameOf = (row: number, data: Readonly<Record<string, unknown>>) => batchDocumentName(naming, row, data, createdAt.toISOString().slice(0, 10));
        const items = renderable.map((i) => ({
          data: rows[i]!.data,
          title: nameOf(rows[i]!.row, rows[i]!.data),
          creationDate: createdAt.getTime(),
        }));
        const packPath = items.length > 0 ? await deps.spool.prepare(jobId, documentIds[0]!).catch(() => undefined) : undefined;
        const spool = packPath ? { spool: { packPath, documentIds: renderable.map((i) => documentIds[i]!) } } : {};
        lap('loadMs');
        try {
          const result = items.length > 0 ? await pool.render({ format, assets, items, returnBytes: false, ...spool }) : { sha256: [] };
          result.sha256.forEach((sha, k) => (shas[renderable[k]!] = sha));
        } catch (error) {
          // One bad row must not sink its neighbours: render them one by one to find it.
          deps.log.error({ err: error, jobId }, 'bulk chunk render failed; retrying row by row');
          for (const [k, item] of items.entries()) {
            const i = renderable[k]!;
            try {
              shas[i] = (await pool.render({ format, assets, items: [item], returnBytes: false })).sha256[0];
            } catch {
              failures.push({ row: rows[i]!.row, message: 'The document could not be rendered.' });
            }
          }
        }
        lap('renderMs');
        const { limit } = await quota(ownerId);
        const outcome = await deps.bulk.commitChunk({
          ownerId,
          jobId,
          limit,
          createdAt,
          failures,
          documents: rows.flatMap((r, i) => {
            const sha = shas[i];
            if (!sha) return [];
            const name = nameOf(r.row, r.data);
            return [
              {
                id: documentIds[i]!,
                row: r.row,
                name,
                clientName: clientNameOf(r.data) ?? DEFAULT_CLIENT_NAME,
                data: r.data,
                pdfSha256: sha,
              },
            ];
          }),
        });
        lap('commitMs');
        timings.made = outcome.madeRows.length;
      }
      if (rows.length > 0) deps.log.info({ jobId, fromSeq: payload.fromSeq, rows: rows.length, ...timings }, 'bulk chunk done');
      await finishIfDone(deps, ownerId, jobId);
    },
  };
}
