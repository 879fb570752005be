import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { signerLabel } from '../../../contract/placeholders.ts';
import {
  DEFAULT_REMINDER_DAYS,
  DEFAULT_SIGNING_DAYS,
  isOpenRequest,
  type TAuditTrail,
  type TSignatureRequest,
  type TSignatureRequestDetail,
  type ZCreateSignatureRequestBody,
} from '../../../contract/signature-requests.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { sha256Hex } from '../pdf/index.ts';
import { advance, nextCheckOf, queueInvite } from './request-progress.ts';
import { DAY_MS, requestNotFound, tokenHash, type TCaller, type TOwnerCaller, type TSigningContext } from './signing-context.ts';
import { toAuditTrail, toSignatureRequest } from './to-api.ts';

/** A signer may be reminded by hand once in this long, so a request cannot be used to flood them. */
const MANUAL_REMINDER_GAP_MS = 60 * 60_000;

async function documentNameOf({ deps }: TSigningContext, ownerId: string, documentId: string): Promise<string> {
  return (await deps.documents.get(ownerId, documentId))?.name ?? 'Deleted document';
}

async function owned(ctx: TSigningContext, ownerId: string, id: string) {
  const found = await ctx.r.getRequest(ownerId, id);
  if (!found) throw requestNotFound();
  return found;
}

/** The owner's view of one request. */
export async function getSignatureRequest(ctx: TSigningContext, ownerId: string, id: string): Promise<TSignatureRequest> {
  const found = await owned(ctx, ownerId, id);
  return toSignatureRequest(found, await documentNameOf(ctx, ownerId, found.request.documentId), ctx.deps);
}

/** The request with its audit trail and whether the trail's chain is whole. */
export async function signatureRequestDetail(ctx: TSigningContext, ownerId: string, id: string): Promise<TSignatureRequestDetail> {
  const found = await owned(ctx, ownerId, id);
  const trail = await ctx.r.trail(ownerId, id);
  if (!trail) throw requestNotFound();
  return { ...toSignatureRequest(found, await documentNameOf(ctx, ownerId, found.request.documentId), ctx.deps), audit: toAuditTrail(id, trail) };
}

export async function auditTrail(ctx: TSigningContext, ownerId: string, id: string): Promise<TAuditTrail> {
  const trail = await ctx.r.trail(ownerId, id);
  if (!trail) throw requestNotFound();
  return toAuditTrail(id, trail);
}

export async function requestsOfDocument(ctx: TSigningContext, ownerId: string, documentId: string): Promise<TSignatureRequest[]> {
  const document = await ctx.deps.documents.get(ownerId, documentId);
  if (!document) throw notFound('Document');
  return (await ctx.r.ofDocument(ownerId, documentId)).map((found) => toSignatureRequest(found, document.name, ctx.deps));
}

/** The sealed PDF, once everyone has signed. */
export async function sealedPdf(ctx: TSigningContext, ownerId: string, id: string): Promise<{ name: string; bytes: Uint8Array }> {
  const { request } = await owned(ctx, ownerId, id);
  const bytes = request.status === 'completed' ? await ctx.r.sealedPdf(id) : undefined;
  if (!bytes) throw new AppError('conflict', 'The signed PDF is ready once everyone has signed.');
  return { name: `${await documentNameOf(ctx, ownerId, request.documentId)} (signed)`, bytes: new Uint8Array(bytes) };
}

/** Checks what creating a request needs of the account and the document, before anything is written. */
async function assertMaySend(ctx: TSigningContext, ownerId: string, documentId: string, body: z.output<typeof ZCreateSignatureRequestBody>, actorId: string) {
  const { deps, r } = ctx;
  const document = await deps.documents.get(ownerId, documentId);
  if (!document) throw notFound('Document');
  await deps.standing.assertMayReach(actorId, 'email');
  const sender = await deps.mail.senderFor(ownerId);
  if (!sender) {
    throw new AppError('unprocessable', 'No mail server is set up for this account, so Formwork cannot email signers. Ask your administrator to set one up.');
  }
  if (sender.wordsRefused && body.message)
    throw new AppError('plan_limit', sender.wordsRefused, { message: 'Leave the message out: the standard one is used.' });
  if (await r.openRequestFor(ownerId, documentId)) {
    throw new AppError('conflict', 'This document is already out for signature. Cancel that request before sending it again.');
  }
  const roles = [...new Set((await deps.documents.signingFields(ownerId, documentId)).map((field) => field.signer))].sort((a, b) => a - b);
  const needed = roles.at(-1) ?? 0;
  if (body.signers.length < needed) {
    throw new AppError('validation_failed', `This document has signing fields for ${roles.map(signerLabel).join(', ')}: add ${needed} signers.`, {
      signers: `Add ${needed} signers.`,
    });
  }
  await deps.allowance.assertRoom(ownerId, 1);
  return document;
}

