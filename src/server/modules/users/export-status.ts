import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { TAccountExportStatus } from '../../../contract/account-data.ts';
import { notFound } from '../../http/app-error.ts';
import { ACCOUNT_EXPORT_LIMITS, DAY_MS, type TExportContext } from './export-context.ts';
import { startWorking, sweepExpired } from './export-jobs.ts';

/** The latest export and how many more may start today. */
export async function exportStatus(ctx: TExportContext, ownerId: string): Promise<TAccountExportStatus> {
  const { deps, now, backgroundAbove, view } = ctx;
  void sweepExpired(ctx).catch((error: unknown) => deps.log.warn({ err: error }, 'could not sweep expired exports'));
  const at = now();
  const [latest, recent] = await Promise.all([deps.data.latestExport(ownerId), deps.data.recentExports(ownerId, new Date(at.getTime() - DAY_MS))]);
  // A background export left unfinished by a restart carries on once its owner looks.
  if (latest?.kind === 'background' && latest.status === 'running') {
    void startWorking(ctx).catch((error: unknown) => deps.log.error({ err: error }, 'could not start the export worker'));
  }
  return {
    latest: latest ? view(latest) : null,
    backgroundAbove,
    perDay: ACCOUNT_EXPORT_LIMITS.perDay,
    remainingToday: Math.max(0, ACCOUNT_EXPORT_LIMITS.perDay - recent.length),
  };
}

/** A finished background export's file, for its owner, until it expires. */
export async function downloadExport({ deps, view, fileOf }: TExportContext, ownerId: string, id: string): Promise<{ stream: Readable; fileName: string }> {
  const row = await deps.data.getExport(ownerId, id);
  if (!row || row.kind !== 'background' || view(row).status !== 'ready') throw notFound('Export');
  const file = fileOf(id);
  try {
    await stat(file);
  } catch {
    throw notFound('Export');
  }
  return { stream: createReadStream(file), fileName: `formwork-data-${row.createdAt.toISOString().slice(0, 10)}.zip` };
}

/** The files a deleted account leaves behind. */
export async function removeExportFiles({ fileOf }: TExportContext, exportIds: string[]): Promise<void> {
  await Promise.all(exportIds.map((id) => rm(fileOf(id), { force: true })));
}
