import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, isNotNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { TAdminPaymentsQuery, TInvoiceDetails } from '../../../contract/billing.ts';
import type { TDb } from '../../db/client.ts';
import {
  assets,
  billingEvents,
  billingOrders,
  checkoutQuotes,
  formats,
  invoices,
  paymentGateways,
  payments,
  sequences,
  subscriptions,
  teamMembers,
  users,
  workspaces,
} from '../../db/schema.ts';

export type TSubscriptionRow = typeof subscriptions.$inferSelect;
export type TOrderRow = typeof billingOrders.$inferSelect;
export type TPaymentRow = typeof payments.$inferSelect;
export type TInvoiceRow = typeof invoices.$inferSelect;
export type TGatewayRow = typeof paymentGateways.$inferSelect;
export type TQuoteRow = typeof checkoutQuotes.$inferSelect;
type TGateway = TOrderRow['gateway'];
type TPlanId = TOrderRow['planId'];

/** Gateways, the user, and the subscription itself. */
function subscriptionQueries(db: TDb) {
  return {
    async activeGateway(): Promise<TGatewayRow | undefined> {
      const [row] = await db.select().from(paymentGateways).where(eq(paymentGateways.isActive, true)).limit(1);
      return row;
    },

    /**
     * The gateway a webhook or a return belongs to: the active one of that name, else the newest.
     * Events for payments made before an admin switched gateways still verify.
     */
    async gatewayNamed(name: TGateway): Promise<TGatewayRow | undefined> {
      const [row] = await db
        .select()
        .from(paymentGateways)
        .where(eq(paymentGateways.gatewayName, name))
        .orderBy(desc(paymentGateways.isActive), desc(paymentGateways.updatedAt))
        .limit(1);
      return row;
    },

    async gatewaysNamed(name: TGateway): Promise<TGatewayRow[]> {
      return db.select().from(paymentGateways).where(eq(paymentGateways.gatewayName, name));
    },

    /**
     * Who pays for a workspace and hears about its billing: the person whose own it is, or a
     * team's first owner. Undefined when the workspace is gone.
     */
    async payer(ownerId: string) {
      const [own] = await db.select().from(users).where(eq(users.id, ownerId)).limit(1);
      if (own) return own;
      const [owner] = await db
        .select({ user: users })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .where(and(eq(teamMembers.teamId, ownerId), eq(teamMembers.role, 'owner')))
        .orderBy(asc(teamMembers.createdAt))
        .limit(1);
      return owner?.user;
    },

    /** The plan in force and where its quota counts, for a person's workspace or a team. */
    async workspace(ownerId: string) {
      const [row] = await db.select().from(workspaces).where(eq(workspaces.id, ownerId)).limit(1);
      return row;
    },

    async subscription(ownerId: string, lock = false): Promise<TSubscriptionRow | undefined> {
      const query = db.select().from(subscriptions).where(eq(subscriptions.ownerId, ownerId)).limit(1);
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async subscriptionByGatewayId(gateway: TGateway, gatewaySubscriptionId: string): Promise<TSubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.gateway, gateway), eq(subscriptions.gatewaySubscriptionId, gatewaySubscriptionId)))
        .limit(1)
        .for('update');
      return row;
    },

    async saveSubscription(row: Omit<TSubscriptionRow, 'createdAt' | 'updatedAt'>): Promise<void> {
      const { ownerId: _owner, ...rest } = row;
      await db
        .insert(subscriptions)
        .values({ ...row, updatedAt: new Date() })
        .onConflictDoUpdate({ target: subscriptions.ownerId, set: { ...rest, updatedAt: new Date() } });
    },

    async updateSubscription(ownerId: string, changes: Partial<Omit<TSubscriptionRow, 'ownerId' | 'createdAt'>>): Promise<void> {
      await db
        .update(subscriptions)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(subscriptions.ownerId, ownerId));
    },

    /** The plan in force and where its quota counts (null: the calendar month). */
    async setUserPlan(ownerId: string, planId: TPlanId, quotaPeriod: string | null): Promise<void> {
      await db.update(workspaces).set({ subscriptionPlan: planId, quotaPeriod, updatedAt: new Date() }).where(eq(workspaces.id, ownerId));
    },
  };
}

