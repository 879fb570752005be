import { createdAt } from './columns.ts';
import { users } from './users-and-auth.ts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The installation's own settings, its mail budget and the admin audit trail.

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
