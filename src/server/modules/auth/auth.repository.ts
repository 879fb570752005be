import { and, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { signInCounters } from '../../db/schema.ts';

/** When a charged count starts to earn a wait, and how the wait grows: doubling from the first, up to the cap. */
export type TWaitRule = { from: number; firstSeconds: number; maxSeconds: number };

export type TCounter = { count: number; windowEnds: Date; waitUntil: Date | null };

const t = signInCounters;
const at = (time: Date) => sql`${time.toISOString()}::timestamptz`;
const expired = (now: Date) => sql`${t.windowEnds} <= ${at(now)}`;

/** The wait a count of `n` earns, as SQL: null below the rule's threshold. */
function waitAfter(n: SQL, now: Date, rule: TWaitRule | undefined): SQL {
  if (!rule) return sql`null::timestamptz`;
  // The exponent is bounded so a count far past the cap cannot overflow the arithmetic.
  const seconds = sql`least(${rule.maxSeconds}::float8, ${rule.firstSeconds}::float8 * power(2::float8, least(${n} - ${rule.from}, 30)))`;
  return sql`case when ${n} >= ${rule.from} then ${at(now)} + make_interval(secs => ${seconds}) else null::timestamptz end`;
}

/**
 * The counters behind sign-in throttling and the sign-up limit. Every change is one statement, so
 * app processes sharing the database (and parallel requests in one) never lose a count or let two
 * attempts through where one wait should stand between them.
 */
export function createAuthRepository(db: TDb) {
  return {
    /** The counters of these keys that still hold something at `now`. */
    async read(keys: string[], now: Date): Promise<Map<string, TCounter>> {
      const rows = await db
        .select()
        .from(t)
        .where(and(inArray(t.key, keys), sql`(${t.windowEnds} > ${at(now)} or ${t.waitUntil} > ${at(now)})`));
      return new Map(rows.map((row) => [row.key, { count: expiredAt(row, now) ? 0 : row.count, windowEnds: row.windowEnds, waitUntil: row.waitUntil }]));
    },

    /**
     * Counts one more attempt in the key's window (a new window once the last has ended) and sets
     * the wait the new count earns, unless a wait is still running: then nothing changes and the
     * answer is undefined.
     */
    async charge(key: string, now: Date, windowSeconds: number, rule?: TWaitRule): Promise<TCounter | undefined> {
      const newWindowEnds = new Date(now.getTime() + windowSeconds * 1000);
      const n = sql`(case when ${expired(now)} then 1 else ${t.count} + 1 end)`;
      const [row] = await db
        .insert(t)
        .values({ key, count: 1, windowEnds: newWindowEnds, waitUntil: waitAfter(sql`1`, now, rule) })
        .onConflictDoUpdate({
          target: t.key,
          set: {
            count: n,
            windowEnds: sql`case when ${expired(now)} then ${at(newWindowEnds)} else ${t.windowEnds} end`,
            waitUntil: waitAfter(n, now, rule),
          },
          setWhere: sql`${t.waitUntil} is null or ${t.waitUntil} <= ${at(now)}`,
        })
        .returning({ count: t.count, windowEnds: t.windowEnds, waitUntil: t.waitUntil });
      return row;
    },

    /**
     * Takes back a charge whose attempt was not a failure after all: one count less, and the wait it
     * set, if it set one, is lifted. Nothing happens once its window has ended.
     */
    async refund(key: string, charge: TCounter): Promise<void> {
      await db
        .update(t)
        .set({
          count: sql`greatest(${t.count} - 1, 0)`,
          waitUntil: charge.waitUntil
            ? sql`case when ${t.waitUntil} = ${at(charge.waitUntil)} then null else ${t.waitUntil} end`
            : sql`${t.waitUntil}`,
        })
        .where(and(eq(t.key, key), eq(t.windowEnds, charge.windowEnds)));
    },

    async clear(key: string): Promise<void> {
      await db.delete(t).where(eq(t.key, key));
    },

    /**
     * Counts one attempt against a limit per window: undefined, and nothing counted, when the
     * window already holds `limit`.
     */
    async take(key: string, now: Date, windowSeconds: number, limit: number): Promise<TCounter | undefined> {
      const newWindowEnds = new Date(now.getTime() + windowSeconds * 1000);
      const [row] = await db
        .insert(t)
        .values({ key, count: 1, windowEnds: newWindowEnds })
        .onConflictDoUpdate({
          target: t.key,
          set: {
            count: sql`case when ${expired(now)} then 1 else ${t.count} + 1 end`,
            windowEnds: sql`case when ${expired(now)} then ${at(newWindowEnds)} else ${t.windowEnds} end`,
          },
          setWhere: sql`${expired(now)} or ${t.count} < ${limit}`,
        })
        .returning({ count: t.count, windowEnds: t.windowEnds, waitUntil: t.waitUntil });
      return row;
    },

    /** Forgets counters whose window and wait have both ended. */
    async sweep(now: Date): Promise<void> {
      await db.delete(t).where(and(lte(t.windowEnds, now), or(isNull(t.waitUntil), lte(t.waitUntil, now))));
    },
  };
}
export type TAuthRepository = ReturnType<typeof createAuthRepository>;

const expiredAt = (row: { windowEnds: Date }, now: Date) => row.windowEnds.getTime() <= now.getTime();
