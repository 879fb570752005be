import { sql } from 'drizzle-orm';
import type { TRenderWarning } from '../../contract/documents.ts';
import type { TFormatContent } from '../../contract/format-content.ts';
import type { TInvoiceDetails } from '../../contract/billing.ts';
import type { TFilledValues } from '../../contract/filled-values.ts';
import type { TPlaceholder } from '../../contract/placeholders.ts';
import { boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * The auth library's user row, extended with the product's profile and plan columns. The TS keys
 * are what better-auth addresses (its field names), the SQL names stay snake_case.
 */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  firstName: text('first_name'),
  lastName: text('last_name'),
  role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
  subscriptionPlan: text('subscription_plan', { enum: ['free', 'basic', 'premium', 'enterprise'] })
    .notNull()
    .default('free'),
  apiEnabled: boolean('api_enabled').notNull().default(false),
  /** Per-user override of the plan's monthly generation limit (admins set it for enterprise). */
  apiCallsLimit: integer('api_calls_limit'),
  enterpriseEmail: text('enterprise_email'),
  /** AES-GCM ciphertext; never leaves the server. */
  enterpriseEmailPasswordEnc: text('enterprise_email_password_enc'),
  smtpHost: text('smtp_host'),
  smtpPort: integer('smtp_port'),
  smtpSecure: boolean('smtp_secure').notNull().default(true),
  /**
   * The start of the paid period the generation quota counts in (ISO), or null: the calendar month.
   * Billing sets it when a period starts, so the quota resets at the period boundary.
   */
  quotaPeriod: text('quota_period'),
  /** Set by the auth library's two-factor plugin once a second factor is confirmed. */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  /** Set while an admin has suspended the account: no session, API key or sign-in works. */
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The auth library's two-factor rows (modules/auth/two-factor.ts): the TOTP secret and the
 * recovery codes, both encrypted by the library with the auth secret. `verified` stays false
 * until the first code confirms the authenticator app.
 */
export const twoFactors = pgTable(
  'two_factor',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (table) => [uniqueIndex('two_factor_user_id_idx').on(table.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('accounts_user_id_idx').on(table.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('verifications_identifier_idx').on(table.identifier)],
);

/**
 * One row per owner and calendar month (UTC, 'YYYY-MM'). Every generation, from any channel,
 * increments it in the same statement that checks the limit, so concurrent requests stay exact.
 */
export const usageCounters = pgTable(
  'usage_counters',
  {
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    generations: integer('generations').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.ownerId, table.period] })],
);

/**
 * The sign-in throttle's and the sign-up limit's counters (modules/auth/sign-in-throttle.ts), kept
 * here so every app process on the database shares them: a count in a fixed window and, once the
 * count has earned one, the time before which the next attempt is refused. Keys are digests, so
 * the table holds no email or IP address.
 */
export const signInCounters = pgTable('sign_in_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowEnds: timestamp('window_ends', { withTimezone: true }).notNull(),
  waitUntil: timestamp('wait_until', { withTimezone: true }),
});

export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  description: text('description'),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});

/**
 * What users sent through the installation's mail server each UTC day (every attempt, each
 * recipient once): the count the admin's daily cap (`mail.daily_limit`) is held to, shared by
 * every process on the database.
 */
export const systemMailDays = pgTable('system_mail_days', {
  /** The UTC day, YYYY-MM-DD. */
  day: text('day').primaryKey(),
  recipients: integer('recipients').notNull(),
});

export const formats = pgTable(
  'formats',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** The current FormatContent (src/contract/format-content.ts). */
    content: jsonb('content').$type<TFormatContent>().notNull(),
    placeholders: jsonb('placeholders').$type<TPlaceholder[]>().notNull(),
    /** Goes up on every save; documents pin the version they were made from. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('formats_owner_updated_idx').on(table.ownerId, table.updatedAt)],
);

/**
 * An immutable copy of a format as it was at one version. Documents point here, so editing or
 * deleting the format never changes a document already generated.
 */
export const formatSnapshots = pgTable(
  'format_snapshots',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    formatId: text('format_id').notNull(),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    content: jsonb('content').$type<TFormatContent>().notNull(),
    placeholders: jsonb('placeholders').$type<TPlaceholder[]>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('format_snapshots_format_version_idx').on(table.formatId, table.version)],
);

