// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { failRequestsTo } from '../../test/failing-request';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const ADMIN_EMAIL = 'invitations-admin@example.com';
const server = withServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });

describe('the invitations not used yet', () => {
  it('says when they could not be loaded, rather than showing nothing', async () => {
    await signUp(server, { email: ADMIN_EMAIL });
    // The list fails only when the server's database does: that one request is stood in for.
    const restore = failRequestsTo('/api/admin/invitations', 500, 'The invitations could not be read.');
    try {
      renderApp('/admin?tab=users');
      expect(await screen.findByText('The invitations could not be read.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Invite people' })).toBeTruthy();
    } finally {
      restore();
    }
  });
});