/**
 * Sends a document for signature: the request and its signers are stored with the trail's first
 * event, then the first signers in the order are invited.
 */
export async function createSignatureRequest(
  ctx: TSigningContext,
  ownerId: string,
  documentId: string,
  body: z.output<typeof ZCreateSignatureRequestBody>,
  caller: TOwnerCaller,
  batch?: { batchId: string; batchRow: number },
): Promise<TSignatureRequest> {
  const { deps, r } = ctx;
  const document = await assertMaySend(ctx, ownerId, documentId, body, caller.actorId);
  const { bytes } = await deps.documents.pdf(ownerId, documentId);
  const now = new Date();
  const id = randomUUID();
  const signers = body.signers.map((signer, index) => {
    const token = randomBytes(32).toString('base64url');
    return {
      id: randomUUID(),
      requestId: id,
      role: index + 1,
      name: signer.name,
      email: signer.email,
      order: signer.order ?? 1,
      tokenHash: tokenHash(token),
      tokenEnc: deps.secrets.seal(token),
    };
  });
  const created = await r.createRequest(
    {
      id,
      ownerId,
      documentId,
      message: body.message || null,
      cc: [...new Set(body.cc ?? [])],
      reminderDays: [...new Set(body.reminderDays ?? DEFAULT_REMINDER_DAYS)].sort((a, b) => a - b),
      expiresAt: new Date(now.getTime() + (body.expiresInDays ?? DEFAULT_SIGNING_DAYS) * DAY_MS),
      documentSha256: sha256Hex(bytes),
      createdAt: now,
      ...(batch ?? {}),
    },
    signers,
    { type: 'created', at: now, ip: caller.ip, userAgent: caller.userAgent, details: { signers: signers.length, cc: body.cc?.length ?? 0 } },
  );
  await deps.documents.setStatus(ownerId, documentId, 'out_for_signature');
  await advance(ctx, created.request.id);
  const fresh = await r.getRequest(ownerId, id);
  return toSignatureRequest(fresh!, document.name, deps);
}

/** Reminds, now, every signer whose turn it is and who has not signed. */
export async function remindSigners(ctx: TSigningContext, ownerId: string, id: string, caller: TCaller): Promise<TSignatureRequest> {
  const { request, signers } = await owned(ctx, ownerId, id);
  if (!isOpenRequest(request.status)) throw new AppError('conflict', 'This request has ended: there is no one to remind.');
  const now = new Date();
  const due = signers.filter((signer) => signer.status === 'notified' || signer.status === 'viewed');
  const recent = due.filter((signer) => signer.lastRemindedAt && now.getTime() - signer.lastRemindedAt.getTime() < MANUAL_REMINDER_GAP_MS);
  if (due.length > 0 && recent.length === due.length) {
    throw new AppError('rate_limited', 'You reminded them less than an hour ago. Give them time to answer.', undefined, { 'retry-after': '3600' });
  }
  for (const signer of due.filter((s) => !recent.includes(s))) {
    const reminded = await ctx.r.change(id, {
      request: { from: ['sent', 'partly_signed'] },
      signer: { id: signer.id, from: ['notified', 'viewed'], set: { lastRemindedAt: now } },
      events: [{ type: 'reminded', signerId: signer.id, at: now, ip: caller.ip, userAgent: caller.userAgent }],
    });
    if (reminded) await queueInvite(ctx, request, signer, 'sign_reminder');
  }
  const fresh = await owned(ctx, ownerId, id);
  await ctx.r.setNextCheck(id, nextCheckOf(fresh));
  return toSignatureRequest(fresh, await documentNameOf(ctx, ownerId, request.documentId), ctx.deps);
}

/** Stops a request: its links stop working and the document is as it was before it was sent. */
export async function cancelSignatureRequest(ctx: TSigningContext, ownerId: string, id: string, caller: TCaller): Promise<TSignatureRequest> {
  const { request } = await owned(ctx, ownerId, id);
  const now = new Date();
  const cancelled = await ctx.r.change(id, {
    request: { from: ['sent', 'partly_signed'], set: { status: 'cancelled', endedAt: now, nextCheckAt: null } },
    events: [{ type: 'cancelled', at: now, ip: caller.ip, userAgent: caller.userAgent }],
  });
  if (!cancelled) throw new AppError('conflict', 'This request has already ended.');
  await ctx.deps.documents.setStatus(ownerId, request.documentId, 'generated');
  return getSignatureRequest(ctx, ownerId, id);
}
