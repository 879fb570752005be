import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { createZipWriter } from '../../files/zip-writer.ts';
import { ensureQueue } from '../../jobs/queue.ts';
import { writeArchive } from './export-archive.ts';
import { ACCOUNT_EXPORT_LIMITS, ACCOUNT_EXPORT_QUEUE, DAY_MS, type TExportContext } from './export-context.ts';

const ZExportPayload = z.object({ ownerId: z.string().min(1), exportId: z.string().min(1) });

/** Takes background exports in this process (from the first one asked for, or a look at the status). */
export function startWorking(ctx: TExportContext): Promise<void> {
  const { deps, state } = ctx;
  return (state.working ??= (async () => {
    await deps.queue.start();
    await ensureQueue(deps.queue, ACCOUNT_EXPORT_QUEUE);
    await deps.queue.boss.work<z.infer<typeof ZExportPayload>>(ACCOUNT_EXPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await build(ctx, ZExportPayload.parse(job.data));
    });
  })().catch((error: unknown) => {
    state.working = undefined;
    throw error;
  }));
}

async function build(ctx: TExportContext, { ownerId, exportId }: z.infer<typeof ZExportPayload>): Promise<void> {
  const { deps, now, fileOf } = ctx;
  const row = await deps.data.getExport(ownerId, exportId);
  if (!row || row.status !== 'running') return;
  await mkdir(deps.dir, { recursive: true });
  const partial = path.join(deps.dir, `${exportId}.${randomUUID()}.part`);
  const zip = createZipWriter({ stallMs: 10 * 60_000 });
  const written = pipeline(zip.stream, createWriteStream(partial));
  written.catch(() => undefined);
  try {
    const complete = await writeArchive(ctx, ownerId, zip, (done) => deps.data.exportProgress(ownerId, exportId, done));
    await written;
    if (!complete) throw new Error('the export file stopped taking bytes');
    await rename(partial, fileOf(exportId));
    const { size } = await stat(fileOf(exportId));
    const expiresAt = new Date(now().getTime() + ACCOUNT_EXPORT_LIMITS.linkDays * DAY_MS);
    await deps.data.finishExport(ownerId, exportId, { status: 'ready', bytes: size, expiresAt });
    await deps
      .notify(ownerId, {
        subject: 'Your Formwork data export is ready',
        text: [
          'Hello,',
          '',
          'The export of your Formwork data you asked for is ready. Download it while signed in:',
          '',
          `${deps.publicUrl}/api/user/exports/${exportId}/download`,
          '',
          `It is also under Settings → Profile → Your data. The link works for you only, until ${expiresAt.toUTCString()}.`,
          '',
          '— Formwork',
        ].join('\n'),
      })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not send the export notice'));
  } catch (error) {
    zip.fail(error as Error);
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    deps.log.error({ err: error, exportId }, 'account export failed');
    await deps.data.finishExport(ownerId, exportId, { status: 'failed' });
  }
}

/** Removes the files of background exports past their date (at most hourly). */
export async function sweepExpired(ctx: TExportContext): Promise<void> {
  if (Date.now() - ctx.state.lastSweep < 60 * 60_000) return;
  ctx.state.lastSweep = Date.now();
  for (const row of await ctx.deps.data.expiredExports(ctx.now())) await rm(ctx.fileOf(row.id), { force: true });
}
