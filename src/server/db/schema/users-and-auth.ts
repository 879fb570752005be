import { createdAt, updatedAt } from './columns.ts';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// The accounts: users, their sign-in material and sessions, and what belongs to the account itself.

/**
 * The auth library's user row, extended with the product's profile columns (the plan and mail
 * settings are the personal workspace's, in workspaces.ts). The TS keys
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
  role: text('role', { enum: ['user', 'admin'] })
    .notNull()
    .default('user'),
  /** Set by the auth library's two-factor plugin once a second factor is confirmed. */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  /** Set while an admin has suspended the account: no session, API key or sign-in works. */
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The person a row belongs to (not a workspace): deleting the account deletes the row. */
const accountIdColumn = () =>
  text('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

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

/**
 * A user's "Export my data": every export is recorded (for the per-user limits); a large account's
 * is built in the background into `data_dir/exports/{id}.zip`, which its owner downloads until
 * `expires_at`.
 */
export const accountExports = pgTable(
  'account_exports',
  {
    id: text('id').primaryKey(),
    ownerId: accountIdColumn(),
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
