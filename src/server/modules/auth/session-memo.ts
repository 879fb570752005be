/** How long a session is taken as valid without reading it: the library refreshes sessions as they are read. */
export const SESSION_MEMO_MS = 5 * 60_000;
/**
 * The same with several processes on PostgreSQL: a sign-out, suspension or password change in
 * one process applies in the others within this time (at once in its own). It still saves the
 * two reads of almost every request made under load.
 */
export const SHARED_SESSION_MEMO_MS = 5_000;
const SESSION_MEMO_ENTRIES = 10_000;

export function createSessionMemo(memoMs = SESSION_MEMO_MS) {
  const entries = new Map<string, { userId: string; until: number }>();
  return {
    userOf(cookie: string): string | undefined {
      const entry = entries.get(cookie);
      if (entry && entry.until > Date.now()) return entry.userId;
      if (entry) entries.delete(cookie);
      return undefined;
    },
    remember(cookie: string, userId: string, expiresAt: number) {
      if (entries.size >= SESSION_MEMO_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(cookie, { userId, until: Math.min(expiresAt, Date.now() + memoMs) });
    },
    forget(cookie: string | undefined) {
      if (cookie) entries.delete(cookie);
    },
    /** After the library ended a user's sessions itself (a reset, a password change). */
    forgetAll() {
      entries.clear();
    },
    forgetUser(userId: string) {
      for (const [cookie, entry] of entries) if (entry.userId === userId) entries.delete(cookie);
    },
  };
}