/** Orders and the payments that pay them. */
function orderQueries(db: TDb) {
  return {
    async insertOrder(row: Omit<TOrderRow, 'createdAt' | 'paidAt' | 'status'>): Promise<void> {
      await db.insert(billingOrders).values({ ...row, status: 'created' });
    },

    async orderByGatewayId(gateway: TGateway, gatewayOrderId: string, lock = false): Promise<TOrderRow | undefined> {
      const query = db
        .select()
        .from(billingOrders)
        .where(and(eq(billingOrders.gateway, gateway), eq(billingOrders.gatewayOrderId, gatewayOrderId)))
        .limit(1);
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async orderById(id: string): Promise<TOrderRow | undefined> {
      const [row] = await db.select().from(billingOrders).where(eq(billingOrders.id, id)).limit(1).for('update');
      return row;
    },

    async setOrderStatus(id: string, status: TOrderRow['status']): Promise<void> {
      await db
        .update(billingOrders)
        .set({ status, ...(status === 'paid' ? { paidAt: new Date() } : {}) })
        .where(and(eq(billingOrders.id, id), ne(billingOrders.status, 'paid')));
    },

    async paymentByGatewayId(gateway: TGateway, gatewayPaymentId: string): Promise<TPaymentRow | undefined> {
      const [row] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.gateway, gateway), eq(payments.gatewayPaymentId, gatewayPaymentId)))
        .limit(1);
      return row;
    },

    /** The payment that paid an order, if one did. */
    async paymentOfOrder(orderId: string): Promise<TPaymentRow | undefined> {
      const [row] = await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(asc(payments.createdAt)).limit(1);
      return row;
    },
  };
}

/** Checkout confirmations (quotes), kept as hashes. */
function quoteQueries(db: TDb) {
  return {
    async insertQuote(row: Omit<TQuoteRow, 'createdAt' | 'usedAt'>): Promise<void> {
      await db.insert(checkoutQuotes).values(row);
    },

    /** One of `ownerId`'s quotes by the hash of its token. */
    async quote(tokenHash: string, ownerId: string): Promise<TQuoteRow | undefined> {
      const [row] = await db
        .select()
        .from(checkoutQuotes)
        .where(and(eq(checkoutQuotes.tokenHash, tokenHash), eq(checkoutQuotes.ownerId, ownerId)))
        .limit(1);
      return row;
    },

    /**
     * Takes a quote for a payment: one statement, so of two requests with the same token only one
     * gets it. True when this call took it (unused, unexpired, this owner and session).
     */
    async takeQuote(tokenHash: string, ownerId: string, sessionKey: string, at: Date): Promise<boolean> {
      const taken = await db
        .update(checkoutQuotes)
        .set({ usedAt: at })
        .where(
          and(
            eq(checkoutQuotes.tokenHash, tokenHash),
            eq(checkoutQuotes.ownerId, ownerId),
            eq(checkoutQuotes.sessionKey, sessionKey),
            sql`${checkoutQuotes.usedAt} is null`,
            gt(checkoutQuotes.expiresAt, at),
          ),
        )
        .returning({ tokenHash: checkoutQuotes.tokenHash });
      return taken.length > 0;
    },

    /** How many quotes `ownerId` asked for since `since`. */
    async quotesSince(ownerId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(checkoutQuotes)
        .where(and(eq(checkoutQuotes.ownerId, ownerId), gte(checkoutQuotes.createdAt, since)));
      return row?.n ?? 0;
    },

    /** Forgets quotes that expired before `before`; returns how many. */
    async deleteQuotesExpiredBefore(before: Date): Promise<number> {
      const deleted = await db.delete(checkoutQuotes).where(lt(checkoutQuotes.expiresAt, before)).returning({ tokenHash: checkoutQuotes.tokenHash });
      return deleted.length;
    },
  };
}

