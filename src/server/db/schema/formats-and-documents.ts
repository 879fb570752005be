import type { TRenderWarning } from '../../../contract/documents.ts';
import type { TFilledValues } from '../../../contract/filled-values.ts';
import type { TFormatContent } from '../../../contract/format-content.ts';
import type { TPlaceholder } from '../../../contract/placeholders.ts';
import { bytea, createdAt, updatedAt } from './columns.ts';
import { users } from './users-and-auth.ts';
import { ownerIdColumn } from './workspaces.ts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// Formats, their frozen snapshots, the documents made from them, bulk jobs and uploaded assets.

export const formats = pgTable(
  'formats',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    /** The person who made it, kept when they leave the workspace's team; null once their account is deleted. */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
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
    ownerId: ownerIdColumn(),
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
    ownerId: ownerIdColumn(),
    /** The person who made it, kept when they leave the workspace's team; null once their account is deleted. */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
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
    index('documents_expires_idx')
      .on(table.expiresAt)
      .where(sql`${table.expiresAt} is not null`),
    index('documents_owner_created_idx').on(table.ownerId, table.createdAt),
    // Recent Documents filtered by format reads only that format's rows, newest first.
    index('documents_owner_format_created_idx').on(table.ownerId, table.formatId, table.createdAt),
    // Recent Documents lists documents made one at a time without stepping over batches of thousands.
    index('documents_owner_single_created_idx')
      .on(table.ownerId, table.createdAt)
      .where(sql`${table.batchId} is null`),
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
    ownerId: ownerIdColumn(),
    /** The person who made it, kept when they leave the workspace's team; null once their account is deleted. */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
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
  (table) => [index('bulk_jobs_owner_created_idx').on(table.ownerId, table.createdAt), index('bulk_jobs_status_idx').on(table.status)],
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
  (table) => [primaryKey({ columns: [table.jobId, table.row] }), index('bulk_rows_job_seq_idx').on(table.jobId, table.seq)],
);

/**
 * Image bytes an owner uploaded, or fetched once from a URL they gave. Stored in the database so a
 * backup holds everything; only PNG and JPEG are kept (other types are converted on the way in).
 */
export const assets = pgTable(
  'assets',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    mimeType: text('mime_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
    bytes: bytea('bytes').notNull(),
    sha256: text('sha256').notNull(),
    /** Set when the asset caches an image given by URL. */
    sourceUrl: text('source_url'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('assets_owner_source_url_idx').on(table.ownerId, table.sourceUrl)],
);
