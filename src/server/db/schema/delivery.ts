import { createdAt } from './columns.ts';
import { documents, bulkJobs } from './formats-and-documents.ts';
import { signatureRequests, signatureSigners } from './signing.ts';
import { ownerIdColumn } from './workspaces.ts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// Where documents go once made: webhooks, share links, mail merges and emails.

/** Where a user's events are sent; the signing secret is encrypted at rest (it must be read to sign). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secretEnc: text('secret_enc').notNull(),
    createdAt: createdAt(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
  },
  (table) => [index('webhook_endpoints_owner_idx').on(table.ownerId)],
);

/**
 * One event for one endpoint, and the queue of its attempts: a pending row is due at
 * `next_attempt_at`, and senders take due rows with `for update skip locked`, so several
 * processes share the work and each attempt is made once.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: createdAt(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (table) => [
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_endpoint_created_idx').on(table.endpointId, table.createdAt),
  ],
);

/**
 * Who may open a document without an account: `/s/{token}`. Only a SHA-256 of the token is looked
 * up (256 random bits, so a fast hash is enough); the token itself is kept sealed so its owner can
 * copy the link again. Expired and revoked links stay for the record and answer 404.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    tokenEnc: text('token_enc').notNull(),
    /** What made it: its owner, or an email whose PDF was too large to attach. */
    origin: text('origin', { enum: ['manual', 'email'] }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    views: integer('views').notNull().default(0),
    downloads: integer('downloads').notNull().default(0),
    lastViewedAt: timestamp('last_viewed_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('share_links_token_hash_idx').on(table.tokenHash), index('share_links_document_idx').on(table.documentId, table.createdAt)],
);

/**
 * "Email each document" of one finished batch: the address column and the templates. One per
 * batch, so a second click finds the first instead of sending again.
 */
export const mailMerges = pgTable(
  'mail_merges',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    jobId: text('job_id')
      .notNull()
      .references(() => bulkJobs.id, { onDelete: 'cascade' }),
    /** The spreadsheet column (0-based) holding each row's address, and its header. */
    addressColumn: integer('address_column').notNull(),
    addressHeader: text('address_header').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    cc: jsonb('cc').$type<string[]>().notNull(),
    total: integer('total').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('mail_merges_job_idx').on(table.jobId)],
);

/**
 * One email of one document, and the queue of its attempts: a queued row is due at
 * `next_attempt_at`; senders lease due rows with `for update skip locked`. A row is `sending` only
 * while its SMTP transaction runs, so one left `sending` by a sender that died is in doubt, and is
 * never sent again (an email cannot be taken back, a duplicate would be worse than asking).
 */
export const emailDeliveries = pgTable(
  'email_deliveries',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    to: jsonb('to').$type<string[]>().notNull(),
    cc: jsonb('cc').$type<string[]>().notNull(),
    /** To and Cc together: what the send rate counts. */
    recipientCount: integer('recipient_count').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** When the attempt under way (or the last one) began. */
    attemptedAt: timestamp('attempted_at', { withTimezone: true }),
    /** Which server took the last attempt. */
    transport: text('transport', { enum: ['own', 'system'] }),
    /** The SMTP server's own last answer, and what it means for the user. */
    smtpResponse: text('smtp_response'),
    error: text('error'),
    /** The PDF went as an attachment, or (too large to attach) as a share link. */
    attachment: text('attachment', { enum: ['pdf', 'link'] }),
    shareLinkId: text('share_link_id').references(() => shareLinks.id, { onDelete: 'set null' }),
    /** Set for a mail merge's row; the pair is unique, so a row is queued at most once. */
    mergeId: text('merge_id').references(() => mailMerges.id, { onDelete: 'cascade' }),
    batchRow: integer('batch_row'),
    /**
     * What the email carries: the document (`document`), a signer's link to sign it (`sign_invite`,
     * `sign_reminder`, with `signer_id`), or the sealed copy once everyone has signed (`signed_copy`,
     * with `signature_request_id`). The link itself is never stored here: it is made when sending.
     */
    purpose: text('purpose', { enum: ['document', 'sign_invite', 'sign_reminder', 'signed_copy'] })
      .notNull()
      .default('document'),
    signerId: text('signer_id').references(() => signatureSigners.id, { onDelete: 'cascade' }),
    signatureRequestId: text('signature_request_id').references(() => signatureRequests.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('email_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'queued'`),
    index('email_deliveries_document_idx').on(table.documentId, table.createdAt),
    index('email_deliveries_owner_created_idx').on(table.ownerId, table.createdAt),
    // The send rate: what an owner sent (or is sending) in the last hour.
    index('email_deliveries_owner_attempted_idx')
      .on(table.ownerId, table.attemptedAt)
      .where(sql`${table.status} in ('sent', 'sending')`),
    uniqueIndex('email_deliveries_merge_row_idx').on(table.mergeId, table.batchRow),
    index('email_deliveries_merge_status_idx').on(table.mergeId, table.status),
  ],
);