export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null once the format is deleted; the document keeps its own copy of what it was made from. */
    formatId: text('format_id').references(() => formats.id, { onDelete: 'set null' }),
    formatName: text('format_name').notNull(),
    formatVersion: integer('format_version').notNull(),
    snapshotId: text('snapshot_id')
      .notNull()
      .references(() => formatSnapshots.id),
    name: text('name').notNull(),
    clientName: text('client_name').notNull(),
    data: jsonb('data').$type<TFilledValues>().notNull(),
    status: text('status').notNull().default('generated'),
    /** SHA-256 of the PDF bytes at generation; every later render must match it. */
    pdfSha256: text('pdf_sha256').notNull(),
    /** What the renderer could not draw as asked (missing glyphs, images), kept to show the user. */
    renderWarnings: jsonb('render_warnings').$type<TRenderWarning[]>().notNull().default([]),
    /** The bulk job (batch) that made it, and its spreadsheet row; null for single documents. */
    batchId: text('batch_id').references(() => bulkJobs.id, { onDelete: 'set null' }),
    batchRow: integer('batch_row'),
    /** Made with a test key: watermarked, not counted, and deleted at `expiresAt`. */
    testMode: boolean('test_mode').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('documents_expires_idx').on(table.expiresAt).where(sql`${table.expiresAt} is not null`),
    index('documents_owner_created_idx').on(table.ownerId, table.createdAt),
    // Recent Documents lists documents made one at a time without stepping over batches of thousands.
    index('documents_owner_single_created_idx').on(table.ownerId, table.createdAt).where(sql`${table.batchId} is null`),
    // Exactly one document per job and row, however often a chunk is retried after a crash.
    uniqueIndex('documents_batch_row_idx').on(table.batchId, table.batchRow),
  ],
);

/**
 * One spreadsheet upload: a draft while the user maps columns, then the job that generates its
 * valid rows. Its id is the batch id of the documents it makes.
 */
export const bulkJobs = pgTable(
  'bulk_jobs',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    formatId: text('format_id').references(() => formats.id, { onDelete: 'set null' }),
    formatName: text('format_name').notNull(),
    /** The format version the rows are generated from, pinned when the job starts. */
    snapshotId: text('snapshot_id').references(() => formatSnapshots.id),
    fileName: text('file_name').notNull(),
    fileNamePattern: text('file_name_pattern').notNull(),
    status: text('status', { enum: ['draft', 'queued', 'running', 'completed', 'cancelled', 'failed'] }).notNull(),
    columns: jsonb('columns').$type<string[]>().notNull(),
    mapping: jsonb('mapping').$type<Record<string, number | null>>().notNull(),
    /** The parsed rows while a draft ({row, cells}[]); cleared once the job starts. */
    sourceRows: jsonb('source_rows').$type<{ row: number; cells: string[]; lines?: Record<string, Record<string, string>[]> }[] | null>(),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    message: text('message'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('bulk_jobs_owner_created_idx').on(table.ownerId, table.createdAt),
    index('bulk_jobs_status_idx').on(table.status),
  ],
);

/** One spreadsheet row of a started job: what to generate, and what became of it. */
export const bulkRows = pgTable(
  'bulk_rows',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => bulkJobs.id, { onDelete: 'cascade' }),
    /** The row number as the spreadsheet shows it (the header is row 1). */
    row: integer('row').notNull(),
    /** Position among the job's rows, 0-based; chunks are ranges of it. */
    seq: integer('seq').notNull(),
    data: jsonb('data').$type<TFilledValues>().notNull(),
    /** A pending row is done once its document exists (documents.batch_id, batch_row). */
    status: text('status', { enum: ['pending', 'failed', 'invalid', 'cancelled'] }).notNull(),
    /** Column or placeholder label -> message, for invalid and failed rows. */
    errors: jsonb('errors').$type<Record<string, string>>(),
    /**
     * The row's cells in columns that fill no placeholder, by column index: what a mail merge may
     * address the row's document to (an email column the document does not print).
     */
    extra: jsonb('extra').$type<Record<string, string>>(),
  },
  (table) => [
    primaryKey({ columns: [table.jobId, table.row] }),
    index('bulk_rows_job_seq_idx').on(table.jobId, table.seq),
  ],
);

