import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { leaseDueRows } from '../../jobs/due-rows.ts';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema.ts';

export type TWebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type TWebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Every query on a user's rows filters by the owner; the sender's queue reads due rows of everyone. */
export function createWebhooksRepository(db: TDb) {
  // Asked for every document made: prepared once, it is neither built again here nor planned again by the database.
  const listeningTo = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerId, sql.placeholder('ownerId')), sql`${webhookEndpoints.disabledAt} is null`))
    .prepare('webhook_endpoints_active');
  const mine = (ownerId: string, id: string) => and(eq(webhookEndpoints.ownerId, ownerId), eq(webhookEndpoints.id, id));
  return {
    async list(ownerId: string): Promise<TWebhookEndpointRow[]> {
      return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.ownerId, ownerId)).orderBy(desc(webhookEndpoints.createdAt));
    },

    async count(ownerId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.ownerId, ownerId));
      return row?.n ?? 0;
    },

    async get(ownerId: string, id: string): Promise<TWebhookEndpointRow | undefined> {
      const [row] = await db.select().from(webhookEndpoints).where(mine(ownerId, id));
      return row;
    },

    async insert(row: typeof webhookEndpoints.$inferInsert): Promise<TWebhookEndpointRow> {
      const [created] = await db.insert(webhookEndpoints).values(row).returning();
      return created!;
    },

    async delete(ownerId: string, id: string): Promise<boolean> {
      return (await db.delete(webhookEndpoints).where(mine(ownerId, id)).returning({ id: webhookEndpoints.id })).length > 0;
    },

    async setDisabled(ownerId: string, id: string, reason: string | null): Promise<TWebhookEndpointRow | undefined> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({ disabledAt: reason ? new Date() : null, disabledReason: reason })
        .where(mine(ownerId, id))
        .returning();
      return row;
    },

    /** The enabled endpoints of an owner that listen to `event`. */
    async listening(ownerId: string, event: string): Promise<TWebhookEndpointRow[]> {
      const rows = await listeningTo.execute({ ownerId });
      return rows.filter((r) => r.events.includes(event));
    },

    async insertDeliveries(rows: (typeof webhookDeliveries.$inferInsert)[]): Promise<TWebhookDeliveryRow[]> {
      if (rows.length === 0) return [];
      return db.insert(webhookDeliveries).values(rows).returning();
    },

    async deliveries(ownerId: string, endpointId: string, limit: number): Promise<TWebhookDeliveryRow[]> {
      return db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.ownerId, ownerId), eq(webhookDeliveries.endpointId, endpointId)))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit);
    },

    /**
     * Takes up to `limit` due attempts: each is counted and leased until `leaseUntil`, so another
     * sender (another process) skips it, and one whose sender died is taken again after the lease.
     */
    async takeDue(now: Date, leaseUntil: Date, limit: number): Promise<(TWebhookDeliveryRow & { url: string; secretEnc: string })[]> {
      const taken = await leaseDueRows(db, webhookDeliveries, { waiting: 'pending', now, leaseUntil, limit, countAttempt: true });
      if (taken.length === 0) return [];
      const rows = await db
        .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, secretEnc: webhookEndpoints.secretEnc })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(inArray(webhookDeliveries.id, taken));
      return rows.map((r) => ({ ...r.delivery, url: r.url, secretEnc: r.secretEnc }));
    },

    async recordAttempt(
      id: string,
      outcome: { status: 'pending' | 'delivered'; responseStatus: number | null; error: string | null; nextAttemptAt: Date | null },
    ): Promise<void> {
      await db
        .update(webhookDeliveries)
        .set({
          status: outcome.status,
          responseStatus: outcome.responseStatus,
          error: outcome.error,
          nextAttemptAt: outcome.nextAttemptAt,
          ...(outcome.status === 'delivered' ? { deliveredAt: new Date() } : {}),
        })
        .where(eq(webhookDeliveries.id, id));
    },

    /**
     * A delivery's last retry failed: it is given up and its endpoint turned off, whoever owns it,
     * in one transaction so nobody sees (or a crash leaves) one without the other.
     */
    async giveUp(
      delivery: { id: string; endpointId: string },
      outcome: { responseStatus: number | null; error: string | null },
      reason: string,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(webhookDeliveries)
          .set({ status: 'failed', responseStatus: outcome.responseStatus, error: outcome.error, nextAttemptAt: null })
          .where(eq(webhookDeliveries.id, delivery.id));
        await tx
          .update(webhookEndpoints)
          .set({ disabledAt: new Date(), disabledReason: reason })
          .where(and(eq(webhookEndpoints.id, delivery.endpointId), sql`${webhookEndpoints.disabledAt} is null`));
      });
    },
  };
}
export type TWebhooksRepository = ReturnType<typeof createWebhooksRepository>;
