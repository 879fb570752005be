import type { TAuditTrail, TSignatureEvent, TSignatureRequest, TSigner } from '../../../contract/signature-requests.ts';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import { isoOrNull } from '../api-fields.ts';
import { checkChain, type TAuditEvent } from './audit-trail.ts';
import { SIGN_PATH } from './signing-context.ts';
import type { TSignatureRequestRow, TSignerRow, TTrail } from './signing.repository.ts';

/** A signer as the request's owner reads them, with their link. */
export function toSigner(row: TSignerRow, links: { publicUrl: string; secrets: TSecretBox }): TSigner {
  return {
    id: row.id,
    role: row.role,
    name: row.name,
    email: row.email,
    order: row.order,
    status: row.status,
    signUrl: `${links.publicUrl}${SIGN_PATH}${links.secrets.open(row.tokenEnc)}`,
    notifiedAt: isoOrNull(row.notifiedAt),
    viewedAt: isoOrNull(row.viewedAt),
    signedAt: isoOrNull(row.signedAt),
    declinedAt: isoOrNull(row.declinedAt),
    declineReason: row.declineReason,
  };
}

export function toSignatureRequest(
  { request, signers }: { request: TSignatureRequestRow; signers: TSignerRow[] },
  documentName: string,
  links: { publicUrl: string; secrets: TSecretBox },
): TSignatureRequest {
  return {
    id: request.id,
    documentId: request.documentId,
    documentName,
    status: request.status,
    message: request.message,
    cc: request.cc,
    reminderDays: request.reminderDays,
    expiresAt: request.expiresAt.toISOString(),
    createdAt: request.createdAt.toISOString(),
    completedAt: isoOrNull(request.completedAt),
    endedAt: isoOrNull(request.endedAt),
    documentSha256: request.documentSha256,
    sealedSha256: request.sealedSha256,
    signers: signers.map((signer) => toSigner(signer, links)),
  };
}

const toEvent = (event: TAuditEvent): TSignatureEvent => ({ ...event, at: event.at.toISOString() });

/** The trail with the verdict of its hash chain against the head and count the request keeps. */
export function toAuditTrail(requestId: string, trail: TTrail): TAuditTrail {
  const check = checkChain(trail.events, trail);
  return { requestId, intact: check.intact, problem: check.intact ? null : check.reason, events: trail.events.map(toEvent) };
}
