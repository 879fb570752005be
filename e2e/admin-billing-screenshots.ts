/**
 * Screenshots of the Admin Panel's billing screens at 1280 px and 375 px, for looking at by eye:
 * Payments (a few real payments through the Razorpay stand-in, one partly refunded, and a filter
 * that matches nothing), Plans, Payment Gateways, Settings and the Audit log. Not a test. Run
 * against a running server whose ADMIN_EMAILS holds ADMIN_EMAIL, with its log in SERVER_LOG (the admin's
 * verification link is there):
 *   BASE_URL=http://localhost:5351 ADMIN_EMAIL=shots-admin@example.com STAND_IN_PORT=5352 SERVER_LOG=/tmp/server.log \
 *     npx tsx e2e/admin-billing-screenshots.ts [outDir=/tmp/formwork-admin-billing-shots]
 * It reports console errors and horizontal overflow.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, request as playwrightRequest, type APIRequestContext, type Page } from 'playwright-core';
import { startRazorpayStandIn } from '../src/server/test/gateway-stand-ins/razorpay-stand-in.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { linkFromLogFile } from './own-server.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5351';
const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? 'shots-admin@example.com';
const OUT = process.argv[2] ?? '/tmp/formwork-admin-billing-shots';
const PASSWORD = 'correct horse battery';
const problems: string[] = [];
const headers = { origin: BASE_URL };

function watch(page: Page, label: string) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`[${label}] console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`[${label}] page error: ${err.message}`));
}

async function shot(page: Page, name: string, width: number, opts: { fullPage?: boolean } = {}) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `${name}-${width}.png`);
  if (opts.fullPage ?? true) {
    // A window as tall as the page, so what sticks to its edges (the top bar, the Plans save bar)
    // is drawn where it rests, not where a shorter window would have it.
    const viewport = page.viewportSize()!;
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
    await page.waitForTimeout(200);
    await page.screenshot({ path: file });
    await page.setViewportSize(viewport);
  } else {
    await page.screenshot({ path: file });
  }
  console.log(`wrote ${file}`);
}

async function ok(response: Awaited<ReturnType<APIRequestContext['get']>>, what: string) {
  if (!response.ok()) throw new Error(`${what}: ${response.status()} ${await response.text()}`);
  return response.json() as Promise<unknown>;
}

async function signUp(context: APIRequestContext, firstName: string, lastName: string, email: string) {
  await ok(await context.post(`${BASE_URL}/api/auth/sign-up`, { data: { firstName, lastName, email, password: PASSWORD } }), `sign up ${email}`);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const razorpay = await startRazorpayStandIn({ port: Number(process.env.STAND_IN_PORT ?? 0) });
  razorpay.setWebhookUrl(`${BASE_URL}/api/billing/webhooks/razorpay`);

  const admin = await playwrightRequest.newContext();
  await signUp(admin, 'Priya', 'Raman', ADMIN_EMAIL);
  const link = new URL(await linkFromLogFile(ADMIN_EMAIL), BASE_URL);
  await ok(
    await admin.post(`${BASE_URL}/api/auth/verify-email`, { headers: { origin: BASE_URL }, data: { token: link.searchParams.get('token') } }),
    'verify the admin',
  );
  const me = (await ok(await admin.get(`${BASE_URL}/api/auth/user`), 'who am I')) as { id: string; role: string };
  if (me.role !== 'admin') throw new Error(`${ADMIN_EMAIL} is not an admin: add it to the server's ADMIN_EMAILS`);

  // Gateways: Stripe and PayPal kept inactive, Razorpay (at the stand-in) taking payments.
  await ok(
    await admin.post(`${BASE_URL}/api/admin/payment-gateways`, {
      headers,
      data: { gatewayName: 'stripe', keyId: 'pk_test_51Hs9aExample', keySecret: 'sk_test_x', isActive: false },
    }),
    'stripe',
  );
  await ok(
    await admin.post(`${BASE_URL}/api/admin/payment-gateways`, {
      headers,
      data: {
        gatewayName: 'paypal',
        keyId: 'AeA1QIZXiflr1_Example',
        keySecret: 'paypal-secret',
        isActive: false,
        configuration: { webhookId: 'WH-2WR32451HC0233532-67976317FL4543714' },
      },
    }),
    'paypal',
  );
  const gateway = (await ok(
    await admin.post(`${BASE_URL}/api/admin/payment-gateways`, {
      headers,
      data: {
        gatewayName: 'razorpay',
        keyId: razorpay.keyId,
        keySecret: razorpay.keySecret,
        webhookSecret: razorpay.webhookSecret,
        isActive: true,
        configuration: { apiBaseUrl: razorpay.url, checkoutScriptUrl: razorpay.checkoutScriptUrl },
      },
    }),
    'razorpay',
  )) as { id: string };

  for (const [key, value] of [
    ['billing.seller_name', 'Formwork Labs Pvt Ltd'],
    ['billing.seller_address', '4th Floor, 12 Residency Road\nBengaluru 560025\nKarnataka, India'],
    ['billing.seller_tax_id', '29ABCDE1234F1Z5'],
  ] as const) {
    await ok(await admin.post(`${BASE_URL}/api/admin/settings`, { headers, data: { key, value } }), key);
  }

  // Customers pay through the stand-in, as Razorpay Checkout would hand the result back.
  const customers = [
    ['Aarav', 'Shah', 'basic_monthly'],
    ['Meera', 'Iyer', 'premium_yearly'],
    ['Jonah', 'Blake', 'basic_yearly'],
    ['Sofia', 'Marquez', 'premium_monthly'],
    ['Kenji', 'Watanabe', 'basic_monthly'],
  ] as const;
  const paymentIds: string[] = [];
  const ids: string[] = [];
  for (const [first, last, planId] of customers) {
    const customer = await playwrightRequest.newContext();
    const email = `${first.toLowerCase()}.${last.toLowerCase()}@example.com`;
    await signUp(customer, first, last, email);
    ids.push(((await ok(await customer.get(`${BASE_URL}/api/auth/user`), 'user')) as { id: string }).id);
    const { confirm } = (await ok(await customer.post(`${BASE_URL}/api/subscription/quote`, { headers, data: { planId } }), `quote ${email}`)) as {
      confirm: string;
    };
    const order = (await ok(await customer.post(`${BASE_URL}/api/subscription/create-order`, { headers, data: { planId, confirm } }), `order ${email}`)) as {
      orderId: string;
    };
    const { checkout, payment } = razorpay.pay(order.orderId);
    await ok(await customer.post(`${BASE_URL}/api/subscription/verify-payment`, { headers, data: { ...checkout, planId } }), `verify ${email}`);
    paymentIds.push(payment.id);
    await customer.dispose();
  }
  // Meera gets part of her yearly payment back.
  const refund = razorpay.refund(paymentIds[1]!, 200_000);
  await ok(await admin.post(`${BASE_URL}/api/billing/webhooks/razorpay`, { headers: refund.headers, data: refund.body }), 'refund');

  // A few admin changes for the audit log.
  const plans = (await ok(await admin.get(`${BASE_URL}/api/admin/plans`), 'plans')) as { id: string; inrMonthly: number | null }[];
  await ok(
    await admin.put(`${BASE_URL}/api/admin/plans`, { headers, data: plans.map((p) => (p.id === 'premium' ? { ...p, inrMonthly: 1099 } : p)) }),
    'save plans',
  );
  await ok(
    await admin.patch(`${BASE_URL}/api/admin/users/${ids[4]}`, { headers, data: { subscriptionPlan: 'enterprise', apiCallsLimit: 250_000 } }),
    'enterprise',
  );
  await ok(await admin.patch(`${BASE_URL}/api/admin/users/${ids[2]}/role`, { headers, data: { role: 'admin' } }), 'role');
  await ok(await admin.patch(`${BASE_URL}/api/admin/payment-gateways/${gateway.id}`, { headers, data: { webhookSecret: razorpay.webhookSecret } }), 'rotate');
  const cookies = await admin.storageState();
  await admin.dispose();

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 }, deviceScaleFactor: 1, storageState: cookies });
    const page = await context.newPage();
    watch(page, `w${width}`);

    await page.goto(`${BASE_URL}/admin?tab=payments`);
    await page.getByTestId('payment-totals').waitFor();
    await shot(page, 'admin-payments', width);
    await page.goto(`${BASE_URL}/admin?tab=payments&status=partially_refunded`);
    await page.getByText('Partly refunded').filter({ visible: true }).first().waitFor();
    await shot(page, 'admin-payments-filtered', width);
    await page.goto(`${BASE_URL}/admin?tab=payments&gateway=paypal`);
    await page.getByText('No payments match these filters').waitFor();
    await shot(page, 'admin-payments-empty', width);

    await page.goto(`${BASE_URL}/admin?tab=plans`);
    await page.getByTestId('plan-card').first().waitFor();
    await shot(page, 'admin-plans', width);
    await page.getByLabel('INR monthly').nth(0).fill('12,99.5x');
    await page.getByRole('button', { name: 'Save plans' }).click();
    await page.getByText('Some fields need a look').waitFor();
    await page.getByTestId('plan-card').nth(1).scrollIntoViewIfNeeded();
    await shot(page, 'admin-plans-error', width, { fullPage: false });

    await page.goto(`${BASE_URL}/admin?tab=audit`);
    await page.getByTestId('audit-entry').first().waitFor();
    await shot(page, 'admin-audit', width);

    await page.goto(`${BASE_URL}/admin?tab=payment-gateways`);
    await page.getByTestId('gateway-card').first().waitFor();
    await shot(page, 'admin-gateways', width);
    await page.getByRole('button', { name: 'Edit Razorpay' }).click();
    await page.getByRole('dialog').waitFor();
    await shot(page, 'admin-gateway-edit', width, { fullPage: false });
    await page.keyboard.press('Escape');

    await page.goto(`${BASE_URL}/admin?tab=settings`);
    await page.getByTestId('setting-row').first().waitFor();
    await shot(page, 'admin-settings', width);
    await page.getByRole('button', { name: 'Edit billing.seller_address' }).click();
    await page.getByRole('dialog').waitFor();
    await shot(page, 'admin-setting-address', width, { fullPage: false });
    await page.keyboard.press('Escape');
    await context.close();
  }
  await browser.close();
  await razorpay.close();
  if (problems.length) {
    console.log(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log('\nNo console errors, no horizontal overflow.');
  }
}

await main();
