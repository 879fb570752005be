import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { sharedReads } from '../../db/shared-reads.ts';
import { usageCounters, workspaces } from '../../db/schema.ts';

export type TWorkspaceRow = typeof workspaces.$inferSelect;

/** Calendar month in UTC: the quota period of workspaces without a paid period. */
export function usagePeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/**
 * The key `owner`'s generations count under at `at` (a time, or SQL for a yyyy-mm month): the start of the paid period billing set
 * (workspaces.quota_period), else the calendar month. Read inside the statement that counts, so a
 * period that starts mid-request counts the generation in the new period.
 */
export function countingPeriod(ownerId: string | SQL, at: Date | SQL = new Date()): SQL {
  return sql`coalesce((select ${workspaces.quotaPeriod} from ${workspaces} where ${workspaces.id} = ${ownerId}), ${at instanceof Date ? usagePeriod(at) : at})`;
}

/** Each plan's monthly generations by plan id, and the limit of a plan the catalogue does not name. */
export type TGenerationLimits = { byPlan: Record<string, number>; fallback: number };

/**
 * The generations `owner` may make this period, read inside the statement that counts them: the
 * workspace's own override, else its plan's, else the fallback (the rule quota.service's
 * generationLimit applies to a row already read). Null when there is no such workspace.
 */
export function generationLimitOf(ownerId: string | SQL, limits: TGenerationLimits): SQL {
  return sql`(select coalesce(${workspaces.apiCallsLimit}, (${JSON.stringify(limits.byPlan)}::jsonb ->> ${workspaces.subscriptionPlan}::text)::int, ${limits.fallback}::int)
    from ${workspaces} where ${workspaces.id} = ${ownerId})`;
}

/** A workspace's plan, quota period and mail settings: what a person and a team both have. */
export function createWorkspacesRepository(db: TDb) {
  // Every generation asks this: prepared once, it is neither built again here nor planned again by the database.
  const withUsage = db
    .select({ workspace: workspaces, generations: usageCounters.generations })
    .from(workspaces)
    .leftJoin(
      usageCounters,
      and(eq(usageCounters.ownerId, workspaces.id), eq(usageCounters.period, sql`coalesce(${workspaces.quotaPeriod}, ${sql.placeholder('period')})`)),
    )
    .where(eq(workspaces.id, sql.placeholder('id')))
    .limit(1)
    .prepare('workspace_with_usage');
  // Concurrent generations by one workspace share the read that began after they all asked.
  const readWithUsage = sharedReads(async (id: string) => {
    const [row] = await withUsage.execute({ id, period: usagePeriod() });
    return row ? { workspace: row.workspace, generations: row.generations ?? 0 } : undefined;
  });
  return {
    async findById(id: string): Promise<TWorkspaceRow | undefined> {
      const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id)).limit(1);
      return row;
    },

    /** The workspace with this period's generations, in one read: what every quota check needs. */
    findWithUsage: readWithUsage,

    async generationsUsed(ownerId: string): Promise<number> {
      const [row] = await db
        .select({ generations: usageCounters.generations })
        .from(usageCounters)
        .where(and(eq(usageCounters.ownerId, ownerId), eq(usageCounters.period, countingPeriod(ownerId))))
        .limit(1);
      return row?.generations ?? 0;
    },
  };
}
export type TWorkspacesRepository = ReturnType<typeof createWorkspacesRepository>;
