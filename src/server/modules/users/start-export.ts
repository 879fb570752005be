import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { TAccountExport } from '../../../contract/account-data.ts';
import { createZipWriter } from '../../files/zip-writer.ts';
import { AppError } from '../../http/app-error.ts';
import { writeArchive } from './export-archive.ts';
import { ACCOUNT_EXPORT_LIMITS, ACCOUNT_EXPORT_QUEUE, DAY_MS, type TExportContext } from './export-context.ts';
import { startWorking } from './export-jobs.ts';

/** One export in flight and `perDay` a day; a refusal says when the next one may start. */
async function assertMayStart({ deps, now }: TExportContext, ownerId: string): Promise<void> {
  const at = now();
  const recent = await deps.data.recentExports(ownerId, new Date(at.getTime() - DAY_MS));
  const inFlight = recent.find((r) => r.status === 'running' && at.getTime() - r.createdAt.getTime() < ACCOUNT_EXPORT_LIMITS.staleAfterMs);
  if (inFlight) {
    throw new AppError(
      'rate_limited',
      'An export of your data is being prepared already. Wait for it to finish, then download it from Settings → Profile.',
      undefined,
      {
        'retry-after': '60',
      },
    );
  }
  if (recent.length >= ACCOUNT_EXPORT_LIMITS.perDay) {
    const oldest = recent.at(-1)!;
    const seconds = Math.max(1, Math.ceil((oldest.createdAt.getTime() + DAY_MS - at.getTime()) / 1000));
    throw new AppError(
      'rate_limited',
      `You can export your data ${ACCOUNT_EXPORT_LIMITS.perDay} times in 24 hours. The next export can start in about ${Math.ceil(seconds / 3600)} hour(s).`,
      undefined,
      { 'retry-after': String(seconds) },
    );
  }
}

/**
 * Starts an export: the archive's stream at once for an account up to `backgroundAbove`
 * documents, else a background job whose record is answered.
 */
export async function startExport(
  ctx: TExportContext,
  ownerId: string,
): Promise<{ kind: 'direct'; stream: Readable; fileName: string } | { kind: 'background'; export: TAccountExport }> {
  const { deps, now, backgroundAbove, view } = ctx;
  await assertMayStart(ctx, ownerId);
  const total = await deps.data.countDocuments(ownerId);
  if (total > backgroundAbove) {
    const row = await deps.data.startExport(ownerId, 'background', total);
    await startWorking(ctx);
    await deps.queue.boss.send(ACCOUNT_EXPORT_QUEUE, { ownerId, exportId: row.id }, { expireInSeconds: 6 * 60 * 60, retryLimit: 2, retryDelay: 30 });
    return { kind: 'background', export: view(row) };
  }
  const row = await deps.data.startExport(ownerId, 'direct', total);
  const zip = createZipWriter();
  void (async () => {
    try {
      if (!(await writeArchive(ctx, ownerId, zip, async () => {}))) throw new Error('the client left before the export was complete');
      // Done once the client has read the last byte.
      await finished(zip.stream);
      await deps.data.finishExport(ownerId, row.id, { status: 'ready' });
    } catch (error) {
      deps.log.warn({ err: error, exportId: row.id }, 'account export did not finish');
      zip.fail(error as Error);
      await deps.data.finishExport(ownerId, row.id, { status: 'failed' }).catch(() => undefined);
    }
  })();
  const day = now().toISOString().slice(0, 10);
  return { kind: 'direct', stream: zip.stream, fileName: `formwork-data-${day}.zip` };
}
