import sharp from 'sharp';
import type { z } from 'zod';
import {
  CONSENT,
  isOpenRequest,
  type TSignResult,
  type TSigningSession,
  type ZDeclineBody,
  type ZSignatureMarkInput,
  type ZSignBody,
} from '../../../contract/signature-requests.ts';
import { AppError } from '../../http/app-error.ts';
import { advance, currentOrder } from './request-progress.ts';
import { linkNotFound, SIGN_PATH, tokenHash, type TCaller, type TSigningContext } from './signing-context.ts';
import type { TSignatureRequestRow, TSignerRow } from './signing.repository.ts';

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
/** A drawn or uploaded mark is kept at most this size: ample for a box a few centimetres wide. */
const MARK_MAX = { width: 1200, height: 480 };

/** The signer behind a link that may still be used: unknown, signed, declined or ended links are all the same 404. */
async function openLink({ r }: TSigningContext, token: string): Promise<{ signer: TSignerRow; request: TSignatureRequestRow }> {
  const found = TOKEN_RE.test(token) ? await r.signerByTokenHash(tokenHash(token)) : undefined;
  if (!found || !isOpenRequest(found.request.status) || found.request.expiresAt <= new Date()) throw linkNotFound();
  if (found.signer.status === 'signed' || found.signer.status === 'declined') throw linkNotFound();
  return found;
}

/** Whether a link may still be used: its page answers 404 otherwise, as its calls do. */
export async function linkIsOpen(ctx: TSigningContext, token: string): Promise<boolean> {
  return openLink(ctx, token).then(
    () => true,
    () => false,
  );
}

/** The names of those who sign before this signer and have not yet. */
async function signersBefore({ r }: TSigningContext, requestId: string, signer: TSignerRow): Promise<string[]> {
  const loaded = await r.load(requestId);
  const order = loaded ? currentOrder(loaded.signers) : undefined;
  if (!loaded || order === undefined || signer.order <= order) return [];
  return loaded.signers.filter((s) => s.order < signer.order && s.status !== 'signed').map((s) => s.name);
}

/** What the signing page shows; the first look is recorded in the trail. */
export async function signingSession(ctx: TSigningContext, token: string, caller: TCaller): Promise<TSigningSession> {
  const { deps, r } = ctx;
  const { signer, request } = await openLink(ctx, token);
  const document = await deps.documents.get(request.ownerId, request.documentId);
  if (!document) throw linkNotFound();
  const waitingFor = signer.status === 'waiting' ? await signersBefore(ctx, request.id, signer) : [];
  if (signer.status === 'notified') {
    const now = new Date();
    const opened = await r.change(request.id, {
      request: { from: ['sent', 'partly_signed'] },
      signer: { id: signer.id, from: ['notified'], set: { status: 'viewed', viewedAt: now } },
      events: [{ type: 'opened', signerId: signer.id, at: now, ...caller }],
    });
    if (opened) await deps.webhook?.(request.ownerId, 'signature_request.viewed', request.id);
  }
  const fields = (await deps.documents.signingFields(request.ownerId, request.documentId)).filter((field) => field.signer === signer.role);
  const sender = await deps.mail.senderFor(request.ownerId);
  return {
    documentName: document.name,
    senderName: sender?.senderName ?? 'The sender',
    message: request.message,
    signer: { name: signer.name, email: signer.email, role: signer.role, status: signer.status === 'notified' ? 'viewed' : signer.status },
    turn: signer.status === 'waiting' ? 'waiting' : 'now',
    waitingFor,
    fields: fields.map(({ name, label, type }) => ({ name, label, type })),
    needsInitials: fields.some((field) => field.type === 'initials'),
    pdfUrl: `/api${SIGN_PATH}${token}/pdf`,
    consent: { version: CONSENT.version, text: CONSENT.text },
    expiresAt: request.expiresAt.toISOString(),
  };
}

/** The document as it was sent, for the signing page to draw. */
export async function signingPdf(ctx: TSigningContext, token: string): Promise<{ name: string; bytes: Uint8Array }> {
  const { request } = await openLink(ctx, token);
  const { document, bytes } = await ctx.deps.documents.pdf(request.ownerId, request.documentId).catch(() => {
    throw linkNotFound();
  });
  return { name: document.name, bytes };
}

