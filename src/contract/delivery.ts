import { z } from 'zod';
import { MAX_MESSAGE_LENGTH, MAX_RECIPIENTS, MAX_SUBJECT_LENGTH, ZEmailAddress, ZHeaderText } from './mail.ts';

/*
 * Delivering documents: emails (one document, or each document of a batch), their log, and links
 * that open a document without an account.
 */

/** A PDF larger than this goes as a share link instead of an attachment. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

const recipientCount = (body: { to: string[]; cc?: string[] }) => body.to.length + (body.cc?.length ?? 0);

export const ZEmailDocumentBody = z
  .object({
    to: z.array(ZEmailAddress).min(1, 'Add at least one recipient.').max(MAX_RECIPIENTS, `Send to at most ${MAX_RECIPIENTS} people at once.`),
    cc: z.array(ZEmailAddress).max(MAX_RECIPIENTS, `Send to at most ${MAX_RECIPIENTS} people at once.`).optional(),
    /** The document's name when left out. */
    subject: ZHeaderText(MAX_SUBJECT_LENGTH, 'subject').optional(),
    /** A short note above the attachment; a greeting that names the document when left out. */
    message: z
      .string()
      .max(MAX_MESSAGE_LENGTH, `Keep the message under ${MAX_MESSAGE_LENGTH.toLocaleString('en-US')} characters.`)
      .optional(),
  })
  .refine((body) => recipientCount(body) <= MAX_RECIPIENTS, { message: `To and Cc together may name at most ${MAX_RECIPIENTS} people.`, path: ['to'] })
  .meta({ id: 'EmailDocument' });
export type TEmailDocumentBody = z.input<typeof ZEmailDocumentBody>;

export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export const ZDeliveryStatus = z.enum(DELIVERY_STATUSES);
export type TDeliveryStatus = z.infer<typeof ZDeliveryStatus>;

/** One email of one document: who it went to, where it stands, and what the mail server said. */
export const ZDelivery = z
  .object({
    id: z.string(),
    documentId: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    subject: z.string(),
    status: ZDeliveryStatus,
    attempts: z.number().int(),
    /** Which server took the last attempt: the user's own, or the installation's. */
    transport: z.enum(['own', 'system']).nullable(),
    /** The SMTP server's own last answer. */
    smtpResponse: z.string().nullable(),
    /** Why the last attempt failed, in words. */
    error: z.string().nullable(),
    /** `link`: the PDF was too large to attach and went as a share link. */
    attachment: z.enum(['pdf', 'link']).nullable(),
    createdAt: z.string(),
    attemptedAt: z.string().nullable(),
    sentAt: z.string().nullable(),
    /** When a queued email will be tried (again). */
    nextAttemptAt: z.string().nullable(),
  })
  .meta({ id: 'Delivery' });
export type TDelivery = z.infer<typeof ZDelivery>;

/** The delivery log across documents: each email with its document's name. */
export const ZDeliveryWithDocument = ZDelivery.extend({ documentName: z.string() });
export type TDeliveryWithDocument = z.infer<typeof ZDeliveryWithDocument>;

export const DEFAULT_SHARE_DAYS = 7;
export const MAX_SHARE_DAYS = 90;
/** Links made for emails whose PDF is too large to attach stay open this long. */
export const EMAIL_SHARE_DAYS = 30;

export const ZCreateShareLinkBody = z
  .object({
    expiresInDays: z
      .number()
      .int('Give whole days.')
      .min(1, 'A link stays open at least one day.')
      .max(MAX_SHARE_DAYS, `A link stays open at most ${MAX_SHARE_DAYS} days.`)
      .default(DEFAULT_SHARE_DAYS),
  })
  .meta({ id: 'CreateShareLink' });
export type TCreateShareLinkBody = z.input<typeof ZCreateShareLinkBody>;

export const ZShareLink = z
  .object({
    id: z.string(),
    /** Opens the document without an account: `/s/{token}`. */
    url: z.string(),
    createdAt: z.string(),
    expiresAt: z.string(),
    revokedAt: z.string().nullable(),
    /** Whether the link opens the document now (not expired, not revoked). */
    active: z.boolean(),
    views: z.number().int(),
    downloads: z.number().int(),
    lastViewedAt: z.string().nullable(),
    /** `email`: made for an email whose PDF was too large to attach. */
    origin: z.enum(['manual', 'email']),
  })
  .meta({ id: 'ShareLink' });
export type TShareLink = z.infer<typeof ZShareLink>;

/** What a share link's page shows: the document's name and dates, nothing else of its owner's. */
export const ZSharedDocument = z.object({
  name: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  sizeBytes: z.number().int(),
});
export type TSharedDocument = z.infer<typeof ZSharedDocument>;

/** A share link's token: 32 random bytes in base64url (256 bits). */
export const SHARE_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
/** Anything else in its place is a link that does not exist (404), not a malformed request. */
export const ZShareToken = z.object({ token: z.string().max(200) });

/* Mail merge: "Email each document" of a finished batch. */

