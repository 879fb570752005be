import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import {
  accountExports,
  apiKeys,
  assets,
  auditLog,
  bulkJobs,
  documents,
  shareLinks,
  subscriptions,
  teamMembers,
  users,
  webhookEndpoints,
  workspaces,
} from '../../db/schema.ts';

export type TAccountExportRow = typeof accountExports.$inferSelect;

/** What an export reads: the account's records, images and how many documents it has. */
function contentQueries(db: TDb) {
  return {
    /** The account's records that are not documents or formats, without any secret. */
    async records(ownerId: string) {
      // Columns are listed, not omitted, so that a secret added to a table later stays out of the export.
      const [keys, hooks, links, subscription] = await Promise.all([
        db.query.apiKeys.findMany({
          columns: { id: true, name: true, mode: true, last4: true, createdAt: true, lastUsedAt: true, revokedAt: true },
          where: eq(apiKeys.ownerId, ownerId),
          orderBy: asc(apiKeys.createdAt),
        }),
        db.query.webhookEndpoints.findMany({
          columns: { id: true, url: true, events: true, createdAt: true, disabledAt: true, disabledReason: true },
          where: eq(webhookEndpoints.ownerId, ownerId),
          orderBy: asc(webhookEndpoints.createdAt),
        }),
        db.query.shareLinks.findMany({
          columns: { id: true, documentId: true, origin: true, createdAt: true, expiresAt: true, revokedAt: true, views: true, downloads: true },
          where: eq(shareLinks.ownerId, ownerId),
          orderBy: asc(shareLinks.createdAt),
        }),
        db.query.subscriptions.findFirst({
          columns: { planId: true, cycle: true, gateway: true, status: true, currentPeriodStart: true, currentPeriodEnd: true, cancelAtPeriodEnd: true },
          where: eq(subscriptions.ownerId, ownerId),
        }),
      ]);
      return { keys, hooks, links, subscription };
    },

    /** The uploaded images, without their bytes (read one at a time with `assetBytes`). */
    async assetList(ownerId: string): Promise<{ id: string; mimeType: 'image/png' | 'image/jpeg'; createdAt: Date }[]> {
      return db
        .select({ id: assets.id, mimeType: assets.mimeType, createdAt: assets.createdAt })
        .from(assets)
        .where(eq(assets.ownerId, ownerId))
        .orderBy(asc(assets.createdAt), asc(assets.id));
    },

    async assetBytes(ownerId: string, id: string): Promise<Buffer | undefined> {
      const [row] = await db
        .select({ bytes: assets.bytes })
        .from(assets)
        .where(and(eq(assets.ownerId, ownerId), eq(assets.id, id)))
        .limit(1);
      return row?.bytes;
    },

    async countDocuments(ownerId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(documents).where(eq(documents.ownerId, ownerId));
      return row?.n ?? 0;
    },
  };
}

/** The export records: started, advanced, finished, and expired. */
function exportQueries(db: TDb) {
  return {
    /** Exports started since `since`, and the one still being built, if any. */
    async recentExports(ownerId: string, since: Date): Promise<TAccountExportRow[]> {
      return db
        .select()
        .from(accountExports)
        .where(and(eq(accountExports.ownerId, ownerId), gte(accountExports.createdAt, since)))
        .orderBy(desc(accountExports.createdAt));
    },

    async latestExport(ownerId: string): Promise<TAccountExportRow | undefined> {
      const [row] = await db.select().from(accountExports).where(eq(accountExports.ownerId, ownerId)).orderBy(desc(accountExports.createdAt)).limit(1);
      return row;
    },

    async getExport(ownerId: string, id: string): Promise<TAccountExportRow | undefined> {
      const [row] = await db
        .select()
        .from(accountExports)
        .where(and(eq(accountExports.ownerId, ownerId), eq(accountExports.id, id)))
        .limit(1);
      return row;
    },

    async startExport(ownerId: string, kind: 'direct' | 'background', documentsTotal: number): Promise<TAccountExportRow> {
      const [row] = await db.insert(accountExports).values({ id: randomUUID(), ownerId, kind, status: 'running', documentsTotal }).returning();
      return row!;
    },

    async exportProgress(ownerId: string, id: string, documentsDone: number): Promise<void> {
      await db
        .update(accountExports)
        .set({ documentsDone })
        .where(and(eq(accountExports.ownerId, ownerId), eq(accountExports.id, id)));
    },

    async finishExport(ownerId: string, id: string, outcome: { status: 'ready' | 'failed'; bytes?: number; expiresAt?: Date }): Promise<void> {
      await db
        .update(accountExports)
        .set({ status: outcome.status, bytes: outcome.bytes ?? null, expiresAt: outcome.expiresAt ?? null, finishedAt: new Date() })
        .where(and(eq(accountExports.ownerId, ownerId), eq(accountExports.id, id)));
    },

    /** Expired background exports, whoever owns them: their files are removed, the record stays. */
    async expiredExports(now: Date): Promise<TAccountExportRow[]> {
      return db
        .select()
        .from(accountExports)
        .where(and(eq(accountExports.status, 'ready'), eq(accountExports.kind, 'background'), lte(accountExports.expiresAt, now)));
    },
  };
}

