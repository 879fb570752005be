import { and, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { signInCounters } from '../../db/schema.ts';

/** When a count starts to earn a wait, and how the wait grows: doubling from the first, up to the cap. */
export type TWaitRule = { from: number; firstSeconds: number; maxSeconds: number };

export type TCounter = { count: number; windowEnds: Date; waitUntil: Date | null };

/** What the admission of a sign-in attempt found: counted against client and account, or a wait. */
export type TAdmission =
  | { admitted: true; client: TCounter; account: TCounter; networkFailures: number }
  | { admitted: false; waitUntil: Date | undefined; refundClient: TCounter | undefined };

const t = signInCounters;
const at = (time: Date) => sql`${time.toISOString()}::timestamptz`;

type TRow = Record<string, unknown>;
const rowsOf = (result: unknown): TRow[] => {
  const { rows } = result as { rows?: TRow[] };
  return Array.isArray(rows) ? rows : (result as TRow[]);
};
const dateOf = (value: unknown): Date | undefined =>
  value === null || value === undefined ? undefined : value instanceof Date ? value : new Date(value as string);
function counterOf(row: TRow, prefix: string): TCounter | undefined {
  if (row[`${prefix}Count`] === null || row[`${prefix}Count`] === undefined) return undefined;
  return {
    count: Number(row[`${prefix}Count`]),
    windowEnds: dateOf(row[`${prefix}WindowEnds`])!,
    waitUntil: dateOf(row[`${prefix}WaitUntil`]) ?? null,
  };
}

/**
 * An upsert that counts one more attempt in the key's window (a new window once the last has
 * ended) and sets the wait the new count earns, unless a wait is still running: then it changes
 * nothing and returns no row. `when` can hold it back altogether.
 */
function chargeSql(key: string, now: Date, windowSeconds: number, rule: TWaitRule | undefined, when: SQL = sql`true`): SQL {
  const newWindowEnds = new Date(now.getTime() + windowSeconds * 1000);
  const expired = sql`c.window_ends <= ${at(now)}`;
  const n = sql`(case when ${expired} then 1 else c.count + 1 end)`;
  const waitAfter = (count: SQL) => {
    if (!rule) return sql`null::timestamptz`;
    // The exponent is bounded so a count far past the cap cannot overflow the arithmetic.
    const seconds = sql`least(${rule.maxSeconds}::float8, ${rule.firstSeconds}::float8 * power(2::float8, least(${count} - ${rule.from}, 30)))`;
    return sql`case when ${count} >= ${rule.from} then ${at(now)} + make_interval(secs => ${seconds}) else null::timestamptz end`;
  };
  return sql`
    insert into ${t} as c (key, count, window_ends, wait_until)
    select ${key}, 1, ${at(newWindowEnds)}, ${waitAfter(sql`1`)} where ${when}
    on conflict (key) do update set
      count = ${n},
      window_ends = case when ${expired} then ${at(newWindowEnds)} else c.window_ends end,
      wait_until = ${waitAfter(n)}
    where c.wait_until is null or c.wait_until <= ${at(now)}
    returning count, window_ends, wait_until`;
}

/**
 * The counters behind sign-in throttling and the sign-up limit. Every change is one statement, so
 * app processes sharing the database (and parallel requests in one) never lose a count or let two
 * attempts through where one wait should stand between them.
 */
export function createAuthRepository(db: TDb) {
  return {
    /**
     * One statement for a sign-in attempt: refused while the account waits; otherwise counted
     * against the client (refused while it waits) and then the account, with the failures its
     * network has made in the window. A refusal names when the wait ends; if the account's wait
     * began between the two counts, the client's count is handed back to be refunded.
     */
    async admit(
      keys: { client: string; account: string; network: string },
      now: Date,
      windowSeconds: number,
      rules: { client: TWaitRule; account: TWaitRule },
    ): Promise<TAdmission> {
      const [row] = rowsOf(
        await db.execute(sql`
          with prior as (
            select key, count, window_ends, wait_until from ${t} where key in (${keys.client}, ${keys.account}, ${keys.network})
          ), account_wait as (
            select wait_until from prior where key = ${keys.account} and wait_until > ${at(now)}
          ), client_charge as (
            ${chargeSql(keys.client, now, windowSeconds, rules.client, sql`not exists (select 1 from account_wait)`)}
          ), account_charge as (
            ${chargeSql(keys.account, now, windowSeconds, rules.account, sql`exists (select 1 from client_charge)`)}
          )
          select
            (select wait_until from account_wait) as "accountWait",
            (select wait_until from prior where key = ${keys.client}) as "clientWait",
            (select case when window_ends > ${at(now)} then count else 0 end from prior where key = ${keys.network}) as "networkFailures",
            cc.count as "clientCount", cc.window_ends as "clientWindowEnds", cc.wait_until as "clientWaitUntil",
            ac.count as "accountCount", ac.window_ends as "accountWindowEnds", ac.wait_until as "accountWaitUntil"
          from (select 1) as one
          left join client_charge as cc on true
          left join account_charge as ac on true`),
      );
      const client = counterOf(row!, 'client');
      const account = counterOf(row!, 'account');
      if (client && account) return { admitted: true, client, account, networkFailures: Number(row!.networkFailures ?? 0) };
      const waitUntil = dateOf(row!.accountWait) ?? (client ? undefined : dateOf(row!.clientWait));
      return { admitted: false, waitUntil, refundClient: client };
    },

    /** Counts one more in the key's window, with the wait the count earns under `rule`; undefined while a wait runs. */
    async charge(key: string, now: Date, windowSeconds: number, rule?: TWaitRule): Promise<TCounter | undefined> {
      const [row] = rowsOf(await db.execute(chargeSql(key, now, windowSeconds, rule)));
      return row && { count: Number(row.count), windowEnds: dateOf(row.window_ends)!, waitUntil: dateOf(row.wait_until) ?? null };
    },

    /** The counters of these keys that still hold something at `now`. */
    async read(keys: string[], now: Date): Promise<Map<string, TCounter>> {
      const rows = await db
        .select()
        .from(t)
        .where(and(inArray(t.key, keys), sql`(${t.windowEnds} > ${at(now)} or ${t.waitUntil} > ${at(now)})`));
      return new Map(rows.map((row) => [row.key, { count: row.windowEnds > now ? row.count : 0, windowEnds: row.windowEnds, waitUntil: row.waitUntil }]));
    },

    /**
     * Takes back a count whose attempt was not a failure after all: one less, and the wait it set,
     * if it set one, is lifted. Nothing happens once its window has ended.
     */
    async refund(key: string, charge: TCounter): Promise<void> {
      await db
        .update(t)
        .set({
          count: sql`greatest(${t.count} - 1, 0)`,
          waitUntil: charge.waitUntil ? sql`case when ${t.waitUntil} = ${at(charge.waitUntil)} then null else ${t.waitUntil} end` : sql`${t.waitUntil}`,
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
      const expired = sql`${t.windowEnds} <= ${at(now)}`;
      const [row] = await db
        .insert(t)
        .values({ key, count: 1, windowEnds: newWindowEnds })
        .onConflictDoUpdate({
          target: t.key,
          set: {
            count: sql`case when ${expired} then 1 else ${t.count} + 1 end`,
            windowEnds: sql`case when ${expired} then ${at(newWindowEnds)} else ${t.windowEnds} end`,
          },
          setWhere: sql`${expired} or ${t.count} < ${limit}`,
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
