// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TPlanCatalogue } from '../../../contract/plans';
import { api } from '../../lib/api';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const ADMIN_EMAIL = 'billing-admin@example.com';
// No payment gateway is set up on this server.
const server = withServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });

const planCard = (id: string) => screen.getByTestId(`billing-plan-${id}`);

describe('the billing tab without a payment gateway', () => {
  it('shows each plan with its price, and the account’s plan marked as its own', async () => {
    await signUp(server);
    renderApp('/settings?tab=billing');
    expect((await screen.findByTestId('billing-plan')).textContent).toBe('Free');

    expect(within(planCard('free')).getByTestId('price-free').textContent).toBe('$0');
    expect(within(planCard('basic')).getByTestId('price-basic').textContent).toBe('$20');
    expect(within(planCard('premium')).getByTestId('price-premium').textContent).toBe('$99');
    expect(within(planCard('enterprise')).getByText('Custom')).toBeTruthy();

    expect(within(planCard('free')).getByText('Your plan')).toBeTruthy();
    expect(within(planCard('free')).getByRole('button', { name: 'Current plan' }).hasAttribute('disabled')).toBe(true);
    expect(within(planCard('basic')).queryByText('Your plan')).toBeNull();

    // Signature requests are counted beside documents, and the plans list their allowance.
    expect(screen.getByTestId('billing-signature-requests').textContent).toBe('0 / 5');
    expect(within(planCard('free')).getByText('5 signature requests/month')).toBeTruthy();
    expect(within(planCard('enterprise')).getByText('Unlimited signature requests')).toBeTruthy();
  });

  it('says plainly that payments are not available, and offers no way to pay', async () => {
    await signUp(server);
    renderApp('/settings?tab=billing');
    expect(await screen.findByText('Payments are not available yet')).toBeTruthy();
    expect(screen.getByText('No payment method has been set up for this Formwork. Contact support to upgrade.')).toBeTruthy();
    for (const id of ['basic', 'premium']) {
      const button = within(planCard(id)).getByRole('button', { name: 'Not available yet' });
      expect(button.hasAttribute('disabled')).toBe(true);
    }
    expect(screen.queryByRole('button', { name: /^Choose / })).toBeNull();
  });

  it('shows the yearly prices when the cycle is switched', async () => {
    await signUp(server);
    const { user } = renderApp('/settings?tab=billing');
    await screen.findByTestId('billing-plan');
    await user.click(screen.getByRole('radio', { name: 'Annually' }));
    expect(screen.getByRole('radio', { name: 'Annually' }).getAttribute('aria-checked')).toBe('true');
    expect(within(planCard('basic')).getByTestId('price-basic').textContent).toBe('$15');
    expect(within(planCard('basic')).getByText('billed annually ($180/year)')).toBeTruthy();
  });

  it('shows the prices the administrator set, not built-in ones', async () => {
    await signUp(server, { email: ADMIN_EMAIL });
    const catalogue = await api.get<TPlanCatalogue>('/api/admin/plans');
    await api.put(
      '/api/admin/plans',
      catalogue.map((p) => (p.id === 'basic' ? { ...p, name: 'Starter', usdMonthly: 27 } : p)),
    );

    await signUp(server);
    renderApp('/settings?tab=billing');
    const basic = await screen.findByTestId('billing-plan-basic');
    expect(within(basic).getByRole('heading', { name: 'Starter' })).toBeTruthy();
    expect(within(basic).getByTestId('price-basic').textContent).toBe('$27');
  });
});
