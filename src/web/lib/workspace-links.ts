import { toast } from '../hooks/use-toast';
import { readApiError, request } from './api';
import { currentTeamId } from './workspace';

/**
 * A link straight to the API (Download, a preview opened in a tab, a CSV) is fetched by the
 * browser, which cannot add the team header: in a team the server would look in the person's own
 * workspace and answer 404. In a team such links are fetched through the API client instead, and
 * the answer is saved or opened from memory. In the personal workspace they stay plain links.
 */
const WORKSPACE_API = /^\/api\/(documents|bulk-jobs|formats|signature-requests|assets)\/|^\/api\/user\/api-usage/;
/** Answers to save rather than show. */
const SAVED = /\/download$|\.(zip|csv)$|\/excel-template$/;

export function isWorkspaceApiPath(path: string): boolean {
  return WORKSPACE_API.test(path);
}

function fileNameOf(response: Response, path: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // Not valid percent-encoding: the plain name below.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? path.split('/').pop() ?? 'download';
}

function failed(error: unknown) {
  toast({
    variant: 'destructive',
    title: 'Could not open the file',
    description: readApiError(error, 'The file could not be fetched. Please try again.').message,
  });
}

/** Saves the answer to `path` as a file (its name from the server's Content-Disposition). */
async function save(path: string): Promise<void> {
  try {
    const response = await request('GET', path);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = fileNameOf(response, path);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    failed(error);
  }
}

/**
 * Opens the answer to `path` in a new tab. The tab is opened at once, while the click still counts
 * as the person's (a pop-up blocker allows it), and shown the answer when it arrives.
 */
async function show(path: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const blob = await (await request('GET', path)).blob();
    const url = URL.createObjectURL(blob);
    if (tab) tab.location.href = url;
    else window.location.assign(url);
  } catch (error) {
    tab?.close();
    failed(error);
  }
}

/** Opens an API address in a new tab, in the current workspace (the builder's Open PDF). */
export function openApiInTab(path: string): void {
  if (currentTeamId() && isWorkspaceApiPath(path)) void show(path);
  else window.open(path, '_blank', 'noopener');
}

let installed = false;

/** Installed once at start-up: catches clicks on links to workspace API addresses while in a team. */
export function installWorkspaceLinks(): void {
  if (installed) return;
  installed = true;
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (!currentTeamId()) return;
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(anchor instanceof HTMLAnchorElement)) return;
    const url = new URL(anchor.href, window.location.href);
    if (url.origin !== window.location.origin || !isWorkspaceApiPath(url.pathname)) return;
    event.preventDefault();
    const path = `${url.pathname}${url.search}`;
    void (anchor.hasAttribute('download') || SAVED.test(url.pathname) ? save(path) : show(path));
  });
}