/** Payments, their invoices, and the gateway events already applied. */
function paymentQueries(db: TDb) {
  return {
    /** Inserts the payment unless the gateway's payment is already recorded; true when inserted. */
    async insertPayment(row: Omit<TPaymentRow, 'createdAt' | 'refundedMinor' | 'status'>): Promise<boolean> {
      const inserted = await db
        .insert(payments)
        .values({ ...row, status: 'paid' })
        .onConflictDoNothing({ target: [payments.gateway, payments.gatewayPaymentId] })
        .returning({ id: payments.id });
      return inserted.length > 0;
    },

    /** A paid period of this owner that starts at or after `from`: a renewal paid ahead. */
    async paidPeriodStartingFrom(ownerId: string, from: Date): Promise<TPaymentRow | undefined> {
      const [row] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.ownerId, ownerId), gte(payments.periodStart, from), ne(payments.status, 'refunded')))
        .orderBy(asc(payments.periodStart))
        .limit(1);
      return row;
    },

    async latestPaidPeriodEnd(ownerId: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ end: sql<Date>`max(${payments.periodEnd})`.mapWith((v: string | Date) => new Date(v)) })
        .from(payments)
        .where(and(eq(payments.ownerId, ownerId), ne(payments.status, 'refunded')));
      return row?.end && !Number.isNaN(row.end.getTime()) ? row.end : undefined;
    },

    /** Refunds are cumulative at every gateway: the latest total wins, and never goes down. */
    /**
     * A refund of a recorded payment. Razorpay and Stripe report the payment's refunded total
     * (`total`: the larger figure wins, so a late event cannot lower it); PayPal reports each
     * refund (`add`, applied once per event id by the caller).
     */
    async recordRefund(
      gateway: TGateway,
      ref: { paymentId?: string; chargeRef?: string },
      refund: { mode: 'total' | 'add'; amountMinor: number },
    ): Promise<TPaymentRow | undefined> {
      const match = ref.paymentId ? eq(payments.gatewayPaymentId, ref.paymentId) : eq(payments.chargeRef, ref.chargeRef ?? '');
      const refunded =
        refund.mode === 'total'
          ? sql`greatest(${payments.refundedMinor}, ${refund.amountMinor}::int)`
          : sql`least(${payments.amountMinor}, ${payments.refundedMinor} + ${refund.amountMinor}::int)`;
      const [row] = await db
        .update(payments)
        .set({
          refundedMinor: refunded,
          status: sql`case when ${refunded} >= ${payments.amountMinor} then 'refunded' else 'partially_refunded' end`,
        })
        .where(and(eq(payments.gateway, gateway), match))
        .returning();
      return row;
    },

    /** The next number of a gapless sequence, taken under the row's lock (call inside a transaction). */
    async nextNumber(name: string): Promise<number> {
      const [row] = await db
        .insert(sequences)
        .values({ name, value: 1 })
        .onConflictDoUpdate({ target: sequences.name, set: { value: sql`${sequences.value} + 1` } })
        .returning({ value: sequences.value });
      return row!.value;
    },

    async insertInvoice(row: { ownerId: string; paymentId: string; number: number; details: TInvoiceDetails; issuedAt: Date }): Promise<string> {
      const id = randomUUID();
      await db.insert(invoices).values({ id, ...row });
      return id;
    },

    async invoiceForPayment(paymentId: string): Promise<TInvoiceRow | undefined> {
      const [row] = await db.select().from(invoices).where(eq(invoices.paymentId, paymentId)).limit(1);
      return row;
    },

    async invoicesOf(ownerId: string) {
      return db
        .select({ invoice: invoices, payment: payments })
        .from(invoices)
        .innerJoin(payments, eq(payments.id, invoices.paymentId))
        .where(eq(invoices.ownerId, ownerId))
        .orderBy(desc(invoices.issuedAt), desc(invoices.number));
    },

    /** One invoice of `ownerId`; with no owner (admins), any invoice. */
    async invoice(id: string, ownerId?: string) {
      const [row] = await db
        .select({ invoice: invoices, payment: payments })
        .from(invoices)
        .innerJoin(payments, eq(payments.id, invoices.paymentId))
        .where(and(eq(invoices.id, id), ownerId ? eq(invoices.ownerId, ownerId) : undefined))
        .limit(1);
      return row;
    },

    /** True the first time an event id is seen: a replay finds it and is ignored. */
    async firstSighting(gateway: TGateway, eventId: string, type: string): Promise<boolean> {
      const inserted = await db.insert(billingEvents).values({ gateway, eventId, type }).onConflictDoNothing().returning({ eventId: billingEvents.eventId });
      return inserted.length > 0;
    },
  };
}

