/** How long a session is taken as valid without reading it: the library refreshes sessions as they are read. */
const SESSION_MEMO_MS = 5 * 60_000;
const SESSION_MEMO_ENTRIES = 10_000;

export function createSessionMemo() {
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
      entries.set(cookie, { userId, until: Math.min(expiresAt, Date.now() + SESSION_MEMO_MS) });
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