export const ZMailMergeBody = z.object({
  /** The spreadsheet column (0-based) holding each row's address. */
  addressColumn: z.number().int().min(0).max(1000),
  /**
   * Templates for each row (the defaults when left out). An account that may not write its own
   * words (`ownWords` false) leaves both out and sends the standard email.
   */
  subject: ZHeaderText(MAX_SUBJECT_LENGTH, 'subject').pipe(z.string().min(1, 'Enter a subject.')).optional(),
  message: z
    .string()
    .max(MAX_MESSAGE_LENGTH, `Keep the message under ${MAX_MESSAGE_LENGTH.toLocaleString('en-US')} characters.`)
    .optional(),
  /** Copied on every message (a colleague, a CRM's address). */
  cc: z
    .array(ZEmailAddress)
    .max(MAX_RECIPIENTS - 1)
    .default([]),
});
export type TMailMergeBody = z.input<typeof ZMailMergeBody>;

export const ZMailMergeColumn = z.object({
  index: z.number().int(),
  header: z.string(),
  /** The placeholder the column fills, if any. */
  placeholder: z.string().nullable(),
  /** How many of the batch's documents have a valid address in this column. */
  addresses: z.number().int(),
  sample: z.string().nullable(),
});

export const ZMailMerge = z.object({
  id: z.string(),
  jobId: z.string(),
  addressHeader: z.string(),
  subject: z.string(),
  message: z.string(),
  cc: z.array(z.string()),
  total: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** Every row is sent or failed. */
  finished: z.boolean(),
  /** When the next queued message goes out, when the send rate holds them back; null when they are going now. */
  nextSendAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TMailMerge = z.infer<typeof ZMailMerge>;

export const ZMailMergeOptions = z.object({
  columns: z.array(ZMailMergeColumn),
  /** The column that most looks like addresses. */
  suggestedColumn: z.number().int().nullable(),
  /** Placeholders the templates may use, besides {{document}}. */
  placeholders: z.array(z.object({ name: z.string(), label: z.string() })),
  defaults: z.object({ subject: z.string(), message: z.string() }),
  /** Documents in the batch, each one message. */
  documents: z.number().int(),
  emailsPerHour: z.number().int(),
  sendsWith: z.enum(['own', 'system', 'none']),
  /** As in the email settings: whether the subject and message are the sender's own, and why not. */
  ownWords: z.boolean(),
  ownWordsNote: z.string().nullable(),
  senderName: z.string(),
  merge: ZMailMerge.nullable(),
});
export type TMailMergeOptions = z.infer<typeof ZMailMergeOptions>;

export const ZMailMergePreview = z.object({
  /** The first document's message, as it will be sent. */
  first: z
    .object({
      row: z.number().int(),
      to: z.string(),
      cc: z.array(z.string()),
      subject: z.string(),
      message: z.string(),
      attachmentName: z.string(),
    })
    .nullable(),
  valid: z.number().int(),
  invalid: z.number().int(),
  /** The first rows whose address cannot be used, and why. */
  problems: z.array(z.object({ row: z.number().int(), address: z.string(), message: z.string() })),
  /** Tags in the templates that name no placeholder: they print as nothing. */
  unknownPlaceholders: z.array(z.string()),
});
export type TMailMergePreview = z.infer<typeof ZMailMergePreview>;

export const ZMailMergeRow = z.object({
  row: z.number().int(),
  to: z.string(),
  status: ZDeliveryStatus,
  error: z.string().nullable(),
  smtpResponse: z.string().nullable(),
  sentAt: z.string().nullable(),
});

export const ZMailMergeRowsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(['failed', 'sent', 'queued']).optional(),
});
export const ZMailMergeRowPage = z.object({ rows: z.array(ZMailMergeRow), total: z.number().int() });
export type TMailMergeRowPage = z.infer<typeof ZMailMergeRowPage>;

/** Subject and message tags: the format's placeholders, and the document's name. */
export const DOCUMENT_NAME_TAG = 'document';

/** The first message's default subject and body; {{document}} is the document's name. */
export const DEFAULT_MERGE_SUBJECT = '{{document}}';
export const DEFAULT_MERGE_MESSAGE = 'Hello,\n\nPlease find {{document}} attached.\n\nBest regards';

/** Names longer than this are cut in the standard email, so a name cannot carry a message of its own. */
export const STANDARD_NAME_MAX = 80;
const shortName = (text: string) => {
  const flat = text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > STANDARD_NAME_MAX ? `${flat.slice(0, STANDARD_NAME_MAX - 1).trimEnd()}…` : flat;
};

/**
 * The standard email, for accounts that may not write their own words (the Free plan, through the
 * installation's mail server): a subject and message that name the document and the sender, and
 * nothing else. The server sends it and the email dialog shows it, from this one function.
 */
export function standardEmail(documentName: string, senderName: string): { subject: string; message: string } {
  const document = shortName(documentName);
  const sender = shortName(senderName);
  return {
    subject: `${document} from ${sender}`,
    message: `Hello,\n\n${sender} sent you ${document} with Formwork.\n\nReply to this email to reach ${sender}.`,
  };
}

/** The greeting an email carries when its sender wrote none. */
export function defaultEmailMessage(documentName: string): string {
  return `Hello,\n\nPlease find ${documentName} attached.\n\nBest regards`;
}
