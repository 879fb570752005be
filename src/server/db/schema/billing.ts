import type { TInvoiceDetails } from '../../../contract/billing.ts';
import { createdAt, updatedAt } from './columns.ts';
import { ownerIdColumn, workspaces } from './workspaces.ts';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// Plans and money: usage counters, gateways, subscriptions, orders, payments and invoices.

/**
 * One row per owner and calendar month (UTC, 'YYYY-MM'). Every generation, from any channel,
 * increments it in the same statement that checks the limit, so concurrent requests stay exact.
 */
export const usageCounters = pgTable(
  'usage_counters',
  {
    ownerId: ownerIdColumn(),
    period: text('period').notNull(),
    generations: integer('generations').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.ownerId, table.period] })],
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
 * A workspace's paid subscription, one row per workspace, kept after it ends. The user's plan in force is
 * `workspaces.subscription_plan`; this row says how it is paid and until when.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    ownerId: text('owner_id')
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
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
    /** Null once the workspace (account or team) is deleted: the order stays for the seller's books. */
    ownerId: text('owner_id').references(() => workspaces.id, { onDelete: 'set null' }),
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
    /** Null once the workspace (account or team) is deleted: the payment stays for the seller's books. */
    ownerId: text('owner_id').references(() => workspaces.id, { onDelete: 'set null' }),
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
    /** Null once the workspace (account or team) is deleted; `details` still names the buyer as billed. */
    ownerId: text('owner_id').references(() => workspaces.id, { onDelete: 'set null' }),
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
    ownerId: ownerIdColumn(),
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
