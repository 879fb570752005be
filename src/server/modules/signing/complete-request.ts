import type { TSignatureMark, TSignerStamp } from '../../../contract/signing.ts';
import { sha256Hex } from '../pdf/index.ts';
import type { TFilledValues } from '../../../contract/filled-values.ts';
import { CONSENT } from '../../../contract/signature-requests.ts';
import { certificateRender } from './certificate.ts';
import type { TSigningBase } from './signing-context.ts';
import type { TNewEvent, TSignatureRequestRow, TSignerRow, TTrail } from './signing.repository.ts';

/** The certificate of completion, printed by the renderer on a render thread like any document. */
async function certificatePdf(
  { deps }: TSigningBase,
  request: TSignatureRequestRow,
  signers: TSignerRow[],
  trail: TTrail,
  documentName: string,
): Promise<Uint8Array> {
  const { events } = trail;
  const sender = await deps.mail.senderFor(request.ownerId);
  const nameOf = (signerId: string | null) => signers.find((signer) => signer.id === signerId)?.name ?? null;
  const signedEvent = (signer: TSignerRow) => events.find((event) => event.type === 'signed' && event.signerId === signer.id);
  const completedAt = new Date();
  const { format, data, signing, meta } = certificateRender({
    requestId: request.id,
    documentName,
    documentSha256: request.documentSha256,
    sentAt: request.createdAt,
    completedAt,
    senderName: sender?.senderName ?? 'The sender',
    senderEmail: sender ? (sender.replyTo?.address ?? sender.from.address) : '',
    consent: CONSENT,
    signers: signers.map((signer) => ({
      name: signer.name,
      email: signer.email,
      role: signer.role,
      order: signer.order,
      viewedAt: signer.viewedAt,
      consentedAt: events.find((event) => event.type === 'consented' && event.signerId === signer.id)?.at ?? null,
      signedAt: signer.signedAt!,
      ip: signedEvent(signer)?.ip ?? null,
      userAgent: signedEvent(signer)?.userAgent ?? null,
      signature: stampOf(signer).signature,
    })),
    cc: request.cc,
    events: events.map((event) => ({
      at: event.at,
      type: event.type,
      who: event.signerId ? nameOf(event.signerId) : (sender?.senderName ?? null),
      ip: event.ip,
    })),
    auditHead: trail.head,
    verifyUrl: `${deps.publicUrl}/verify`,
  });
  const { pdf } = await deps.pdf.render({
    ownerId: request.ownerId,
    format,
    data: data as TFilledValues,
    title: meta.title ?? `Certificate of completion`,
    creationDate: completedAt,
    signing,
  });
  return pdf;
}

const markOf = (text: string | null, png: Uint8Array | null): TSignatureMark | undefined =>
  png ? { type: 'image', png: new Uint8Array(png) } : text ? { type: 'typed', text } : undefined;

/** A signer's marks as the renderer prints them in their signing fields. */
export function stampOf(signer: TSignerRow): TSignerStamp {
  const initials = markOf(signer.initialsText, signer.initialsPng);
  return {
    name: signer.name,
    signedAt: signer.signedAt!,
    signature: markOf(signer.signatureText, signer.signaturePng) ?? { type: 'typed', text: signer.name },
    ...(initials ? { initials } : {}),
  };
}

/**
 * Everyone has signed: print the document again with their marks, append the certificate of
 * completion, seal it, keep it, and send each signer and copy recipient the sealed PDF. Made once:
 * a second process finding the same request stores nothing (`complete` answers false).
 */
export async function completeRequest(ctx: TSigningBase, { request, signers }: { request: TSignatureRequestRow; signers: TSignerRow[] }): Promise<void> {
  const { deps, r } = ctx;
  const document = await deps.documents.get(request.ownerId, request.documentId);
  if (!document) return r.setNextCheck(request.id, null);
  // The trail as one read, so the head the certificate prints is that of the events it lists.
  // None when the request was deleted meanwhile (its owner's account closed): nothing to seal.
  const trail = await r.trail(request.ownerId, request.id);
  if (!trail) return;
  const signedDocument = await deps.documents.signedPdf(request.ownerId, request.documentId, {
    signers: Object.fromEntries(signers.map((signer) => [signer.role, stampOf(signer)])),
  });
  const timestampUrl = await deps.timestampUrl();
  const sealed = await deps.sealPool.seal({
    document: signedDocument,
    certificate: await certificatePdf(ctx, request, signers, trail, document.name),
    certificates: await deps.sealKeys.inUse(),
    ...(timestampUrl ? { timestampUrl } : {}),
    reason: `Signed by ${signers.map((signer) => signer.name).join(', ')}; sealed by Formwork`,
  });
  const sealedSha256 = sha256Hex(sealed.bytes);
  const events: TNewEvent[] = [];
  if (sealed.timestampFailure) events.push({ type: 'timestamp_failed', details: { server: timestampUrl, reason: sealed.timestampFailure } });
  events.push({ type: 'sealed', details: { level: sealed.level, sealedSha256 } }, { type: 'completed', details: { sealedSha256 } });
  if (!(await r.complete(request.id, sealed.bytes, sealedSha256, events))) return;
  await deps.documents.setStatus(request.ownerId, request.documentId, 'signed');
  const copyTo = [...signers.map((signer) => signer.email), ...request.cc.filter((address) => !signers.some((signer) => signer.email === address))];
  for (const address of copyTo) {
    await deps.deliveries.queueSigningEmail(request.ownerId, {
      documentId: request.documentId,
      to: [address],
      subject: `Signed: ${document.name}`,
      message: `Everyone has signed ${document.name}. The signed PDF is attached, sealed so that anyone can check it has not changed since.`,
      purpose: 'signed_copy',
      signatureRequestId: request.id,
    });
  }
  await deps.webhook?.(request.ownerId, 'signature_request.completed', request.id);
  deps.log.info({ signatureRequestId: request.id, level: sealed.level }, 'signature request completed and sealed');
}
