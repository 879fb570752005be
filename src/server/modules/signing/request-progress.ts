import { isOpenRequest } from '../../../contract/signature-requests.ts';
import { createDueRowsWorker, type TDueRowsWorker } from '../../jobs/due-rows.ts';
import { completeRequest } from './complete-request.ts';
import { DAY_MS, type TSigningBase } from './signing-context.ts';
import type { TSignatureRequestRow, TSignerRow } from './signing.repository.ts';

/** How long one process holds a due request before another may take it. */
const LEASE_MS = 5 * 60_000;

type TLoaded = { request: TSignatureRequestRow; signers: TSignerRow[] };

/** The lowest order with someone still to sign: those signers' turn. */
export function currentOrder(signers: readonly TSignerRow[]): number | undefined {
  const waiting = signers.filter((signer) => signer.status !== 'signed');
  return waiting.length === 0 ? undefined : Math.min(...waiting.map((signer) => signer.order));
}

/** When a signer who has not signed is next reminded: the first reminder day after their last. */
function nextReminder(request: TSignatureRequestRow, signer: TSignerRow): Date | undefined {
  if (!signer.notifiedAt || (signer.status !== 'notified' && signer.status !== 'viewed')) return undefined;
  const since = signer.lastRemindedAt ?? signer.notifiedAt;
  return request.reminderDays
    .map((days) => new Date(signer.notifiedAt!.getTime() + days * DAY_MS))
    .filter((at) => at > since)
    .sort((a, b) => a.getTime() - b.getTime())[0];
}

/** The request's next check: its soonest reminder, or its expiry. */
export function nextCheckOf({ request, signers }: TLoaded): Date | null {
  if (!isOpenRequest(request.status)) return null;
  const times = [request.expiresAt, ...signers.map((signer) => nextReminder(request, signer)).filter((at) => at !== undefined)];
  return new Date(Math.min(...times.map((at) => at.getTime())));
}

export async function queueInvite(
  ctx: TSigningBase,
  request: TSignatureRequestRow,
  signer: TSignerRow,
  purpose: 'sign_invite' | 'sign_reminder',
): Promise<void> {
  const { deps } = ctx;
  const document = await deps.documents.get(request.ownerId, request.documentId);
  const sender = await deps.mail.senderFor(request.ownerId);
  const from = sender?.senderName ?? 'Formwork';
  const name = document?.name ?? 'a document';
  const intro = purpose === 'sign_invite' ? `${from} has sent you ${name} to sign.` : `A reminder: ${from} is waiting for your signature on ${name}.`;
  await deps.deliveries.queueSigningEmail(request.ownerId, {
    documentId: request.documentId,
    to: [signer.email],
    subject: purpose === 'sign_invite' ? `Please sign: ${name}` : `Reminder: please sign ${name}`,
    message: [`Hello ${signer.name},`, intro, request.message ?? ''].filter(Boolean).join('\n\n'),
    purpose,
    signerId: signer.id,
    signatureRequestId: request.id,
  });
}

/**
 * Moves a request on after a change: invites the signers whose turn has come (once each: the
 * change from `waiting` is made only once), or, when everyone has signed, has the worker seal it.
 */
export async function advance(ctx: TSigningBase & { worker?: TDueRowsWorker }, requestId: string): Promise<void> {
  const { r, deps } = ctx;
  const loaded = await r.load(requestId);
  if (!loaded || !isOpenRequest(loaded.request.status)) return;
  const { request, signers } = loaded;
  const order = currentOrder(signers);
  if (order === undefined) {
    await r.setNextCheck(request.id, new Date());
    ctx.worker?.kick();
    return;
  }
  let invited = 0;
  for (const signer of signers.filter((s) => s.order === order && s.status === 'waiting')) {
    const now = new Date();
    const changed = await r.change(request.id, {
      request: { from: ['sent', 'partly_signed'] },
      signer: { id: signer.id, from: ['waiting'], set: { status: 'notified', notifiedAt: now } },
      events: [{ type: 'sent', signerId: signer.id, at: now, details: { to: signer.email } }],
    });
    if (!changed) continue;
    await queueInvite(ctx, request, signer, 'sign_invite');
    invited += 1;
  }
  const fresh = await r.load(requestId);
  if (fresh) await r.setNextCheck(request.id, nextCheckOf(fresh));
  if (invited > 0) await deps.webhook?.(request.ownerId, 'signature_request.sent', request.id);
}

/** Ends an open request that ran out of time. */
async function expire(ctx: TSigningBase, { request }: TLoaded): Promise<void> {
  const now = new Date();
  const expired = await ctx.r.change(request.id, {
    request: { from: ['sent', 'partly_signed'], set: { status: 'expired', endedAt: now, nextCheckAt: null } },
    events: [{ type: 'expired', at: now }],
  });
  if (!expired) return;
  await ctx.deps.documents.setStatus(request.ownerId, request.documentId, 'expired');
  await ctx.deps.webhook?.(request.ownerId, 'signature_request.expired', request.id);
}

/** Reminds each signer whose reminder day has come, once per reminder day. */
async function remindDue(ctx: TSigningBase, { request, signers }: TLoaded, now: Date): Promise<void> {
  for (const signer of signers) {
    const due = nextReminder(request, signer);
    if (!due || due > now) continue;
    const reminded = await ctx.r.change(request.id, {
      request: { from: ['sent', 'partly_signed'] },
      signer: { id: signer.id, from: ['notified', 'viewed'], set: { lastRemindedAt: now } },
      events: [{ type: 'reminded', signerId: signer.id, at: now, details: { automatic: true } }],
    });
    if (reminded) await queueInvite(ctx, request, signer, 'sign_reminder');
  }
}

/** What a due request needs now: sealing, expiry, or reminders; then its next check. */
async function check(ctx: TSigningBase & { worker?: TDueRowsWorker }, requestId: string): Promise<void> {
  const loaded = await ctx.r.load(requestId);
  if (!loaded) return;
  if (!isOpenRequest(loaded.request.status)) return ctx.r.setNextCheck(requestId, null);
  const now = new Date();
  if (loaded.signers.every((signer) => signer.status === 'signed')) return completeRequest(ctx, loaded);
  if (loaded.request.expiresAt <= now) return expire(ctx, loaded);
  await remindDue(ctx, loaded, now);
  const fresh = await ctx.r.load(requestId);
  if (fresh) await ctx.r.setNextCheck(requestId, nextCheckOf(fresh));
}

/**
 * The worker that seals completed requests, sends reminders and expires requests, in any process:
 * each request is a queue row due at its next check.
 */
export function createSigningWorker(base: TSigningBase): TDueRowsWorker {
  const worker: TDueRowsWorker = createDueRowsWorker<{ id: string }>({
    what: 'signature request',
    take: async (now, leaseUntil, limit) => (await base.r.takeDue(now, leaseUntil, limit)).map((id) => ({ id })),
    attempt: (row) =>
      check({ ...base, worker }, row.id).catch((error: unknown) => {
        // Left leased: it is due again when the lease runs out, and tried again then.
        base.deps.log.error({ err: error, signatureRequestId: row.id }, 'could not move a signature request on');
      }),
    leaseMs: LEASE_MS,
    pollMs: base.deps.pollMs ?? 30_000,
    batch: 2,
    log: base.deps.log,
  });
  return worker;
}
