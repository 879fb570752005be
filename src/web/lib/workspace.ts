import { useSyncExternalStore } from 'react';
import { navigate as navigateExactly } from 'wouter/use-browser-location';

/**
 * The current workspace: a person's own, or a team. The address holds it (`?team=<id>`; none for
 * the personal one), so a copied link, a reload or a new tab opens the same workspace, and Back
 * and Forward cannot mix two. Nothing else stores it: every reader looks at the address.
 *
 * In-app navigation keeps the parameter (`keepWorkspace`, installed on the router in app.tsx for
 * every Link and navigate); `switchWorkspace` is the one way to change it.
 */
export const WORKSPACE_PARAM = 'team';

/** The team the address names, or null in the personal workspace (and while drawing on the server). */
export function currentTeamId(): string | null {
  if (typeof window === 'undefined') return null;
  return new URLSearchParams(window.location.search).get(WORKSPACE_PARAM) || null;
}

const LOCATION_EVENTS = ['popstate', 'pushState', 'replaceState'] as const;

// wouter's browser location dispatches pushState and replaceState events on window.
function subscribe(onChange: () => void): () => void {
  for (const event of LOCATION_EVENTS) window.addEventListener(event, onChange);
  return () => {
    for (const event of LOCATION_EVENTS) window.removeEventListener(event, onChange);
  };
}

/** The current team's id (null: personal), re-rendering when the address changes it. */
export function useTeamId(): string | null {
  return useSyncExternalStore(subscribe, currentTeamId, () => null);
}

/**
 * `path` with the workspace of `teamId` in its query: an in-app path (`/…`) only; other addresses,
 * the API's and a path that names its own workspace are left as they are.
 */
export function withWorkspace(path: string, teamId: string | null = currentTeamId()): string {
  if (!teamId || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/api/')) return path;
  const hashAt = path.indexOf('#');
  const hash = hashAt >= 0 ? path.slice(hashAt) : '';
  const [pathname = '', query = ''] = (hashAt >= 0 ? path.slice(0, hashAt) : path).split('?', 2);
  const params = new URLSearchParams(query);
  if (params.has(WORKSPACE_PARAM)) return path;
  params.set(WORKSPACE_PARAM, teamId);
  return `${pathname}?${params.toString()}${hash}`;
}

/** For the router: every in-app Link's href and navigate call stays in the current workspace. */
export const keepWorkspace = (path: string): string => withWorkspace(path);

/**
 * Opens `path` (the dashboard unless told) in another workspace: a team's, or the personal one
 * (null). The routed screens remount for it (app.tsx), so nothing of the last one stays on screen.
 */
export function switchWorkspace(teamId: string | null, path = '/'): void {
  const params = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
  params.delete(WORKSPACE_PARAM);
  if (teamId) params.set(WORKSPACE_PARAM, teamId);
  const query = params.toString();
  navigateExactly(`${path.split('?')[0]}${query ? `?${query}` : ''}`);
}
