import { DEFAULT_PLANS } from './plans';
import { queryClient } from './query-client';
import { authKeys, systemKeys } from './query-keys';

/**
 * The landing page arrived drawn by the server, which sends it to a request without a live session
 * (or whose session it could not look up), and drawn with the built-in plan catalogue. The app's first render starts from what the
 * page was drawn with, so that it takes the page over (hydrates) with nothing to change; both are
 * then asked of the server again as their components mount.
 *
 * Without this, the session's and the catalogue's answers arrive while a phone is still taking the
 * page over, and an answer that reaches a component not yet taken over makes React finish that
 * part at once, in one long task. Primed, an answer equal to what is shown changes nothing (the
 * query keeps the same data), and one that differs (a changed catalogue, a sign-in in another tab)
 * is drawn as usual.
 */
export function startFromDrawnLanding(): void {
  for (const [queryKey, data] of [
    [authKeys.user, null],
    [systemKeys.plans, DEFAULT_PLANS],
  ] as const) {
    queryClient.setQueryData(queryKey, data);
    // Marked stale, so each is fetched again when its component mounts (staleTime is Infinity).
    void queryClient.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
  }
}
