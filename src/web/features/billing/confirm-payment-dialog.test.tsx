// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBillingOverview } from '../../../contract/billing';
import { api } from '../../lib/api';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';
import { startStripeStandIn, type TStripeStandIn } from '../../test/stand-ins';

const ADMIN_EMAIL = 'payments-admin@example.com';
const server = withServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
let stripe: TStripeStandIn;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  // Stripe on, pointed at its stand-in, as an administrator turns it on.
  await signUp(server, { email: ADMIN_EMAIL });
  await api.post('/api/admin/payment-gateways', {
    gatewayName: 'stripe',
    keyId: 'pk_test_standin',
    keySecret: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    configuration: { apiBaseUrl: stripe.url },
    isActive: true,
  });
});
afterAll(async () => {
  await stripe.close();
});

describe('the checkout confirmation', () => {
  it('shows the price and how it is paid before anything is charged, and Cancel leaves the plan as it was', async () => {
    await signUp(server);
    const { user } = renderApp('/settings?tab=billing');
    const basic = await screen.findByTestId('billing-plan-basic');
    expect(screen.queryByText('Payments are not available yet')).toBeNull();
    await user.click(within(basic).getByRole('button', { name: 'Choose Basic' }));

    const dialog = await findDialog('Subscribe to Basic (monthly)');
    expect(within(dialog).getByTestId('confirm-payment-total').textContent).toBe('$20.00');
    expect(within(dialog).getByText("You pay $20.00 on Stripe's secure page next. Nothing is charged until you complete it there.")).toBeTruthy();
    expect(within(dialog).getByRole('list', { name: 'What you pay for' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Continue to Stripe' })).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const overview = await api.get<TBillingOverview>('/api/subscription');
    expect(overview.planId).toBe('free');
    expect(overview.subscription).toBeNull();
    // No checkout was opened at the gateway either.
    expect(stripe.sessions.size).toBe(0);
    expect(screen.getByTestId('billing-plan').textContent).toBe('Free');
  });

  it('quotes the yearly price when the yearly cycle is chosen', async () => {
    await signUp(server);
    const { user } = renderApp('/settings?tab=billing');
    await screen.findByTestId('billing-plan-premium');
    await user.click(screen.getByRole('radio', { name: 'Annually' }));
    await user.click(within(screen.getByTestId('billing-plan-premium')).getByRole('button', { name: 'Choose Premium' }));
    const dialog = await findDialog('Subscribe to Premium (yearly)');
    expect(within(dialog).getByTestId('confirm-payment-total').textContent).toBe('$888.00');
  });

  it('opens the review for a plan chosen before signing up, without paying for it', async () => {
    await signUp(server);
    const { user } = renderApp('/settings?tab=billing&checkout=basic_monthly');
    const notice = await screen.findByTestId('chosen-plan-notice');
    expect(within(notice).getByText('You chose Basic (monthly). Review it below and confirm to pay.')).toBeTruthy();
    expect(within(screen.getByTestId('billing-plan-basic')).getByText('Your choice')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(notice).getByRole('button', { name: 'Review Basic (monthly)' }));
    expect(await findDialog('Subscribe to Basic (monthly)')).toBeTruthy();
  });
});
