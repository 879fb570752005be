import { createdAt, updatedAt } from './columns.ts';
import { users } from './users-and-auth.ts';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// Workspaces: what formats, documents, keys, plans and mail settings belong to. Each person has a
// personal one; a team is one that several people share (docs/teams.md).

export const WORKSPACE_KINDS = ['personal', 'team'] as const;
export const TEAM_ROLES = ['owner', 'admin', 'editor', 'member'] as const;
const PLAN_IDS = ['free', 'basic', 'premium', 'enterprise'] as const;

/**
 * A personal workspace has its person's id as its own (a trigger makes it with the user row), so a
 * row owned by `owner_id = user.id` before teams existed is still that person's. A team's id is its own.
 */
export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: WORKSPACE_KINDS }).notNull(),
  /** The person whose personal workspace this is; null for a team. Deleting the person deletes it. */
  personalUserId: text('personal_user_id')
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** A team's name; null for a personal workspace (it goes by its person's name). */
  name: text('name'),
  subscriptionPlan: text('subscription_plan', { enum: PLAN_IDS }).notNull().default('free'),
  apiEnabled: boolean('api_enabled').notNull().default(false),
  /** An admin's override of the plan's monthly generation limit (they set it for enterprise). */
  apiCallsLimit: integer('api_calls_limit'),
  /**
   * The start of the paid period the generation quota counts in (ISO), or null: the calendar month.
   * Billing sets it when a period starts, so the quota resets at the period boundary.
   */
  quotaPeriod: text('quota_period'),
  enterpriseEmail: text('enterprise_email'),
  /** AES-GCM ciphertext; never leaves the server. */
  enterpriseEmailPasswordEnc: text('enterprise_email_password_enc'),
  smtpHost: text('smtp_host'),
  smtpPort: integer('smtp_port'),
  smtpSecure: boolean('smtp_secure').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The workspace a row belongs to: deleting the workspace (a team, or a person's account) deletes the row. */
export const ownerIdColumn = () =>
  text('owner_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** A person's place in a team. A team always keeps at least one owner (modules/teams enforces it). */
export const teamMembers = pgTable(
  'team_members',
  {
    teamId: text('team_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: TEAM_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.teamId, table.userId] }), index('team_members_user_idx').on(table.userId)],
);

/**
 * An invitation into a team for one address and role. Only the token's SHA-256 is kept; a resend
 * replaces it. Accepted and revoked rows stay for the record.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: TEAM_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('team_invitations_token_idx').on(table.tokenHash), index('team_invitations_team_idx').on(table.teamId, table.createdAt)],
);
