import type { z } from 'zod';
import { ZEmailAddress } from '../../../contract/mail.ts';
import {
  SIGNATURE_REQUEST_STATUSES,
  type TBatchSignatureProgress,
  type TBatchSignatureResult,
  type ZBatchSignatureBody,
} from '../../../contract/signature-requests.ts';
import { AppError } from '../../http/app-error.ts';
import { createSignatureRequest } from './owner-requests.ts';
import type { TOwnerCaller, TSigningContext } from './signing-context.ts';

/** Rows whose failure is listed; the count covers the rest. */
const FAILURES_LISTED = 100;

/** Postgres's unique violation: another click sent the same row a moment before. */
const isDuplicate = (error: unknown) =>
  (error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * "Send each for signature": one request per row of a finished batch, its signer's name and
 * address read from two of the spreadsheet's columns. A row is sent at most once (its request
 * is unique per batch and row), so sending again, after a stop half-way or a second click, sends
 * only the rows still unsent.
 */
export async function sendBatchForSignature(
  ctx: TSigningContext,
  ownerId: string,
  batchId: string,
  body: z.output<typeof ZBatchSignatureBody>,
  caller: TOwnerCaller,
): Promise<TBatchSignatureResult> {
  const { deps, r } = ctx;
  const { nameColumn, emailColumn, ...request } = body;
  if (nameColumn === emailColumn) {
    throw new AppError('validation_failed', 'Choose different columns for the name and the email address.', { nameColumn: 'Choose the column with names.' });
  }
  const sent = (await r.ofBatch(ownerId, batchId)).rows;
  const result: TBatchSignatureResult = { total: 0, created: 0, alreadySent: 0, failed: [] };
  let failures = 0;
  const fail = (row: number, problem: string) => {
    failures += 1;
    if (result.failed.length < FAILURES_LISTED) result.failed.push({ row, problem });
  };
  for await (const { row, documentId, cells } of deps.batchCells(ownerId, batchId, [nameColumn, emailColumn])) {
    result.total += 1;
    if (sent.has(row)) {
      result.alreadySent += 1;
      continue;
    }
    const [name, email] = cells as [string, string];
    const address = ZEmailAddress.safeParse(email);
    if (name === '') fail(row, 'No signer’s name in this row.');
    else if (!address.success) fail(row, email === '' ? 'No email address in this row.' : `“${email.slice(0, 80)}” is not a valid email address.`);
    else {
      try {
        await createSignatureRequest(ctx, ownerId, documentId, { ...request, signers: [{ name: name.slice(0, 200), email: address.data }] }, caller, {
          batchId,
          batchRow: row,
        });
        result.created += 1;
      } catch (error) {
        if (isDuplicate(error)) result.alreadySent += 1;
        // The plan's allowance or the account's standing stops the whole batch, not one row.
        else if (
          error instanceof AppError &&
          (error.code === 'quota_exceeded' || error.code === 'plan_limit' || error.code === 'forbidden' || error.code === 'email_unverified')
        )
          throw error;
        else if (error instanceof AppError) fail(row, error.message);
        else throw error;
      }
    }
  }
  if (failures > result.failed.length) result.failed.push({ row: -1, problem: `${failures - result.failed.length} more rows could not be sent.` });
  return result;
}

/** How many of a batch's requests are in each status. */
export async function batchSignatureProgress({ deps, r }: TSigningContext, ownerId: string, batchId: string): Promise<TBatchSignatureProgress> {
  await deps.assertBatch(ownerId, batchId);
  const { rows, byStatus } = await r.ofBatch(ownerId, batchId);
  return {
    requests: rows.size,
    byStatus: Object.fromEntries(SIGNATURE_REQUEST_STATUSES.map((status) => [status, byStatus[status] ?? 0])) as TBatchSignatureProgress['byStatus'],
  };
}
