import path from 'node:path';
import type { TAccountExport } from '../../../contract/account-data.ts';
import type { TInvoiceSummary } from '../../../contract/billing.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormatInput } from '../../../contract/formats.ts';
import type { TJobQueue } from '../../jobs/queue.ts';
import type { TAccountDataRepository, TAccountExportRow } from './account-data.repository.ts';
import type { TUserAccounts } from './user-accounts.ts';
import { isoOrNull } from '../api-fields.ts';

export const ACCOUNT_EXPORT_LIMITS = {
  /** Accounts with more documents than this are exported in the background (a few seconds of PDFs). */
  backgroundAbove: 200,
  /** Exports a user may start in 24 hours, whichever way they are made. */
  perDay: 3,
  /** How long a background export's download works. */
  linkDays: 7,
  /** An export still "running" after this long was lost with its process and no longer blocks a new one. */
  staleAfterMs: 2 * 60 * 60_000,
};

export const ACCOUNT_EXPORT_QUEUE = 'account-export';
export const DAY_MS = 24 * 60 * 60_000;

/** Where a page of documents ends: the next page starts after it. */
type TCursor = { createdAt: Date; id: string };

/**
 * What the account export is built from (see `createAccountExport`). Formats and documents use
 * this module, and billing reaches it through quota, so the export names what it reads of theirs
 * and services.ts hands their services in, rather than importing them.
 */
export type TAccountExportDeps = {
  data: TAccountDataRepository;
  users: Pick<TUserAccounts, 'findById' | 'workspaceOf'>;
  /** The owner's formats, newest edit first, with what a format file holds. */
  formats: { listOwned(ownerId: string): Promise<(Pick<TFormatInput, 'name' | 'description' | 'content' | 'placeholders'> & { updatedAt: Date })[]> };
  documents: {
    page(ownerId: string, query: { limit: number; after?: TCursor }): Promise<{ documents: TDocument[]; rows: TCursor[] }>;
    pdf(ownerId: string, id: string): Promise<{ bytes: Uint8Array }>;
  };
  billing: {
    invoices(ownerId: string): Promise<TInvoiceSummary[]>;
    invoicePdf(id: string, ownerId: string): Promise<{ pdf: Uint8Array; fileName: string }>;
  };
  queue: TJobQueue;
  /** Where background exports are written (data_dir/exports). */
  dir: string;
  /** Tells the owner a background export is ready (or failed); false without a mail server. */
  notify: (userId: string, notice: { subject: string; text: string }) => Promise<boolean>;
  publicUrl: string;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  /** Tests lower it to reach the background path without thousands of documents. */
  backgroundAbove?: number;
  now?: () => Date;
};

/** The state every export use case shares: its dependencies, the clock, and the worker's state. */
export type TExportContext = ReturnType<typeof createExportContext>;

export function createExportContext(deps: TAccountExportDeps) {
  const now = deps.now ?? (() => new Date());
  const backgroundAbove = deps.backgroundAbove ?? ACCOUNT_EXPORT_LIMITS.backgroundAbove;
  const fileOf = (id: string) => path.join(deps.dir, `${id}.zip`);

  function view(row: TAccountExportRow): TAccountExport {
    const expired = row.status === 'ready' && row.kind === 'background' && (!row.expiresAt || row.expiresAt <= now());
    const status = expired ? 'expired' : row.status;
    return {
      id: row.id,
      kind: row.kind,
      status,
      documentsTotal: row.documentsTotal,
      documentsDone: row.documentsDone,
      bytes: row.bytes,
      createdAt: row.createdAt.toISOString(),
      finishedAt: isoOrNull(row.finishedAt),
      expiresAt: isoOrNull(row.expiresAt),
      downloadUrl: status === 'ready' && row.kind === 'background' ? `/api/user/exports/${row.id}/download` : null,
    };
  }

  /** The worker started in this process, and when expired files were last swept. */
  const state: { working?: Promise<void>; lastSweep: number } = { lastSweep: 0 };

  return { deps, now, backgroundAbove, fileOf, view, state };
}
