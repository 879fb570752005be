import { z } from 'zod';
import { MAX_MESSAGE_LENGTH, MAX_RECIPIENTS, ZEmailAddress, ZHeaderText } from './mail.ts';
import { MAX_SIGNER_ROLE } from './placeholders.ts';
import { ZDocumentData } from './documents.ts';

/*
 * E-signing's calls: the owner's signature requests, the signer's page (no account), and the
 * public check of a sealed PDF (docs/e-signing.md). Shared by the server, the web app and the
 * OpenAPI document.
 */

export const SIGNATURE_REQUEST_STATUSES = ['sent', 'partly_signed', 'completed', 'declined', 'expired', 'cancelled'] as const;
export const ZSignatureRequestStatus = z.enum(SIGNATURE_REQUEST_STATUSES);
export type TSignatureRequestStatus = z.infer<typeof ZSignatureRequestStatus>;
/** A request still waiting for signatures; the others have ended. */
export const isOpenRequest = (status: TSignatureRequestStatus) => status === 'sent' || status === 'partly_signed';

/** `waiting`: a lower order has not finished; `notified`: their email is on its way or sent. */
/** What happened to a request, in the order it happened: the audit trail's event types. */
export const SIGNATURE_EVENT_TYPES = [
  'created',
  'sent',
  'delivered',
  'opened',
  'consented',
  'signed',
  'declined',
  'reminded',
  'expired',
  'cancelled',
  'completed',
  'sealed',
  'timestamp_failed',
] as const;
export type TSignatureEventType = (typeof SIGNATURE_EVENT_TYPES)[number];

const SIGNATURE_EVENT_TEXT: Record<TSignatureEventType, string> = {
  created: 'Created',
  sent: 'Invitation sent',
  delivered: 'Email delivered',
  opened: 'Opened the document',
  consented: 'Agreed to sign electronically',
  signed: 'Signed',
  declined: 'Declined',
  reminded: 'Reminder sent',
  expired: 'Expired',
  cancelled: 'Cancelled',
  completed: 'Completed',
  sealed: 'Sealed',
  timestamp_failed: 'Timestamp server failed',
};

/** An audit event in words, for the owner's panel and the certificate of completion. */
export const signatureEventText = (type: string): string =>
  SIGNATURE_EVENT_TEXT[type as TSignatureEventType] ?? type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, ' ');

export const SIGNER_STATUSES = ['waiting', 'notified', 'viewed', 'signed', 'declined'] as const;
export const ZSignerStatus = z.enum(SIGNER_STATUSES);
export type TSignerStatus = z.infer<typeof ZSignerStatus>;

export const MAX_SIGNERS = MAX_SIGNER_ROLE;
export const DEFAULT_SIGNING_DAYS = 30;
export const MAX_SIGNING_DAYS = 180;
export const DEFAULT_REMINDER_DAYS = [3, 7];

/**
 * What a signer agrees to before signing. Its version is recorded with each signature; change the
 * wording and the version together, never one without the other.
 */
export const CONSENT = {
  version: '2026-11',
  text:
    'I agree to sign this document electronically. My electronic signature is as valid as my handwritten one, ' +
    'and I may ask the sender for a paper copy. I have reviewed the document I am signing.',
} as const;

const ZPersonName = ZHeaderText(200, 'name').pipe(z.string().min(1, 'Enter the signer’s name.'));

export const ZSignerInput = z.object({
  name: ZPersonName,
  email: ZEmailAddress,
  /** Signers with equal numbers sign side by side; a higher number waits for every lower one. Default 1. */
  order: z
    .number()
    .int('Give the order as a whole number.')
    .min(1, 'The order starts at 1.')
    .max(MAX_SIGNERS, `The order is at most ${MAX_SIGNERS}.`)
    .optional(),
});
export type TSignerInput = z.input<typeof ZSignerInput>;

/** What sending for signature takes, whether for a document already made or (the API) one made from a format. */
const ZSignatureRequestFields = z.object({
  /** In the order of the format's signer roles: the first fills "Signer 1", the second "Signer 2", … */
  signers: z.array(ZSignerInput).min(1, 'Add at least one signer.').max(MAX_SIGNERS, `A document has at most ${MAX_SIGNERS} signers.`),
  /** Copy recipients: they receive the signed PDF and sign nothing. */
  cc: z.array(ZEmailAddress).max(MAX_RECIPIENTS, `Copy at most ${MAX_RECIPIENTS} people.`).optional(),
  message: z
    .string()
    .trim()
    .max(MAX_MESSAGE_LENGTH, `Keep the message under ${MAX_MESSAGE_LENGTH.toLocaleString('en-US')} characters.`)
    .optional(),
  /** Default 30. */
  expiresInDays: z
    .number()
    .int('Give whole days.')
    .min(1, 'A request stays open at least one day.')
    .max(MAX_SIGNING_DAYS, `A request stays open at most ${MAX_SIGNING_DAYS} days.`)
    .optional(),
  /** Days after sending on which those who have not signed are reminded; [] for none. Default [3, 7]. */
  reminderDays: z
    .array(z.number().int('Give whole days.').min(1, 'Remind after one day at the earliest.').max(MAX_SIGNING_DAYS, `Remind within ${MAX_SIGNING_DAYS} days.`))
    .max(5, 'Set at most five reminders.')
    .optional(),
});