/**
 * Image bytes an owner uploaded, or fetched once from a URL they gave. Stored in the database so a
 * backup holds everything; only PNG and JPEG are kept (other types are converted on the way in).
 */
export const assets = pgTable(
  'assets',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mimeType: text('mime_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
    bytes: bytea('bytes').notNull(),
    sha256: text('sha256').notNull(),
    /** Set when the asset caches an image given by URL. */
    sourceUrl: text('source_url'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('assets_owner_source_url_idx').on(table.ownerId, table.sourceUrl)],
);

/**
 * Keys for the API. Only a SHA-256 of the key is kept (a key is 32 random bytes, so a fast hash is
 * enough); the key itself is shown once, when it is made. A revoked key stays for the record.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    keyHash: text('key_hash').notNull(),
    last4: text('last4').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('api_keys_hash_idx').on(table.keyHash), index('api_keys_owner_idx').on(table.ownerId)],
);

/**
 * Requests per key and minute: one row per key and window, counted by an upsert, so every app
 * process on one database shares the count. Old windows are swept.
 */
export const apiRateWindows = pgTable(
  'api_rate_windows',
  {
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    requests: integer('requests').notNull(),
  },
  (table) => [primaryKey({ columns: [table.keyId, table.windowStart] })],
);

/** One API request, kept for a retention period and then rolled up into api_usage_daily. */
export const apiRequests = pgTable(
  'api_requests',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    /** The route's pattern (`/api/v1/documents/:id`), never the URL with its ids and query. */
    route: text('route').notNull(),
    status: integer('status').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** Documents the request made (1 for a document, the rows of a batch). */
    documents: integer('documents').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [index('api_requests_owner_created_idx').on(table.ownerId, table.createdAt), index('api_requests_created_idx').on(table.createdAt)],
);

/** A day of one key's requests, rolled up from api_requests once the day is over. */
export const apiUsageDaily = pgTable(
  'api_usage_daily',
  {
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** YYYY-MM-DD in UTC. */
    day: text('day').notNull(),
    ok: integer('ok').notNull(),
    clientErrors: integer('client_errors').notNull(),
    serverErrors: integer('server_errors').notNull(),
    documents: integer('documents').notNull(),
    p50Ms: integer('p50_ms').notNull(),
    p95Ms: integer('p95_ms').notNull(),
  },
  (table) => [primaryKey({ columns: [table.keyId, table.day] }), index('api_usage_daily_owner_day_idx').on(table.ownerId, table.day)],
);

/**
 * The first answer to a request with an Idempotency-Key, replayed to repeats for 24 hours. A row
 * without a status is a request still running.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the method, route and body: the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    body: jsonb('body'),
    location: text('location'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.ownerId, table.key] }), index('idempotency_keys_created_idx').on(table.createdAt)],
);

/** A document asked for with `Prefer: respond-async`, until it exists (or failed). */
export const asyncDocuments = pgTable('async_documents', {
  id: text('id').primaryKey(),
  ownerId: text('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['pending', 'failed'] }).notNull(),
  error: jsonb('error').$type<{ code: string; message: string }>(),
  /** Asked for with a test key: only test keys see it, as with the document it becomes. */
  testMode: boolean('test_mode').notNull().default(false),
  createdAt: createdAt(),
});

/** Where a user's events are sent; the signing secret is encrypted at rest (it must be read to sign). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
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
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('email_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'queued'`),
    index('email_deliveries_document_idx').on(table.documentId, table.createdAt),
    index('email_deliveries_owner_created_idx').on(table.ownerId, table.createdAt),
    // The send rate: what an owner sent (or is sending) in the last hour.
    index('email_deliveries_owner_attempted_idx').on(table.ownerId, table.attemptedAt).where(sql`${table.status} in ('sent', 'sending')`),
    uniqueIndex('email_deliveries_merge_row_idx').on(table.mergeId, table.batchRow),
    index('email_deliveries_merge_status_idx').on(table.mergeId, table.status),
  ],
);

export const paymentGateways = pgTable('payment_gateways', {
  id: text('id').primaryKey(),
  gatewayName: text('gateway_name', { enum: ['razorpay', 'stripe', 'paypal'] }).notNull(),
  isActive: boolean('is_active').notNull().default(false),
  keyId: text('key_id').notNull(),
  /** AES-GCM ciphertexts (src/server/crypto/secret-box.ts); never sent to a browser. */
  keySecretEnc: text('key_secret_enc'),
  webhookSecretEnc: text('webhook_secret_enc'),
  configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

const PLAN_IDS = ['free', 'basic', 'premium', 'enterprise'] as const;
const GATEWAYS = ['razorpay', 'stripe', 'paypal'] as const;
const CYCLES = ['monthly', 'yearly'] as const;

/**
 * A user's paid subscription, one row per user, kept after it ends. The user's plan in force is
 * `users.subscription_plan`; this row says how it is paid and until when.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    ownerId: text('owner_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: text('plan_id', { enum: PLAN_IDS }).notNull(),
    cycle: text('cycle', { enum: CYCLES }).notNull(),
    gateway: text('gateway', { enum: GATEWAYS }).notNull(),
    /** active: paid up; past_due: the renewal failed or is late (grace); ended: back on free. */
    status: text('status', { enum: ['active', 'past_due', 'ended'] }).notNull(),
    /** Stripe's subscription and customer; null for one-off orders (Razorpay, PayPal). */
    gatewaySubscriptionId: text('gateway_subscription_id'),
    gatewayCustomerId: text('gateway_customer_id'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    /** The user cancelled: the plan runs to the period's end, then the account returns to free. */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A downgrade waiting for the period's end. */
    scheduledPlanId: text('scheduled_plan_id', { enum: PLAN_IDS }),
    scheduledCycle: text('scheduled_cycle', { enum: CYCLES }),
    /** When a past-due subscription falls back to free. */
    graceEndsAt: timestamp('grace_ends_at', { withTimezone: true }),
    /** The newest gateway event applied: older events arriving late cannot move the row back. */
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    renewalReminderAt: timestamp('renewal_reminder_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('subscriptions_gateway_subscription_idx').on(table.gatewaySubscriptionId),
    index('subscriptions_period_end_idx').on(table.currentPeriodEnd),
  ],
);

/**
 * A checkout we started: the gateway's order (Razorpay order, Stripe Checkout Session, PayPal
 * order) with the plan, amount and currency the server chose. A payment is only accepted for an
 * order found here, for the same user, plan and amount.
 */
export const billingOrders = pgTable(
  'billing_orders',
  {
    id: text('id').primaryKey(),
    /** Null once the account is deleted: the order stays for the seller's books. */
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'set null' }),
    gateway: text('gateway', { enum: GATEWAYS }).notNull(),
    gatewayOrderId: text('gateway_order_id').notNull(),
    planId: text('plan_id', { enum: PLAN_IDS }).notNull(),
    cycle: text('cycle', { enum: CYCLES }).notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency', { enum: ['USD', 'INR'] }).notNull(),
    /**
     * new: a period that starts when paid (a first plan, or monthly to yearly, less `credit_minor`
     * for the unused part of the current period); renewal: the period after the current one;
     * upgrade: a higher plan for the rest of the current period, at the difference in price.
     */
    kind: text('kind', { enum: ['new', 'renewal', 'upgrade'] }).notNull(),
    creditMinor: integer('credit_minor').notNull().default(0),
    /** What the amount is made of, as the invoice will print it. */
    lines: jsonb('lines').$type<TInvoiceDetails['lines']>().notNull(),
    status: text('status', { enum: ['created', 'paid', 'failed'] }).notNull(),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('billing_orders_gateway_order_idx').on(table.gateway, table.gatewayOrderId),
    index('billing_orders_owner_created_idx').on(table.ownerId, table.createdAt),
  ],
);

