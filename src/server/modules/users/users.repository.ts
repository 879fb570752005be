import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { documents, formats, usageCounters, users } from '../../db/schema.ts';

export type TUserRow = typeof users.$inferSelect;

/** Calendar month in UTC: the quota period of accounts without a paid period. */
export function usagePeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/**
 * The key `owner`'s generations count under at `at`: the start of the paid period billing set
 * (users.quota_period), else the calendar month. Read inside the statement that counts, so a
 * period that starts mid-request counts the generation in the new period.
 */
export function countingPeriod(ownerId: string | SQL, at = new Date()): SQL {
  return sql`coalesce((select ${users.quotaPeriod} from ${users} where ${users.id} = ${ownerId}), ${usagePeriod(at)})`;
}

export function createUsersRepository(db: TDb) {
  return {
    async findById(id: string): Promise<TUserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async findByEmail(email: string): Promise<TUserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row;
    },

    async setName(id: string, firstName: string, lastName: string): Promise<void> {
      await db
        .update(users)
        .set({ firstName, lastName, name: `${firstName} ${lastName}`, updatedAt: new Date() })
        .where(eq(users.id, id));
    },

    async setRole(id: string, role: 'user' | 'admin'): Promise<void> {
      await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
    },

    /** The user with this period's generations, in one read: what every quota check needs. */
    async findWithUsage(id: string): Promise<{ user: TUserRow; generations: number } | undefined> {
      const [row] = await db
        .select({ user: users, generations: usageCounters.generations })
        .from(users)
        .leftJoin(usageCounters, and(eq(usageCounters.ownerId, users.id), eq(usageCounters.period, sql`coalesce(${users.quotaPeriod}, ${usagePeriod()})`)))
        .where(eq(users.id, id))
        .limit(1);
      return row ? { user: row.user, generations: row.generations ?? 0 } : undefined;
    },

    async generationsUsed(ownerId: string): Promise<number> {
      const [row] = await db
        .select({ generations: usageCounters.generations })
        .from(usageCounters)
        .where(and(eq(usageCounters.ownerId, ownerId), eq(usageCounters.period, countingPeriod(ownerId))))
        .limit(1);
      return row?.generations ?? 0;
    },

    async countFormats(ownerId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(formats).where(eq(formats.ownerId, ownerId));
      return row?.n ?? 0;
    },

    async countDocuments(ownerId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(documents).where(eq(documents.ownerId, ownerId));
      return row?.n ?? 0;
    },
  };
}
export type TUsersRepository = ReturnType<typeof createUsersRepository>;