/** What the sweep moves on: periods ending, reminders, yearly plans' months. */
function renewalQueries(db: TDb) {
  return {
    /** Subscriptions whose period has ended, or whose grace has run out, at `now`. */
    async due(now: Date): Promise<TSubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(
          and(
            ne(subscriptions.status, 'ended'),
            or(lte(subscriptions.currentPeriodEnd, now), and(isNotNull(subscriptions.graceEndsAt), lte(subscriptions.graceEndsAt, now))),
          ),
        );
    },

    /** Yearly subscriptions still holding their plan, with where their owner's quota counts now. */
    async yearlyInForce() {
      return db
        .select({
          ownerId: subscriptions.ownerId,
          currentPeriodStart: subscriptions.currentPeriodStart,
          currentPeriodEnd: subscriptions.currentPeriodEnd,
          quotaPeriod: workspaces.quotaPeriod,
        })
        .from(subscriptions)
        .innerJoin(workspaces, eq(workspaces.id, subscriptions.ownerId))
        .where(and(eq(subscriptions.cycle, 'yearly'), ne(subscriptions.status, 'ended')));
    },

    async setQuotaPeriod(ownerId: string, quotaPeriod: string): Promise<void> {
      await db.update(workspaces).set({ quotaPeriod }).where(eq(workspaces.id, ownerId));
    },

    /** Takes the reminder for this period once, whichever process sweeps first. */
    async claimRenewalReminder(ownerId: string, periodEnd: Date, at: Date): Promise<boolean> {
      const claimed = await db
        .update(subscriptions)
        .set({ renewalReminderAt: at })
        .where(and(eq(subscriptions.ownerId, ownerId), eq(subscriptions.currentPeriodEnd, periodEnd), sql`${subscriptions.renewalReminderAt} is null`))
        .returning({ ownerId: subscriptions.ownerId });
      return claimed.length > 0;
    },

    /** Manual renewals coming due before `until` that have not been reminded yet. */
    async renewalsToRemind(until: Date): Promise<TSubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.status, 'active'),
            eq(subscriptions.cancelAtPeriodEnd, false),
            inArray(subscriptions.gateway, ['razorpay', 'paypal']),
            lte(subscriptions.currentPeriodEnd, until),
            sql`${subscriptions.renewalReminderAt} is null`,
          ),
        );
    },
  };
}

/** Usage against the plan's limits, and Admin → Payments. */
function usageQueries(db: TDb) {
  return {
    async formatsUsed(ownerId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(formats).where(eq(formats.ownerId, ownerId));
      return row?.n ?? 0;
    },

    async storageUsed(ownerId: string): Promise<number> {
      const [row] = await db
        .select({ bytes: sql<number>`coalesce(sum(octet_length(${assets.bytes})), 0)::bigint`.mapWith(Number) })
        .from(assets)
        .where(eq(assets.ownerId, ownerId));
      return row?.bytes ?? 0;
    },

    async adminPayments(query: TAdminPaymentsQuery) {
      const where: SQL[] = [];
      if (query.status) where.push(eq(payments.status, query.status));
      if (query.gateway) where.push(eq(payments.gateway, query.gateway));
      // A deleted account's payments keep the address their invoice was billed to.
      const payerEmail = sql<string>`coalesce(${users.email}, ${invoices.details}->'buyer'->>'email', '')`;
      if (query.email) where.push(ilike(payerEmail, `%${query.email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
      if (query.from) where.push(gte(payments.createdAt, new Date(`${query.from}T00:00:00Z`)));
      if (query.to) where.push(lt(payments.createdAt, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000)));
      const filter = where.length ? and(...where) : undefined;
      const rows = await db
        .select({ payment: payments, email: payerEmail, invoiceId: invoices.id, invoiceNumber: invoices.number })
        .from(payments)
        .leftJoin(users, eq(users.id, payments.ownerId))
        .leftJoin(invoices, eq(invoices.paymentId, payments.id))
        .where(filter)
        .orderBy(desc(payments.createdAt), desc(payments.id))
        .limit(query.limit)
        .offset(query.offset);
      const [total] = await db
        .select({ n: count() })
        .from(payments)
        .leftJoin(users, eq(users.id, payments.ownerId))
        .leftJoin(invoices, eq(invoices.paymentId, payments.id))
        .where(filter);
      const totals = await db
        .select({ currency: payments.currency, amount: sql<number>`sum(${payments.amountMinor} - ${payments.refundedMinor})::bigint`.mapWith(Number) })
        .from(payments)
        .leftJoin(users, eq(users.id, payments.ownerId))
        .leftJoin(invoices, eq(invoices.paymentId, payments.id))
        .where(filter)
        .groupBy(payments.currency)
        .orderBy(asc(payments.currency));
      return { rows, total: total?.n ?? 0, totals };
    },
  };
}

/** Every billing query, on the database or on one transaction. */
function billingQueries(db: TDb) {
  return { ...subscriptionQueries(db), ...orderQueries(db), ...quoteQueries(db), ...paymentQueries(db), ...renewalQueries(db), ...usageQueries(db) };
}
export type TBillingQueries = ReturnType<typeof billingQueries>;

export function createBillingRepository(db: TDb) {
  return {
    ...billingQueries(db),
    /** Runs `work` in one transaction, with the queries bound to it. */
    transaction<T>(work: (tx: TBillingQueries) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(billingQueries(tx as unknown as TDb)));
    },
  };
}
export type TBillingRepository = ReturnType<typeof createBillingRepository>;
