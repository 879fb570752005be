import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { auditLog, documents, formats, paymentGateways, systemSettings, usageCounters, users, workspaces } from '../../db/schema.ts';

export type TGatewayRow = typeof paymentGateways.$inferSelect;

/** Admin-wide reads and writes: these are the only queries that do not filter by an owner. */
export function createAdminRepository(db: TDb) {
  return {
    async listUsers(calendarPeriod: string) {
      // Inside a select list drizzle names columns without their table, so in a subquery on
      // formats a bare "id" would be the format's own: the outer user is named in full.
      const userId = sql.raw('"users"."id"');
      return (
        db
          .select({
            user: users,
            workspace: workspaces,
            totalFormats: sql<number>`(select count(*)::int from ${formats} f where f.owner_id = ${userId})`,
            totalDocuments: sql<number>`(select count(*)::int from ${documents} d where d.owner_id = ${userId})`,
            apiCallsUsed: sql<number>`coalesce((select u.generations from ${usageCounters} u where u.owner_id = ${userId} and u.period = coalesce(${workspaces.quotaPeriod}, ${calendarPeriod})), 0)::int`,
          })
          .from(users)
          // The person's own workspace (it has their id): their plan and limit.
          .innerJoin(workspaces, eq(workspaces.id, users.id))
          .orderBy(desc(users.createdAt), asc(users.id))
      );
    },

    async updateUser(id: string, changes: Partial<Pick<typeof users.$inferInsert, 'role'>>): Promise<boolean> {
      const updated = await db
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning({ id: users.id });
      return updated.length > 0;
    },

    /** A person's own plan or generation limit, as an admin sets it. */
    async updatePersonalPlan(userId: string, changes: Partial<Pick<typeof workspaces.$inferInsert, 'subscriptionPlan' | 'apiCallsLimit'>>): Promise<boolean> {
      const updated = await db
        .update(workspaces)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(workspaces.id, userId), eq(workspaces.kind, 'personal')))
        .returning({ id: workspaces.id });
      return updated.length > 0;
    },

    /** Suspends (a time) or restores (null) an account. */
    async setSuspended(id: string, at: Date | null): Promise<boolean> {
      const updated = await db.update(users).set({ suspendedAt: at, updatedAt: new Date() }).where(eq(users.id, id)).returning({ id: users.id });
      return updated.length > 0;
    },

    async listSettings() {
      return db.select().from(systemSettings).orderBy(asc(systemSettings.key));
    },

    async upsertSetting(key: string, value: string, description: string | null | undefined) {
      const [row] = await db
        .insert(systemSettings)
        .values({ key, value, description: description ?? null, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: systemSettings.key,
          set: {
            value,
            updatedAt: new Date(),
            ...(description !== undefined ? { description } : {}),
          },
        })
        .returning();
      return row!;
    },

    async deleteSetting(key: string): Promise<boolean> {
      const deleted = await db.delete(systemSettings).where(eq(systemSettings.key, key)).returning({ key: systemSettings.key });
      return deleted.length > 0;
    },

    async listGateways(): Promise<TGatewayRow[]> {
      return await db.select().from(paymentGateways).orderBy(asc(paymentGateways.createdAt));
    },

    async activeGateway(): Promise<TGatewayRow | undefined> {
      const [row] = await db.select().from(paymentGateways).where(eq(paymentGateways.isActive, true)).limit(1);
      return row;
    },

    /** One gateway is active at most: activating one deactivates the rest in the same transaction. */
    async saveGateway(
      id: string | undefined,
      values: Partial<Omit<typeof paymentGateways.$inferInsert, 'id' | 'createdAt'>>,
    ): Promise<TGatewayRow | undefined> {
      return db.transaction(async (tx) => {
        const gatewayId = id ?? randomUUID();
        if (values.isActive) {
          await tx
            .update(paymentGateways)
            .set({ isActive: false, updatedAt: new Date() })
            .where(and(eq(paymentGateways.isActive, true), ne(paymentGateways.id, gatewayId)));
        }
        if (id === undefined) {
          const [row] = await tx
            .insert(paymentGateways)
            .values({ id: gatewayId, gatewayName: values.gatewayName!, keyId: values.keyId!, ...values })
            .returning();
          return row;
        }
        const [row] = await tx
          .update(paymentGateways)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(paymentGateways.id, id))
          .returning();
        return row;
      });
    },

    async audit(entry: { actorId: string; actorEmail: string; action: string; targetType: string; targetId: string; details: Record<string, unknown> }) {
      await db.insert(auditLog).values({ id: randomUUID(), ...entry });
    },

    async auditEntries(limit: number, offset: number) {
      const rows = await db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit).offset(offset);
      const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
      return { rows, total: total?.n ?? 0 };
    },
  };
}
export type TAdminRepository = ReturnType<typeof createAdminRepository>;
