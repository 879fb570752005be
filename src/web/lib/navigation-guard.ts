/**
 * Holds navigation away from a page with unsaved work, so it can ask first: in-app links (the
 * router calls history.pushState) and the browser's Back and Forward buttons (popstate).
 *
 * Installed once at start-up, before the router subscribes to popstate: listeners on window run
 * in the order they were added, and the router re-renders (unmounting the page) inside its own
 * listener, so a page's listener added later would never get the event.
 */
export type TNavigationGuard = {
  /** True while leaving should be held. */
  shouldBlock(): boolean;
  /** Where the page is (address and history state), to put back after Back or Forward. */
  here(): { url: string; state: unknown };
  /** Leaving was held; `go` leaves after all. */
  onBlocked(go: () => void): void;
};

let active: TNavigationGuard | null = null;
let bypassing = false;
let installed = false;

const withoutHash = (url: string) => url.split('#')[0];

export const currentUrl = (): string => `${location.pathname}${location.search}${location.hash}`;

export function installNavigationGuard(): void {
  if (installed) return;
  installed = true;
  const original = history.pushState;
  const holding = () => active !== null && !bypassing && active.shouldBlock();

  history.pushState = function (this: History, data, unused, url) {
    if (url != null && holding()) {
      active!.onBlocked(() => original.call(history, data, unused, url));
      return;
    }
    original.call(history, data, unused, url);
  };

  // The browser has already moved to the other entry: the router must not see it, the page's
  // address goes back, and `go` later makes the move as a new entry.
  window.addEventListener('popstate', (event) => {
    if (!holding()) return;
    const here = active!.here();
    // Back over an in-page jump (a #fragment, like Skip to content) does not leave the page.
    if (withoutHash(here.url) === withoutHash(currentUrl())) return;
    event.stopImmediatePropagation();
    const target = currentUrl();
    original.call(history, here.state, '', here.url);
    active!.onBlocked(() => original.call(history, event.state, '', target));
  });
}

/** Makes `guard` the one in force; returns the function that removes it. */
export function setNavigationGuard(guard: TNavigationGuard): () => void {
  active = guard;
  return () => {
    if (active === guard) active = null;
  };
}

/** Runs `navigate` (which leaves the page) without asking. */
export function navigateWithoutGuard(navigate: () => void): void {
  bypassing = true;
  try {
    navigate();
  } finally {
    bypassing = false;
  }
}
