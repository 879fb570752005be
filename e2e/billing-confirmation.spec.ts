import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { startBillingServer, type TBillingServer } from './billing-server.ts';

/*
 * No money moves without the payer's click. A Stripe subscriber (whose upgrades charge the saved
 * card at once) is sent to every billing address by a page on another site, by script and by
 * redirect, as a link in an email or any page could: the session cookie travels with those
 * navigations, yet no order is placed and Stripe charges nothing. Then the user picks a plan,
 * reads the price, the date and the card, clicks Pay, and is charged exactly once.
 */

let billing: TBillingServer;
let attacker: { origin: string; close(): Promise<void> };

const PLAN_KEYS = ['free', 'basic', 'premium', 'enterprise'].flatMap((plan) => [`${plan}_monthly`, `${plan}_yearly`]);

/** A site of its own on 127.0.0.1 (the app is on localhost): it sends visitors on by script or by redirect. */
async function startAttacker() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://attacker');
    const to = url.searchParams.get('to') ?? '/';
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: to }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Your invoice</title><p>Loading your invoice…</p><script>location.href = ${JSON.stringify(to)};</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test.beforeAll(async () => {
  test.setTimeout(150_000);
  billing = await startBillingServer('billing-confirmation', { active: 'stripe' });
  attacker = await startAttacker();
});

test.afterAll(async () => {
  await attacker?.close();
  await billing?.stop();
});

/** Every request to a path the page makes, kept as it happens. */
function watch(page: Page, path: string): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) seen.push(request.url());
  });
  return seen;
}

/** Signs up, then subscribes to Basic monthly through Stripe Checkout, in the browser. */
async function stripeSubscriber(context: BrowserContext, page: Page) {
  const signedUp = await context.request.post('/api/auth/sign-up', {
    data: { firstName: 'Mallory', lastName: 'Target', email: `target-${Date.now()}@e2e.formwork.test`, password: 'buyer-password-123' },
    headers: { origin: billing.server.base },
  });
  expect(signedUp.ok(), await signedUp.text()).toBe(true);
  await page.goto('/settings?tab=billing');
  await page.getByTestId('billing-plan-basic').getByRole('button', { name: 'Choose Basic' }).click();
  const dialog = page.getByRole('dialog', { name: 'Subscribe to Basic (monthly)' });
  await expect(dialog.getByTestId('confirm-payment-total')).toHaveText('$20.00');
  await expect(dialog.getByTestId('confirm-payment-method')).toHaveText('Stripe Checkout');
  await dialog.getByRole('button', { name: 'Continue to Stripe' }).click();
  await page.getByRole('button', { name: 'Pay $20.00' }).click();
  await expect(page.getByRole('heading', { name: 'Subscription Activated!' })).toBeVisible();
}

test('a link from another site never pays; the payer’s click on the confirmed price pays once', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: billing.server.base });
  const page = await context.newPage();
  await stripeSubscriber(context, page);
  const subscription = [...billing.stripe.subscriptions.values()].at(-1)!;
  const chargesBefore = billing.stripe.charges.length;
  expect(billing.stripe.charges.at(-1)).toMatchObject({ subscription: subscription.id, amount: 2_000 });

  const orders = watch(page, '/api/subscription/create-order');
  const quotes = watch(page, '/api/subscription/quote');
  const targets = [
    ...PLAN_KEYS.map((key) => ({ path: `/settings?tab=billing&checkout=${key}`, key, billingTab: true })),
    ...PLAN_KEYS.map((key) => ({ path: `/settings?checkout=${key}`, key, billingTab: false })),
  ];
  for (const [index, target] of targets.entries()) {
    const to = `${billing.server.base}${target.path}`;
    const via = index % 2 === 0 ? 'go' : 'redirect';
    await page.goto(`${attacker.origin}/${via}?to=${encodeURIComponent(to)}`);
    await page.waitForURL((url) => url.origin === billing.server.base && url.pathname === '/settings');
    if (target.billingTab) {
      // Signed in (the cookie came along), on Billing, with the plan at most picked out.
      await expect(page.getByTestId('billing-plan')).toHaveText('Basic');
      if (['premium_monthly', 'premium_yearly', 'basic_yearly'].includes(target.key)) {
        const [plan, cycle] = target.key.split('_') as [string, string];
        const name = `${plan[0]!.toUpperCase()}${plan.slice(1)} (${cycle})`;
        await expect(page.getByTestId('chosen-plan-notice')).toHaveText(
          new RegExp(`You chose ${name.replace(/[()]/g, '\\$&')}\\. Review it below and confirm to pay\\.`),
        );
        await expect(page.getByTestId(`billing-plan-${plan}`)).toHaveAttribute('data-chosen', 'true');
      }
    } else {
      await expect(page.getByRole('tab', { name: /Profile/ })).toHaveAttribute('aria-selected', 'true');
    }
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(orders, `create-order after ${target.path}`).toEqual([]);
    expect(quotes, `quote after ${target.path}`).toEqual([]);
    expect(billing.stripe.charges.length, `charges after ${target.path}`).toBe(chargesBefore);
    expect(subscription.items.data[0]!.price.unit_amount).toBe(2_000);
  }

  // The user's own choice: Premium, yearly. The price, the date and the card, then one click.
  await page.goto('/settings?tab=billing');
  await expect(page.getByTestId('billing-plan')).toHaveText('Basic');
  await page.getByRole('radio', { name: 'Annually' }).click();
  await page.getByTestId('billing-plan-premium').getByRole('button', { name: 'Upgrade to Premium' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch to Premium (yearly)' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('confirm-payment-method')).toHaveText('Visa ending in 4242');
  await expect(dialog).toContainText(/Today, \w{3} \d{1,2}, \d{4}/);
  const total = (await dialog.getByTestId('confirm-payment-total').textContent())!;
  expect(total).toMatch(/^\$8[67]\d\.\d\d$/);
  expect(orders).toEqual([]);
  expect(billing.stripe.charges.length).toBe(chargesBefore);
  await expectAccessible(page, 'payment confirmation');

  // Cancel changes nothing; choosing again and paying charges once.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(orders).toEqual([]);
  await page.getByTestId('billing-plan-premium').getByRole('button', { name: 'Upgrade to Premium' }).click();
  await dialog.getByRole('button', { name: `Pay ${total} now` }).click();
  await expect(page.getByText('Welcome to your Premium plan!').first()).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('billing-plan')).toHaveText('Premium');
  expect(orders).toHaveLength(1);
  expect(billing.stripe.charges.length).toBe(chargesBefore + 1);
  expect(`$${(billing.stripe.charges.at(-1)!.amount / 100).toFixed(2)}`).toBe(total);
  expect(subscription.items.data[0]!.price.unit_amount).toBe(88_800);
  await context.close();
});
