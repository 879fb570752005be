// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { failRequestsTo } from '../../test/failing-request';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const ADMIN_EMAIL = 'gate-admin@example.com';
const server = withServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });

describe('the Admin Panel’s two-factor checks', () => {
  // The admin signs up in the first test and stays signed in for the next.
  it('opens once the access check passes, and says why when it fails, with a Retry', async () => {
    await signUp(server, { email: ADMIN_EMAIL });
    const first = renderApp('/admin?tab=users');
    expect(await screen.findByRole('button', { name: 'Invite people' })).toBeTruthy();
    first.unmount();

    // The check fails only when the server's database does: that one request is stood in for.
    const restore = failRequestsTo('/api/admin/access', 500, 'The access check failed.');
    let user;
    try {
      ({ user } = renderApp('/admin?tab=users'));
      expect(await screen.findByText('The access check failed.')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Invite people' })).toBeNull();
    } finally {
      restore();
    }
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Invite people' })).toBeTruthy();
  });

  it('says the setting could not be loaded rather than showing it Off', async () => {
    const restore = failRequestsTo('/api/admin/settings', 500, 'The settings could not be read.');
    try {
      renderApp('/admin?tab=settings');
      expect((await screen.findAllByText('The settings could not be read.')).length).toBeGreaterThan(0);
      expect(screen.queryByText('Require two-factor sign-in for admins')).toBeNull();
    } finally {
      restore();
    }
  });
});
