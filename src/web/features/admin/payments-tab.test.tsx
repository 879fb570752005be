// @vitest-environment happy-dom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const ADMIN_EMAIL = 'payments-admin@example.com';
const server = withServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });

describe('the payments’ date filters', () => {
  it('say on the field when a day is not one they take, from the address or typed, and keep Clear filters', async () => {
    await signUp(server, { email: ADMIN_EMAIL });
    const { user } = renderApp('/admin?tab=payments&from=20245-01-01');
    const from = await screen.findByLabelText('From');
    await waitFor(() => expect(from.getAttribute('aria-invalid')).toBe('true'));
    const fromError = screen.getByText('From: “20245-01-01” is not a date this filter takes. Use a day from 1970-01-01 to 9998-12-31.');
    expect(from.getAttribute('aria-describedby')).toBe(fromError.id);
    expect([from.getAttribute('min'), from.getAttribute('max')]).toEqual(['1970-01-01', '9998-12-31']);

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('No payments yet')).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('from')).toBeNull();
    expect(screen.getByLabelText('From').getAttribute('aria-invalid')).toBeNull();

    const to = screen.getByLabelText('To');
    await user.type(to, '1969-12-31');
    await waitFor(() => expect(to.getAttribute('aria-invalid')).toBe('true'));
    const toError = screen.getByText('To: “1969-12-31” is not a date this filter takes. Use a day from 1970-01-01 to 9998-12-31.');
    expect(to.getAttribute('aria-describedby')).toBe(toError.id);
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeTruthy();
  });
});
