import { createdAt } from './columns.ts';
import { users } from './users-and-auth.ts';
import { ownerIdColumn, workspaces } from './workspaces.ts';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// The public API's keys, rate windows, request log and the state of asynchronous requests.

/**
 * Keys for the API. Only a SHA-256 of the key is kept (a key is 32 random bytes, so a fast hash is
 * enough); the key itself is shown once, when it is made. A revoked key stays for the record.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    /** The person who made the key; documents it makes are theirs. Null once their account is deleted. */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
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
    ownerId: ownerIdColumn(),
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
    ownerId: ownerIdColumn(),
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
    ownerId: ownerIdColumn(),
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
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['pending', 'failed'] }).notNull(),
  error: jsonb('error').$type<{ code: string; message: string }>(),
  /** Asked for with a test key: only test keys see it, as with the document it becomes. */
  testMode: boolean('test_mode').notNull().default(false),
  createdAt: createdAt(),
});
