import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { leaseDueRows } from '../../jobs/due-rows.ts';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema.ts';

export type TWebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type TWebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * How long this process takes an owner's enabled endpoints as known without reading them. Every
 * document made asks (one statement of the four a generation costs), and they change rarely.
 * Changes made through this process apply at once; with one process (always, on the embedded
 * database) that is every change, so the time only bounds memory.
 */
export const ACTIVE_ENDPOINTS_MEMO_MS = 5 * 60_000;
/** The same with several processes on PostgreSQL: a change made in another applies within this time. */
export const SHARED_ACTIVE_ENDPOINTS_MEMO_MS = 5_000;
const ACTIVE_ENDPOINTS_MEMO_OWNERS = 10_000;

/** Every query on a user's rows filters by the owner; the sender's queue reads due rows of everyone. */
export function createWebhooksRepository(db: TDb, { activeMemoMs = ACTIVE_ENDPOINTS_MEMO_MS }: { activeMemoMs?: number } = {}) {
  // Asked for every document made: prepared once, it is neither built again here nor planned again by the database.
  const listeningTo = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerId, sql.placeholder('ownerId')), sql`${webhookEndpoints.disabledAt} is null`))
    .prepare('webhook_endpoints_active');
  const mine = (ownerId: string, id: string) => and(eq(webhookEndpoints.ownerId, ownerId), eq(webhookEndpoints.id, id));
  const known = new Map<string, { rows: TWebhookEndpointRow[]; until: number }>();
  // Bumped by every change: a read that started before one may have seen the old rows, and is not kept.
  let changes = 0;
  const changed = <T>(result: T): T => {
    changes++;
    known.clear();
    return result;
  };
  const activeEndpoints = async (ownerId: string): Promise<TWebhookEndpointRow[]> => {
    const entry = known.get(ownerId);
    if (entry && entry.until > Date.now()) return entry.rows;
    const changesBefore = changes;
    const rows = await listeningTo.execute({ ownerId });
    if (changes === changesBefore) {
      known.delete(ownerId);
      if (known.size >= ACTIVE_ENDPOINTS_MEMO_OWNERS) known.delete(known.keys().next().value!);
      known.set(ownerId, { rows, until: Date.now() + activeMemoMs });
    }
    return rows;
  };
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
      return changed(created!);
    },

    async delete(ownerId: string, id: string): Promise<boolean> {
      return changed((await db.delete(webhookEndpoints).where(mine(ownerId, id)).returning({ id: webhookEndpoints.id })).length > 0);
    },

    async setDisabled(ownerId: string, id: string, reason: string | null): Promise<TWebhookEndpointRow | undefined> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({ disabledAt: reason ? new Date() : null, disabledReason: reason })
        .where(mine(ownerId, id))
        .returning();
      return changed(row);
    },

    /** The enabled endpoints of an owner that listen to `event`. */
    async listening(ownerId: string, event: string): Promise<TWebhookEndpointRow[]> {
      return (await activeEndpoints(ownerId)).filter((r) => r.events.includes(event));
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
      changed(undefined);
    },
  };
}
export type TWebhooksRepository = ReturnType<typeof createWebhooksRepository>;
