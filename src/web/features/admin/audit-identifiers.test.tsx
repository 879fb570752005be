// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { api } from '../../lib/api';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const ADMIN_EMAIL = 'audit-admin@example.com';
const server = withServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });

describe('the audit log', () => {
  it('prints a mail server’s port as typed, never grouped as a quantity', async () => {
    await signUp(server, { email: ADMIN_EMAIL });
    await api.put('/api/admin/mail-settings', {
      host: 'mail.example.com',
      port: 2626,
      secure: false,
      fromAddress: 'notices@example.com',
      fromName: 'Formwork',
    });
    renderApp('/admin?tab=audit');
    expect(await screen.findByText('Changed the outgoing mail server')).toBeTruthy();
    expect(await screen.findByText('2626')).toBeTruthy();
    expect(screen.queryByText('2,626')).toBeNull();
  });
});