/** A mark as stored: typed text, or a drawn or uploaded image made a plain PNG of bounded size. */
async function markOf(mark: z.output<typeof ZSignatureMarkInput>, field: string): Promise<{ text: string | null; png: Buffer | null }> {
  if (mark.type === 'typed') return { text: mark.text, png: null };
  const bytes = Buffer.from(mark.png, 'base64');
  // Only the two formats the signing page offers reach the image library; anyone holding a link
  // could otherwise hand it SVG, TIFF or HEIF to parse.
  const isPng = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const isJpeg = bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
  const unreadable = () =>
    new AppError('validation_failed', 'The signature image could not be read. Draw it again, or upload a PNG or JPEG.', {
      [field]: 'This is not an image Formwork can read.',
    });
  if (!isPng && !isJpeg) throw unreadable();
  try {
    const png = await sharp(bytes, { limitInputPixels: 4096 * 4096 })
      .resize({ ...MARK_MAX, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    return { text: null, png };
  } catch {
    throw unreadable();
  }
}

/** Records a signature, then invites whoever signs next, or has the request sealed. */
export async function sign(ctx: TSigningContext, token: string, body: z.output<typeof ZSignBody>, caller: TCaller): Promise<TSignResult> {
  const { signer, request } = await openLink(ctx, token);
  if (signer.status === 'waiting') {
    const before = await signersBefore(ctx, request.id, signer);
    throw new AppError('conflict', `It is not your turn to sign yet: ${before.join(', ') || 'someone else'} signs first. You will get an email when it is.`);
  }
  const signature = await markOf(body.signature, 'signature');
  const initials = body.initials ? await markOf(body.initials, 'initials') : { text: null, png: null };
  const now = new Date();
  const signed = await ctx.r.change(request.id, {
    request: { from: ['sent', 'partly_signed'], set: { status: 'partly_signed' } },
    signer: {
      id: signer.id,
      from: ['notified', 'viewed'],
      set: {
        status: 'signed',
        signedAt: now,
        viewedAt: signer.viewedAt ?? now,
        consentVersion: CONSENT.version,
        signatureText: signature.text,
        signaturePng: signature.png,
        initialsText: initials.text,
        initialsPng: initials.png,
      },
    },
    events: [
      { type: 'consented', signerId: signer.id, at: now, ...caller, details: { consentVersion: CONSENT.version } },
      {
        type: 'signed',
        signerId: signer.id,
        at: now,
        ...caller,
        details: { signature: body.signature.type, ...(body.initials ? { initials: body.initials.type } : {}) },
      },
    ],
  });
  // Two clicks on Sign, or the request ended a moment before: the link has been used.
  if (!signed) throw linkNotFound();
  await ctx.deps.webhook?.(request.ownerId, 'signature_request.signed', request.id);
  await advance(ctx, request.id);
  const fresh = await ctx.r.load(request.id);
  return { status: 'signed', requestStatus: fresh?.request.status ?? 'partly_signed' };
}

/** The signer will not sign: the request ends, and the owner is told why. */
export async function decline(ctx: TSigningContext, token: string, body: z.output<typeof ZDeclineBody>, caller: TCaller): Promise<TSignResult> {
  const { deps, r } = ctx;
  const { signer, request } = await openLink(ctx, token);
  const now = new Date();
  const declined = await r.change(request.id, {
    request: { from: ['sent', 'partly_signed'], set: { status: 'declined', endedAt: now, nextCheckAt: null } },
    // Only in their turn: a later signer's link declining early would end the request out of order.
    signer: { id: signer.id, from: ['notified', 'viewed'], set: { status: 'declined', declinedAt: now, declineReason: body.reason } },
    events: [{ type: 'declined', signerId: signer.id, at: now, ...caller, details: { reason: body.reason } }],
  });
  if (!declined) throw linkNotFound();
  await deps.documents.setStatus(request.ownerId, request.documentId, 'declined');
  const document = await deps.documents.get(request.ownerId, request.documentId);
  await deps.mail
    .sendNotice(request.ownerId, {
      subject: `${signer.name} declined to sign ${document?.name ?? 'your document'}`,
      text: `${signer.name} (${signer.email}) declined to sign ${document?.name ?? 'your document'}, so the request has ended.\n\nTheir reason: ${body.reason}`,
    })
    .catch((error: unknown) => deps.log.warn({ err: error, signatureRequestId: request.id }, 'could not tell the owner about a decline'));
  await deps.webhook?.(request.ownerId, 'signature_request.declined', request.id);
  return { status: 'declined', requestStatus: 'declined' };
}
