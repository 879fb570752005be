// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { failRequestsTo } from '../../test/failing-request';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

const BUSY = 'The server is busy. Try again in a minute.';

describe('a session check that fails', () => {
  it('says so with the server’s words and a Retry, rather than sending a signed-in person to sign in', async () => {
    await signUp(server);
    // The session endpoint fails only when the server's database does: the one request stood in for.
    const restore = failRequestsTo('/api/auth/session', 503, BUSY);
    let user;
    try {
      ({ user } = renderApp('/documents'));
      expect(await screen.findByRole('heading', { name: 'Could not check whether you are signed in' })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toBe(BUSY);
      expect(screen.queryByText('Redirecting to sign in...')).toBeNull();
      expect(screen.queryByText('You are logged out. Logging in again...')).toBeNull();
      expect(window.location.pathname).toBe('/documents');
    } finally {
      restore();
    }
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Recent Documents' })).toBeTruthy();
  });

  it('shows the same at / rather than the landing page', async () => {
    await signUp(server);
    const restore = failRequestsTo('/api/auth/session', 500, 'Something went wrong on our side.');
    try {
      renderApp('/');
      expect(await screen.findByRole('heading', { name: 'Could not check whether you are signed in' })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toBe('Something went wrong on our side.');
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    } finally {
      restore();
    }
  });

  it('still sends someone the server says is signed out to sign in', async () => {
    await fetch('/api/logout', { redirect: 'manual' });
    renderApp('/documents');
    expect(await screen.findByText('Redirecting to sign in...')).toBeTruthy();
  });
});