/** Money received: one row per gateway payment, whichever way (return page or webhook) told us first. */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    /** Null once the account is deleted: the payment stays for the seller's books. */
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'set null' }),
    orderId: text('order_id').references(() => billingOrders.id),
    gateway: text('gateway', { enum: GATEWAYS }).notNull(),
    /** Razorpay payment id, Stripe invoice id, PayPal capture id: what the invoice quotes. */
    gatewayPaymentId: text('gateway_payment_id').notNull(),
    /** What the gateway's refunds point at (Stripe's PaymentIntent; the payment itself elsewhere). */
    chargeRef: text('charge_ref'),
    planId: text('plan_id', { enum: PLAN_IDS }).notNull(),
    cycle: text('cycle', { enum: CYCLES }).notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency', { enum: ['USD', 'INR'] }).notNull(),
    status: text('status', { enum: ['paid', 'refunded', 'partially_refunded'] }).notNull(),
    refundedMinor: integer('refunded_minor').notNull().default(0),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('payments_gateway_payment_idx').on(table.gateway, table.gatewayPaymentId),
    index('payments_charge_ref_idx').on(table.gateway, table.chargeRef),
    index('payments_order_idx').on(table.orderId),
    index('payments_owner_created_idx').on(table.ownerId, table.createdAt),
    index('payments_created_idx').on(table.createdAt),
  ],
);