/** Deleting the account. */
function deletionQueries(db: TDb) {
  return {
    /** Whether `userId` is the installation's only administrator. */
    /** The teams this person is the only owner of while others remain in them: they must hand over first. */
    async teamsLeftWithoutOwner(userId: string): Promise<string[]> {
      const rows = await db
        .select({ name: workspaces.name })
        .from(teamMembers)
        .innerJoin(workspaces, eq(workspaces.id, teamMembers.teamId))
        .where(
          and(
            eq(teamMembers.userId, userId),
            eq(teamMembers.role, 'owner'),
            sql`not exists (select 1 from ${teamMembers} o where o.team_id = ${teamMembers.teamId} and o.role = 'owner' and o.user_id <> ${userId})`,
            sql`exists (select 1 from ${teamMembers} o where o.team_id = ${teamMembers.teamId} and o.user_id <> ${userId})`,
          ),
        )
        .orderBy(asc(workspaces.name));
      return rows.map((r) => r.name ?? '');
    },

    async isOnlyAdmin(userId: string): Promise<boolean> {
      const admins = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(2);
      return admins.length === 1 && admins[0]!.id === userId;
    },

    /** What deleting the account leaves on disk, to be removed once the rows are gone. */
    async filesOf(ownerId: string): Promise<{ documentIds: string[]; jobIds: string[]; exportIds: string[] }> {
      const [docs, jobs, exports] = await Promise.all([
        db.select({ id: documents.id }).from(documents).where(eq(documents.ownerId, ownerId)),
        db.select({ id: bulkJobs.id }).from(bulkJobs).where(eq(bulkJobs.ownerId, ownerId)),
        db.select({ id: accountExports.id }).from(accountExports).where(eq(accountExports.ownerId, ownerId)),
      ]);
      return { documentIds: docs.map((d) => d.id), jobIds: jobs.map((j) => j.id), exportIds: exports.map((e) => e.id) };
    },

    /**
     * Deletes the account: everything it owns goes with the user row (the foreign keys cascade),
     * except billing orders, payments and invoices, which the seller keeps with no owner. The
     * audit entry says that it happened, and nothing of what the account held.
     */
    async deleteAccount(userId: string, by: { actorId: string | null; actorEmail: string }): Promise<boolean> {
      return db.transaction(async (tx) => {
        // A team nobody else is in goes with its last member, and everything it owns with it.
        await tx.execute(sql`
          delete from ${workspaces} w
          where w.kind = 'team'
            and exists (select 1 from ${teamMembers} m where m.team_id = w.id and m.user_id = ${userId})
            and not exists (select 1 from ${teamMembers} o where o.team_id = w.id and o.user_id <> ${userId})`);
        const deleted = await tx.delete(users).where(eq(users.id, userId)).returning({ id: users.id });
        if (deleted.length === 0) return false;
        await tx.insert(auditLog).values({
          id: randomUUID(),
          actorId: by.actorId === userId ? null : by.actorId,
          actorEmail: by.actorEmail,
          action: 'account.delete',
          targetType: 'user',
          targetId: userId,
          details: { by: by.actorId === userId ? 'owner' : 'admin' },
        });
        return true;
      });
    },
  };
}

/** What "Your data" reads and removes: export records, the account's other records, the account itself. */
export function createAccountDataRepository(db: TDb) {
  return { ...contentQueries(db), ...exportQueries(db), ...deletionQueries(db) };
}
export type TAccountDataRepository = ReturnType<typeof createAccountDataRepository>;
