import type { TBulkJob } from '../../../contract/bulk.ts';
import { notFound } from '../../http/app-error.ts';
import type { TBulkJobRow } from './bulk.repository.ts';
import { isoOrNull } from '../api-fields.ts';

export const jobNotFound = () => notFound('Bulk job');

export function toJob(row: TBulkJobRow, now = Date.now()): TBulkJob {
  const settled = row.done + row.failed;
  const running = row.status === 'running' && row.startedAt;
  const seconds = running ? (now - row.startedAt!.getTime()) / 1000 : 0;
  const rate = running && seconds > 0 && settled > 0 ? settled / seconds : null;
  const left = row.total - settled;
  return {
    id: row.id,
    formatId: row.formatId,
    formatName: row.formatId ? row.formatName : 'Unknown',
    fileName: row.fileName,
    fileNamePattern: row.fileNamePattern,
    status: row.status,
    total: row.total,
    done: row.done,
    failed: row.failed,
    skipped: row.skipped,
    ratePerSecond: rate === null ? null : Math.round(rate * 10) / 10,
    etaSeconds: rate && left > 0 ? Math.ceil(left / rate) : null,
    createdAt: row.createdAt.toISOString(),
    startedAt: isoOrNull(row.startedAt),
    finishedAt: isoOrNull(row.finishedAt),
    message: row.message,
  };
}
