import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import type { TDocumentData } from '../../../contract/documents.ts';
import { ZV1CreateBatchFields, type TV1Batch } from '../../../contract/public-api.ts';
import { AppError } from '../../http/app-error.ts';
import { refuseUnstorableText } from '../../http/text-guard.ts';
import type { TApiAnswer } from './idempotency.ts';
import type { TPublicApiDeps } from './v1-deps.ts';
import { toV1Batch, type TV1Urls } from './v1-shapes.ts';

/**
 * Test keys make single documents only. Checked before anything else of a batch request is read,
 * so a test key is told this first, whatever else is wrong with the request.
 */
export function refuseTestKeyBatches(mode: TApiKeyMode): void {
  if (mode === 'test') {
    throw new AppError('forbidden', 'Batches need a live key: test keys make single documents only. Use a key that starts with fw_live_.');
  }
}

/**
 * A spreadsheet batch's text fields, held to what a JSON batch's are: the guard's text check and
 * the contract's schema, with the same 400s. The route's schema and the text guard see only JSON.
 */
function batchFields(fields: Record<string, string | undefined>) {
  refuseUnstorableText(fields);
  const parsed = ZV1CreateBatchFields.safeParse(fields);
  if (parsed.success) return parsed.data;
  const named: Record<string, string> = {};
  for (const issue of parsed.error.issues) named[issue.path.join('.') || '_'] ??= issue.message;
  throw new AppError('validation_failed', `Invalid input: ${parsed.error.issues[0]?.message ?? 'check the fields.'}`, named);
}

/** What starting a batch answers, and how many documents it asks for (the usage log counts them). */
export type TBatchAnswer = TApiAnswer & { status: 202; body: TV1Batch; location: string; documents: number };

/** Batches through the API: started from JSON rows or a spreadsheet, polled, downloaded. */
export function createV1Batches(deps: TPublicApiDeps, urls: TV1Urls) {
  return {
    async startFromRows(
      ownerId: string,
      body: { formatId: string; rows: TDocumentData[]; fileNamePattern?: string | undefined; skipInvalid: boolean },
    ): Promise<TBatchAnswer> {
      const job = await deps.bulk.startFromRows(ownerId, body);
      return { status: 202, body: toV1Batch(urls, job), location: urls.batch(job.id), documents: job.total };
    },

    /** A spreadsheet upload's fields: `formatId`, and optionally `skipInvalid` and `fileNamePattern`. */
    async startFromSpreadsheet(ownerId: string, file: { fileName: string; bytes: Buffer; fields: Record<string, string | undefined> }): Promise<TBatchAnswer> {
      // Fields sent after the file are never read, which the JSON schema's message could not say.
      if (!file.fields.formatId) throw new AppError('validation_failed', 'Send the field "formatId" before the file.', { formatId: 'Required.' });
      const { formatId, skipInvalid, fileNamePattern } = batchFields(file.fields);
      const job = await deps.bulk.startFromSpreadsheet(ownerId, { formatId, file, skipInvalid, ...(fileNamePattern ? { fileNamePattern } : {}) });
      return { status: 202, body: toV1Batch(urls, job), location: urls.batch(job.id), documents: job.total };
    },

    async get(ownerId: string, id: string, mode: TApiKeyMode) {
      return toV1Batch(urls, await deps.bulk.get(ownerId, id, mode));
    },

    async zip(ownerId: string, id: string, mode: TApiKeyMode) {
      return deps.bulk.zip(ownerId, id, mode);
    },

    async rowErrors(ownerId: string, id: string, page: { limit: number; offset: number }, mode: TApiKeyMode) {
      return deps.bulk.rowErrors(ownerId, id, page, mode);
    },
  };
}
