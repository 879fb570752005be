/**
 * How every web component test renders: the whole app (its real query client, router and
 * providers) at a path, in happy-dom, talking to a real Formwork server in this process on
 * loopback. The window's address is the server's, so the app's relative `/api/...` calls reach it
 * and its cookies stay in the window's cookie jar, as in a browser.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { act, cleanup, configure, render, renderHook, screen, waitFor, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { TPlanId } from '../../contract/plans';
import type { TUser } from '../../contract/user';
import { users, workspaces } from '../../server/db/schema';
import type { TBuildAppOptions } from '../../server/app';
import { createTestApp, type TTestApp } from '../../server/test/test-app';
import { App } from '../app';
import { useToast } from '../hooks/use-toast';
import { api } from '../lib/api';
import { queryClient } from '../lib/query-client';
import { clearImportedDraft } from '../features/builder/imported-draft-store';

// The first render of a page loads its lazy chunk through the transformer: give it time. A wait
// ends as soon as what it waits for appears; nothing here asserts how long anything took.
configure({ asyncUtilTimeout: 15_000 });

type THappyDomWindow = Window & {
  happyDOM: {
    setURL(url: string): void;
    settings: { fetch: { requestHeaders: { url?: RegExp; headers: Record<string, string> }[] | null } };
  };
};

export type TWebServer = {
  t: TTestApp;
  origin: string;
};

type TServerOptions = { env?: Record<string, string>; background?: TBuildAppOptions['background'] };

/**
 * Starts a server for this test file (fresh database) and points the window at it. `env` is the
 * server's configuration on top of the test defaults; `background` what createTestApp passes on
 * (e.g. the SMTP stand-in's certificate). A function is called when the server starts, after the
 * file's earlier beforeAll hooks (which may start stand-ins).
 */
export function withServer(options: TServerOptions | (() => TServerOptions) = {}): TWebServer {
  const server = {} as TWebServer;
  beforeAll(async () => {
    const { env, background } = typeof options === 'function' ? options() : options;
    server.t = await createTestApp(env, background);
    await server.t.app.listen({ host: '127.0.0.1', port: 0 });
    server.origin = `http://127.0.0.1:${(server.t.app.server.address() as AddressInfo).port}`;
    const win = window as unknown as THappyDomWindow;
    win.happyDOM.setURL(`${server.origin}/`);
    // A browser marks its own page's requests so; happy-dom does not, and the server's CSRF
    // check refuses a write with a cookie that shows neither this nor an Origin.
    win.happyDOM.settings.fetch.requestHeaders = [
      { url: new RegExp(`^${server.origin.replace(/[.]/g, '\\.')}/`), headers: { 'Sec-Fetch-Site': 'same-origin' } },
    ];
  });
  afterEach(async () => {
    returnToApp(server);
    // The last screen's requests finish here, not in the next test or against a closed server.
    await waitFor(() => {
      if (queryClient.isFetching() + queryClient.isMutating() > 0) throw new Error('requests still under way');
    });
    // Nothing the last test left is seen by the next: its toasts, its stored drafts and choices.
    const toasts = renderHook(() => useToast());
    act(() => toasts.result.current.dismiss());
    cleanup();
    queryClient.clear();
    localStorage.clear();
    sessionStorage.clear();
  });
  afterAll(async () => {
    // The next file in this thread shares the window and the app's modules: it starts signed out,
    // with no imported draft waiting. Cookies do not tell ports apart, so this file's session
    // cookie would otherwise reach the next file's server.
    clearImportedDraft();
    if (server.origin) await fetch(`${server.origin}/api/logout`, { redirect: 'manual' }).catch(() => undefined);
    await server.t?.close();
  });
  return server;
}

export type TSignedIn = { email: string; password: string; user: TUser };

/**
 * Signs a new user up through the app's own API client, so the session cookie lands in the
 * window, and marks the address verified as opening its link would (needed once a mail server is
 * set up). Signing in replaces the window's session cookie: one person at the browser at a time.
 */
export async function signUp(server: TWebServer, overrides: { verified?: boolean; firstName?: string; email?: string } = {}): Promise<TSignedIn> {
  const email = overrides.email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  await api.post('/api/auth/sign-up', { firstName: overrides.firstName ?? 'Ada', lastName: 'Lovelace', email, password });
  if (overrides.verified ?? true) {
    await server.t.database.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
  }
  const user = await api.post<TUser>('/api/auth/sign-in', { email, password });
  return { email, password, user };
}

/**
 * Back at the app's address after the page went elsewhere (a `mailto:` draft): relative
 * requests need it, as a person's browser would need them to come back.
 */
export function returnToApp(server: TWebServer, path = '/'): void {
  if (window.location.origin !== server.origin) (window as unknown as THappyDomWindow).happyDOM.setURL(`${server.origin}${path}`);
}

/** Puts a user on a plan, as a payment or an administrator would. */
export async function setPlan(server: TWebServer, userId: string, plan: TPlanId): Promise<void> {
  await server.t.database.db.update(workspaces).set({ subscriptionPlan: plan }).where(eq(workspaces.id, userId));
}

/** Renders the app at `path` (e.g. `/settings?tab=billing`) and returns a user to drive it. */
export function renderApp(path: string): RenderResult & { user: UserEvent } {
  window.history.replaceState(null, '', path);
  queryClient.clear();
  // No pause between keystrokes: each one still goes through every event a browser fires.
  const user = userEvent.setup({ delay: null });
  return { ...render(<App />), user };
}

/**
 * Finds an open (modal) dialog by its title once it can take clicks. A modal Radix dialog turns
 * pointer events off on the page first and back on for itself one render later; a click that lands
 * in between hits nothing, as it would in a browser.
 */
export async function findDialog(name: string, role: 'dialog' | 'alertdialog' = 'dialog'): Promise<HTMLElement> {
  const dialog = await screen.findByRole(role, { name });
  await waitFor(() => {
    if (dialog.style.pointerEvents !== 'auto') {
      throw new Error(`The dialog “${name}” does not take clicks yet.`);
    }
  });
  return dialog;
}

export { screen };
