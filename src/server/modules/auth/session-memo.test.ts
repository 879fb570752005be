import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionMemo, SESSION_MEMO_MS, SHARED_SESSION_MEMO_MS } from './session-memo.ts';

/*
 * A session cookie's user is remembered so most requests skip reading the session. Alone on its
 * database a process ends every session itself and may remember for minutes; beside others on
 * PostgreSQL it remembers for seconds, so a sign-out made elsewhere applies within that time.
 */
afterEach(() => vi.useRealTimers());

describe('the session memo', () => {
  it('remembers for its time, never past the session’s own end, and forgets on sign-out at once', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 27) });
    const shared = createSessionMemo(SHARED_SESSION_MEMO_MS);
    const farEnd = Date.now() + 30 * 24 * 60 * 60_000;
    shared.remember('cookie-a', 'user-1', farEnd);
    shared.remember('cookie-b', 'user-1', Date.now() + 1_000);
    expect(shared.userOf('cookie-a')).toBe('user-1');
    vi.advanceTimersByTime(1_001);
    expect(shared.userOf('cookie-b')).toBeUndefined();
    expect(shared.userOf('cookie-a')).toBe('user-1');
    vi.advanceTimersByTime(SHARED_SESSION_MEMO_MS);
    expect(shared.userOf('cookie-a')).toBeUndefined();

    const alone = createSessionMemo(SESSION_MEMO_MS);
    alone.remember('cookie-a', 'user-1', farEnd);
    vi.advanceTimersByTime(SHARED_SESSION_MEMO_MS * 2);
    expect(alone.userOf('cookie-a')).toBe('user-1');
    alone.forget('cookie-a');
    expect(alone.userOf('cookie-a')).toBeUndefined();
  });
});
