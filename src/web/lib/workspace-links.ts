import { currentTeamId, WORKSPACE_PARAM } from './workspace';

/**
 * A link straight to the API (Download, a preview opened in a tab, a CSV, a stored image) is
 * followed by the browser, which cannot add the team header. For reads the server also takes the
 * team from the address (`?team=`), so in a team such links name it there, and the browser streams
 * the file itself, however large. In the personal workspace they stay as they are.
 */
const WORKSPACE_API = /^\/api\/(documents|bulk-jobs|formats|signature-requests|assets)\/|^\/api\/user\/api-usage/;

export function isWorkspaceApiPath(path: string): boolean {
  return WORKSPACE_API.test(path);
}

/** `path`, an API address, as a plain link or an image can use it in the current workspace. */
export function apiHref(path: string, teamId: string | null = currentTeamId()): string {
  if (!teamId || !isWorkspaceApiPath(path)) return path;
  const url = new URL(path, 'http://localhost');
  if (url.searchParams.has(WORKSPACE_PARAM)) return path;
  url.searchParams.set(WORKSPACE_PARAM, teamId);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Opens an API address in a new tab, in the current workspace (the builder's Open PDF). */
export function openApiInTab(path: string): void {
  window.open(apiHref(path), '_blank', 'noopener');
}

/** Names the team in a link to a workspace API address, before the browser follows it. */
function nameTeamIn(event: Event): void {
  if (!currentTeamId()) return;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement)) return;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return;
  const path = `${url.pathname}${url.search}${url.hash}`;
  const named = apiHref(path);
  if (named !== path) anchor.setAttribute('href', named);
}

let installed = false;

/**
 * Installed once at start-up. Every way of following a link passes through one of these events
 * first (a click, a middle click, Enter after focusing it, the menu's "open in new tab"), so the
 * link names the team whichever way it is followed.
 */
export function installWorkspaceLinks(): void {
  if (installed) return;
  installed = true;
  for (const type of ['pointerdown', 'focusin', 'contextmenu', 'click', 'auxclick']) document.addEventListener(type, nameTeamIn, true);
}
