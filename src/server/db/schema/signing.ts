import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { SIGNATURE_REQUEST_STATUSES, SIGNER_STATUSES } from '../../../contract/signature-requests.ts';
import { bytea, createdAt } from './columns.ts';
import { bulkJobs, documents } from './formats-and-documents.ts';
import { ownerIdColumn } from './workspaces.ts';

// E-signing: requests, their signers, the audit trail, and the installation's seal.

/** One document sent for signature. Its signers sign in `order`; equal numbers sign side by side. */
export const signatureRequests = pgTable(
  'signature_requests',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    status: text('status', { enum: SIGNATURE_REQUEST_STATUSES }).notNull().default('sent'),
    message: text('message'),
    /** Copy recipients: they get the sealed PDF and sign nothing. */
    cc: jsonb('cc').$type<string[]>().notNull().default([]),
    /** Days after sending on which signers who have not signed are reminded. */
    reminderDays: jsonb('reminder_days').$type<number[]>().notNull().default([3, 7]),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** SHA-256 of the document's PDF when it was sent; every audit row names it. */
    documentSha256: text('document_sha256').notNull(),
    /** The sealed PDF's SHA-256 once everyone has signed. */
    sealedSha256: text('sealed_sha256'),
    /** The audit trail's last hash and length: removing its newest rows breaks them too. */
    eventsHead: text('events_head').notNull().default(''),
    eventCount: integer('event_count').notNull().default(0),
    /** The batch row it was sent for: one request per row, however often the batch is sent. */
    batchId: text('batch_id').references(() => bulkJobs.id, { onDelete: 'set null' }),
    batchRow: integer('batch_row'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /**
     * When the request next needs the server's attention unasked: a reminder, its expiry, or
     * sealing once everyone has signed. Null when it has ended. Workers lease it as a queue row.
     */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
  },
  (table) => [
    index('signature_requests_owner_created_idx').on(table.ownerId, table.createdAt),
    index('signature_requests_document_idx').on(table.documentId),
    uniqueIndex('signature_requests_batch_row_idx')
      .on(table.batchId, table.batchRow)
      .where(sql`${table.batchId} is not null`),
    index('signature_requests_sealed_idx').on(table.sealedSha256),
    index('signature_requests_due_idx')
      .on(table.nextCheckAt)
      .where(sql`${table.nextCheckAt} is not null`),
  ],
);

/** A person who signs one request. Their link's token is kept sealed, and found by its SHA-256. */
export const signatureSigners = pgTable(
  'signature_signers',
  {
    id: text('id').primaryKey(),
    requestId: text('request_id')
      .notNull()
      .references(() => signatureRequests.id, { onDelete: 'cascade' }),
    /** Which "Signer N" of the format's signing fields this person fills. */
    role: integer('role').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    order: integer('order').notNull(),
    status: text('status', { enum: SIGNER_STATUSES }).notNull().default('waiting'),
    tokenHash: text('token_hash').notNull(),
    tokenEnc: text('token_enc').notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    lastRemindedAt: timestamp('last_reminded_at', { withTimezone: true }),
    viewedAt: timestamp('viewed_at', { withTimezone: true }),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    declineReason: text('decline_reason'),
    /** The consent wording's version the signer agreed to. */
    consentVersion: text('consent_version'),
    /** A typed signature's text, or null for a drawn or uploaded one (then `signature_png`). */
    signatureText: text('signature_text'),
    signaturePng: bytea('signature_png'),
    initialsText: text('initials_text'),
    initialsPng: bytea('initials_png'),
  },
  (table) => [uniqueIndex('signature_signers_token_hash_idx').on(table.tokenHash), index('signature_signers_request_idx').on(table.requestId, table.order)],
);

/**
 * The audit trail: rows are only ever added. Each carries the hash of the row before it in the
 * same request, so a row changed or removed later breaks the chain that /verify checks.
 */
export const signatureEvents = pgTable(
  'signature_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: text('request_id')
      .notNull()
      .references(() => signatureRequests.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    type: text('type').notNull(),
    signerId: text('signer_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    documentSha256: text('document_sha256').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (table) => [uniqueIndex('signature_events_request_seq_idx').on(table.requestId, table.seq)],
);

/** The sealed PDF of a completed request: it cannot be made again (the seal holds its time), so it is kept. */
export const signedDocuments = pgTable('signed_documents', {
  requestId: text('request_id')
    .primaryKey()
    .references(() => signatureRequests.id, { onDelete: 'cascade' }),
  pdf: bytea('pdf').notNull(),
  createdAt: createdAt(),
});

/**
 * The installation's seal certificates, newest last. Old ones stay so that documents they sealed
 * still verify. The private key is stored sealed under ENCRYPTION_KEY.
 */
export const sealKeys = pgTable(
  'seal_keys',
  {
    id: text('id').primaryKey(),
    source: text('source', { enum: ['generated', 'uploaded'] }).notNull(),
    /** DER certificates. */
    sealCertificate: bytea('seal_certificate').notNull(),
    caCertificate: bytea('ca_certificate').notNull(),
    privateKeyEnc: text('private_key_enc').notNull(),
    createdAt: createdAt(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  // One seal in use at a time: two processes that both make the first one keep the same.
  (table) => [
    uniqueIndex('seal_keys_in_use_idx')
      .on(sql`(true)`)
      .where(sql`${table.retiredAt} is null`),
  ],
);
