// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../test/teams';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

type THappyDomFetchSettings = { happyDOM: { settings: { fetch: { requestHeaders: { url?: RegExp; headers: Record<string, string> }[] | null } } } };

describe('Where you are signed in', () => {
  it('says why signing out everywhere else failed, in the server’s words', async () => {
    const person = await signUp(server);
    // A second sign-in leaves the first session as one "elsewhere".
    await signIn(person);
    const { user } = renderApp('/settings?tab=profile');
    const sessions = await screen.findByRole('list', { name: 'Active sessions' });
    await waitFor(() => expect(within(sessions).getAllByRole('listitem').length).toBeGreaterThan(1));
    const button = screen.getByRole('button', { name: 'Sign out everywhere else' });
    expect(button.hasAttribute('disabled')).toBe(false);

    // A real refusal: the server turns away a write that a browser marks as sent from another site.
    const settings = (window as unknown as THappyDomFetchSettings).happyDOM.settings.fetch;
    const before = settings.requestHeaders;
    settings.requestHeaders = [...(before ?? []), { url: /\/api\/user\/sessions\/sign-out-others$/, headers: { 'Sec-Fetch-Site': 'cross-site' } }];
    try {
      await user.click(button);
      expect(await screen.findByText('Could not sign out your other sessions')).toBeTruthy();
      expect(screen.getByText('This request came from another site and was refused.')).toBeTruthy();
    } finally {
      settings.requestHeaders = before;
    }
  });
});