/** Each signer has their own address, and the signing order counts 1, 2, 3 … without gaps. */
function checkSigners(body: { signers: { email: string; order?: number | undefined }[] }, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  body.signers.forEach((signer, index) => {
    if (seen.has(signer.email)) ctx.addIssue({ code: 'custom', path: ['signers', index, 'email'], message: 'Each signer needs their own email address.' });
    seen.add(signer.email);
  });
  const orders = [...new Set(body.signers.map((signer) => signer.order ?? 1))].sort((a, b) => a - b);
  if (orders.some((order, index) => order !== index + 1)) {
    ctx.addIssue({ code: 'custom', path: ['signers'], message: 'Number the signing order 1, 2, 3 … without gaps.' });
  }
}

export const ZCreateSignatureRequestBody = ZSignatureRequestFields.superRefine(checkSigners).meta({ id: 'CreateSignatureRequest' });
export type TCreateSignatureRequestBody = z.input<typeof ZCreateSignatureRequestBody>;

export const ZSigner = z
  .object({
    id: z.string(),
    /** Which "Signer N" of the format's signing fields this person fills. */
    role: z.number().int(),
    name: z.string(),
    email: z.string(),
    order: z.number().int(),
    status: ZSignerStatus,
    /** The signer's own link; only the request's owner sees it. */
    signUrl: z.string(),
    notifiedAt: z.string().nullable(),
    viewedAt: z.string().nullable(),
    signedAt: z.string().nullable(),
    declinedAt: z.string().nullable(),
    declineReason: z.string().nullable(),
  })
  .meta({ id: 'Signer' });
export type TSigner = z.infer<typeof ZSigner>;

export const ZSignatureRequest = z
  .object({
    id: z.string(),
    documentId: z.string(),
    documentName: z.string(),
    status: ZSignatureRequestStatus,
    message: z.string().nullable(),
    cc: z.array(z.string()),
    reminderDays: z.array(z.number().int()),
    expiresAt: z.string(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    /** When it was declined, expired or cancelled. */
    endedAt: z.string().nullable(),
    /** SHA-256 of the PDF that was sent, and of the sealed one once everyone has signed. */
    documentSha256: z.string(),
    sealedSha256: z.string().nullable(),
    signers: z.array(ZSigner),
  })
  .meta({ id: 'SignatureRequest' });
export type TSignatureRequest = z.infer<typeof ZSignatureRequest>;

export const ZSignatureEvent = z
  .object({
    seq: z.number().int(),
    at: z.string(),
    type: z.string(),
    signerId: z.string().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    documentSha256: z.string(),
    details: z.record(z.string(), z.unknown()),
    prevHash: z.string(),
    hash: z.string(),
  })
  .meta({ id: 'SignatureEvent' });
export type TSignatureEvent = z.infer<typeof ZSignatureEvent>;

/** The audit trail, and whether its hash chain is whole. */
export const ZAuditTrail = z
  .object({
    requestId: z.string(),
    intact: z.boolean(),
    /** Why the chain is broken, when it is. */
    problem: z.string().nullable(),
    events: z.array(ZSignatureEvent),
  })
  .meta({ id: 'AuditTrail' });
export type TAuditTrail = z.infer<typeof ZAuditTrail>;

export const ZSignatureRequestDetail = ZSignatureRequest.extend({ audit: ZAuditTrail }).meta({ id: 'SignatureRequestDetail' });
export type TSignatureRequestDetail = z.infer<typeof ZSignatureRequestDetail>;

/* The signer's side. */

export const ZSignToken = z.object({ token: z.string().max(200) });

/** A drawn or uploaded mark: a PNG as base64 (a `data:image/png;base64,` prefix is accepted). */
const ZPngBase64 = z
  .string()
  .max(1_400_000, 'The image is too large: keep it under 1 MB.')
  .transform((value) => value.replace(/^data:image\/png;base64,/, ''))
  .refine((value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value), { message: 'Send the image as base64-encoded PNG.' });

export const ZSignatureMarkInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('typed'), text: ZHeaderText(100, 'signature').pipe(z.string().min(1, 'Type your signature.')) }),
  z.object({ type: z.literal('drawn'), png: ZPngBase64 }),
  z.object({ type: z.literal('uploaded'), png: ZPngBase64 }),
]);
export type TSignatureMarkInput = z.input<typeof ZSignatureMarkInput>;