/**
 * One invoice per payment, numbered in sequence for the whole instance. `details` freezes what it
 * says (seller, buyer, plan, period, amount), so it prints the same forever.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    number: integer('number').notNull().unique(),
    /** Null once the account is deleted; `details` still names the buyer as billed. */
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'set null' }),
    paymentId: text('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id),
    details: jsonb('details').$type<TInvoiceDetails>().notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('invoices_owner_issued_idx').on(table.ownerId, table.issuedAt)],
);

/** Named counters taken under a row lock, so invoice numbers have no gaps and no repeats. */
export const sequences = pgTable('sequences', {
  name: text('name').primaryKey(),
  value: integer('value').notNull(),
});

/**
 * A price shown to a user before they pay (POST /api/subscription/quote). Its confirmation token is
 * kept only as a SHA-256 hash, and binds the payment to this user, this sign-in session and this
 * price: create-order takes it once, within its lifetime, or charges nothing.
 */
export const checkoutQuotes = pgTable(
  'checkout_quotes',
  {
    tokenHash: text('token_hash').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A hash of the session cookie the quote was asked with. */
    sessionKey: text('session_key').notNull(),
    planId: text('plan_id', { enum: PLAN_IDS }).notNull(),
    cycle: text('cycle', { enum: CYCLES }).notNull(),
    gateway: text('gateway', { enum: GATEWAYS }).notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency', { enum: ['USD', 'INR'] }).notNull(),
    /** The instant the price was worked out for: prorations are charged as of then. */
    pricedAt: timestamp('priced_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('checkout_quotes_expires_idx').on(table.expiresAt)],
);

/** Gateway webhook events already handled: a replay finds its id here and changes nothing. */
export const billingEvents = pgTable(
  'billing_events',
  {
    gateway: text('gateway', { enum: GATEWAYS }).notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.gateway, table.eventId] })],
);

/** Who changed what in the admin panel (gateways, the plan catalogue, users' plans and limits). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept when the actor is deleted, so the entry still says who. */
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [index('audit_log_created_idx').on(table.createdAt)],
);

/**
 * A user's "Export my data": every export is recorded (for the per-user limits); a large account's
 * is built in the background into `data_dir/exports/{id}.zip`, which its owner downloads until
 * `expires_at`.
 */
export const accountExports = pgTable(
  'account_exports',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** direct: streamed in the answer; background: built by the job queue. */
    kind: text('kind', { enum: ['direct', 'background'] }).notNull(),
    status: text('status', { enum: ['running', 'ready', 'failed'] }).notNull(),
    documentsTotal: integer('documents_total').notNull().default(0),
    documentsDone: integer('documents_done').notNull().default(0),
    bytes: integer('bytes'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (table) => [index('account_exports_owner_created_idx').on(table.ownerId, table.createdAt)],
);

/**
 * An admin's invitation to create an account with one address (modules/users/invitations.ts).
 * Only the token's SHA-256 is kept; a resend replaces it. Used and revoked rows stay for the record.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('invitations_email_idx').on(table.email)],
);