export const ZSignBody = z
  .object({
    consent: z.literal(true, { message: 'Agree to sign electronically first.' }),
    signature: ZSignatureMarkInput,
    initials: ZSignatureMarkInput.optional(),
  })
  .meta({ id: 'Sign' });
export type TSignBody = z.input<typeof ZSignBody>;

export const ZDeclineBody = z
  .object({ reason: z.string().trim().min(1, 'Say why you decline, so the sender knows.').max(1_000, 'Keep the reason under 1,000 characters.') })
  .meta({ id: 'DeclineSigning' });
export type TDeclineBody = z.input<typeof ZDeclineBody>;

/** One place the signer fills: a signing placeholder of their role. */
export const ZSigningField = z.object({ name: z.string(), label: z.string(), type: z.enum(['signature', 'initials', 'signed_date', 'signer_name']) });
export type TSigningField = z.infer<typeof ZSigningField>;

/** What the signing page shows. `turn` says whether the signer may sign now. */
export const ZSigningSession = z
  .object({
    documentName: z.string(),
    /** Who sent it: the owner's name. */
    senderName: z.string(),
    message: z.string().nullable(),
    signer: z.object({ name: z.string(), email: z.string(), role: z.number().int(), status: ZSignerStatus }),
    /** `waiting`: someone earlier in the order has not signed yet, so the page shows the document but no Sign. */
    turn: z.enum(['now', 'waiting']),
    /** While waiting: who signs before this signer. */
    waitingFor: z.array(z.string()),
    fields: z.array(ZSigningField),
    /** Whether the format asks for initials (then the page asks for them too). */
    needsInitials: z.boolean(),
    pdfUrl: z.string(),
    consent: z.object({ version: z.string(), text: z.string() }),
    expiresAt: z.string(),
  })
  .meta({ id: 'SigningSession' });
export type TSigningSession = z.infer<typeof ZSigningSession>;

export const ZSignResult = z.object({ status: ZSignerStatus, requestStatus: ZSignatureRequestStatus }).meta({ id: 'SignResult' });
export type TSignResult = z.infer<typeof ZSignResult>;

/* Anyone: is this PDF one we sealed, and unchanged? */

export const ZVerifyResult = z
  .object({
    /** Sealed by this installation and unchanged since. */
    valid: z.boolean(),
    /** Why not, when it is not. */
    reason: z.string().nullable(),
    sha256: z.string(),
    request: z
      .object({
        documentName: z.string(),
        status: ZSignatureRequestStatus,
        completedAt: z.string().nullable(),
        signers: z.array(z.object({ name: z.string(), email: z.string(), signedAt: z.string().nullable() })),
        /** Whether the request's audit trail is whole. */
        auditIntact: z.boolean(),
      })
      .nullable(),
  })
  .meta({ id: 'VerifyResult' });
export type TVerifyResult = z.infer<typeof ZVerifyResult>;

/** The API's form: a document already made (`documentId`), or one made now from `formatId` and `data`. */
export const ZV1CreateSignatureRequestBody = ZSignatureRequestFields.extend({
  documentId: z.string().min(1).max(64).optional(),
  formatId: z.string().min(1).max(64).optional(),
  data: ZDocumentData.optional(),
})
  .superRefine(checkSigners)
  .refine((body) => (body.documentId === undefined) !== (body.formatId === undefined), {
    message: 'Give either a documentId, or a formatId with data.',
    path: ['documentId'],
  })
  .refine((body) => body.formatId !== undefined || body.data === undefined, { message: 'Send data only with a formatId.', path: ['data'] })
  .meta({ id: 'CreateSignatureRequestV1' });

/* A finished batch: "Send each for signature", one request per row. */

export const ZBatchSignatureBody = ZSignatureRequestFields.omit({ signers: true })
  .extend({
    /** The spreadsheet columns (0-based) holding each row's signer's name and email address. */
    nameColumn: z.number().int().min(0).max(1000),
    emailColumn: z.number().int().min(0).max(1000),
  })
  .meta({ id: 'BatchSignatureRequests' });
export type TBatchSignatureBody = z.input<typeof ZBatchSignatureBody>;

/** What sending a batch did: requests made now, rows sent before (left alone), and rows that could not be sent. */
export const ZBatchSignatureResult = z
  .object({
    total: z.number().int(),
    created: z.number().int(),
    alreadySent: z.number().int(),
    failed: z.array(z.object({ row: z.number().int(), problem: z.string() })),
  })
  .meta({ id: 'BatchSignatureResult' });
export type TBatchSignatureResult = z.infer<typeof ZBatchSignatureResult>;

/** Where a batch's requests stand: how many are in each status. */
export const ZBatchSignatureProgress = z
  .object({ requests: z.number().int(), byStatus: z.record(ZSignatureRequestStatus, z.number().int()) })
  .meta({ id: 'BatchSignatureProgress' });
export type TBatchSignatureProgress = z.infer<typeof ZBatchSignatureProgress>;
