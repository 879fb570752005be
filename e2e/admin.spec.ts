import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { startRazorpayStandIn } from '../src/server/test/gateway-stand-ins/razorpay-stand-in.ts';
import { expectAccessible } from './axe.ts';
import { startOwnServer, type TOwnServer } from './own-server.ts';
import { collectConsoleErrors } from './console-errors.ts';

/**
 * This journey runs against its own server (fresh database, its own ADMIN_EMAILS) serving the
 * dist/web that the config's webServer has just built. The shared server's admin account,
 * admin@e2e.formwork.test, is created by foundation.spec.ts through the sign-up form, so creating
 * it here first would break that journey.
 */
const ADMIN = { firstName: 'Pam', lastName: 'Panel', email: 'panel-admin@e2e.formwork.test', password: 'admin-password-123' };
let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // The webhook journey's receiver listens on loopback, which only an operator's list allows.
  server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email, IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1' }, 'admin');
  base = server.base;
});

test.afterAll(() => {
  server?.stop();
});

/** Creates and signs in the admin within this request context (the page's cookies). */
async function signUpAdmin(request: APIRequestContext) {
  const created = await request.post(`${base}/api/auth/sign-up`, { data: ADMIN });
  expect(created.ok(), await created.text()).toBe(true);
  // ADMIN_EMAILS counts once the address is verified: with no mail server, its link is in the log.
  const link = new URL(await server!.verificationLink(ADMIN.email), base);
  const verified = await request.post(`${base}/api/auth/verify-email`, { headers: { origin: base }, data: { token: link.searchParams.get('token') } });
  expect(verified.ok(), await verified.text()).toBe(true);
}

test('admin panel: users and roles, a setting, a Razorpay gateway; a user gets Access Denied', async ({ page, browser, request }) => {
  const consoleErrors = collectConsoleErrors(page);
  const stamp = Date.now();
  const otherEmail = `olive.${stamp}@example.com`;
  // Another user, signed up in a separate cookie jar.
  const other = await request.post(`${base}/api/auth/sign-up`, {
    data: { firstName: 'Olive', lastName: `Other${stamp}`, email: otherEmail, password: 'other-password-123' },
  });
  expect(other.ok()).toBe(true);

  await signUpAdmin(page.request);
  await page.goto(`${base}/admin`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Panel');
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');

  // Users: the other user is listed; search narrows the table.
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByText(otherEmail)).toBeVisible();
  await page.getByLabel('Search users by name or email').fill(`Other${stamp}`);
  await expect(table.getByTestId('admin-user-row')).toHaveCount(1);
  const row = table.getByTestId('admin-user-row').filter({ hasText: otherEmail });
  await expect(row.getByTestId('role-badge')).toHaveText('User');

  // Promote to admin…
  await row.getByRole('button', { name: `Change role for ${otherEmail}` }).click();
  let dialog = page.getByRole('dialog', { name: 'Change role' });
  await dialog.getByRole('radio', { name: /^Admin/ }).check();
  await dialog.getByRole('button', { name: 'Update role' }).click();
  await expect(page.getByText('User role updated successfully', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('role-badge')).toHaveText('Admin');

  // …and back.
  await row.getByRole('button', { name: `Change role for ${otherEmail}` }).click();
  dialog = page.getByRole('dialog', { name: 'Change role' });
  await dialog.getByRole('radio', { name: /^User/ }).check();
  await dialog.getByRole('button', { name: 'Update role' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('role-badge')).toHaveText('User');

  // An admin cannot demote themselves: the option is disabled.
  await page.getByLabel('Search users by name or email').fill(ADMIN.email);
  await table.getByRole('button', { name: `Change role for ${ADMIN.email}` }).click();
  dialog = page.getByRole('dialog', { name: 'Change role' });
  await expect(dialog.getByRole('radio', { name: /^User/ })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Settings: the tab follows ?tab=; add the support address.
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\?tab=settings$/);
  await page.getByRole('button', { name: 'Add setting' }).first().click();
  dialog = page.getByRole('dialog', { name: 'Add setting' });
  // The plan catalogue has its own tab: the dialog does not offer it.
  await expect(dialog.getByLabel('Setting', { exact: true }).locator('option', { hasText: 'plans.catalogue' })).toHaveCount(0);
  await dialog.getByLabel('Setting', { exact: true }).selectOption('support.email');
  await dialog.getByLabel('Value', { exact: true }).fill('not-an-email');
  await dialog.getByRole('button', { name: 'Add setting' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Enter an email address');
  await dialog.getByLabel('Value', { exact: true }).fill('help@e2e.formwork.test');
  await dialog.getByRole('button', { name: 'Add setting' }).click();
  await expect(dialog).toBeHidden();
  const settingRow = page.getByTestId('setting-row').filter({ hasText: 'support.email' });
  await expect(settingRow).toContainText('help@e2e.formwork.test');
  await expect(settingRow).toContainText('The address that support links write to.');

  // The daily limit on users' mail through the installation's server: a whole number of emails.
  await page.getByRole('button', { name: 'Add setting' }).first().click();
  dialog = page.getByRole('dialog', { name: 'Add setting' });
  await dialog.getByLabel('Setting', { exact: true }).selectOption('mail.daily_limit');
  await expect(dialog).toContainText('Emails a day users may send through the installation’s mail server');
  await dialog.getByLabel('Value', { exact: true }).fill('lots');
  await dialog.getByRole('button', { name: 'Add setting' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Enter a whole number of emails a day from 1 to 10,000,000, such as 500.');
  await dialog.getByLabel('Value', { exact: true }).fill('500');
  await dialog.getByRole('button', { name: 'Add setting' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('setting-row').filter({ hasText: 'mail.daily_limit' })).toContainText('500');

  // Payment gateways: create Razorpay (inactive), then switch it on.
  await page.getByRole('tab', { name: 'Payment Gateways' }).click();
  await expect(page).toHaveURL(/\?tab=payment-gateways$/);
  await page.getByRole('button', { name: 'Add gateway' }).first().click();
  dialog = page.getByRole('dialog', { name: 'Add payment gateway' });
  await dialog.getByRole('button', { name: 'Add gateway' }).click();
  await expect(dialog.getByText('Enter the key ID.')).toBeVisible();
  await dialog.getByLabel('Gateway', { exact: true }).selectOption('razorpay');
  await dialog.getByLabel('Key ID').fill(`rzp_test_${stamp}`);
  await dialog.getByLabel('Key secret').fill('razorpay-key-secret-value');
  const activeSwitch = dialog.getByRole('switch', { name: 'Active' });
  if ((await activeSwitch.getAttribute('aria-checked')) === 'true') await activeSwitch.click();
  await dialog.getByRole('button', { name: 'Add gateway' }).click();
  await expect(page.getByText('Payment gateway created successfully', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId('gateway-card').filter({ hasText: `rzp_test_${stamp}` });
  await expect(card).toContainText('Razorpay');
  await expect(card).toContainText('Key secret set');
  await expect(card).toContainText('Webhook secret not set');
  await expect(card).not.toContainText('razorpay-key-secret-value');
  await expect(card.getByText('Inactive')).toBeVisible();
  const toggle = card.getByRole('switch', { name: 'Razorpay active' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(page.getByText('Payment gateway updated successfully', { exact: true })).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByText('Prices show in INR: Razorpay is active', { exact: true })).toBeVisible();

  // At 375 px the users table becomes cards and nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${base}/admin?tab=users`);
  await expect(page.getByTestId('admin-user-card').filter({ hasText: otherEmail })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users' })).toBeHidden();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(consoleErrors).toEqual([]);

  // A signed-in user who is not an admin: Access Denied, and no admin data is requested.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  const adminCalls: string[] = [];
  userPage.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/admin')) adminCalls.push(r.url());
  });
  const signedIn = await userPage.request.post(`${base}/api/auth/sign-in`, {
    data: { email: otherEmail, password: 'other-password-123' },
  });
  expect(signedIn.ok()).toBe(true);
  await userPage.goto(`${base}/admin`);
  await expect(userPage.getByText('Access Denied')).toBeVisible();
  await expect(userPage.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  expect(adminCalls).toEqual([]);
  await userContext.close();
});

function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

test('admin billing: a plan price edited in Plans reaches pricing and checkout; payments filtered, an invoice downloaded; a plan set by hand; the audit log tells it all', async ({
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const consoleErrors = collectConsoleErrors(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const razorpay = await startRazorpayStandIn();
  try {
    const signIn = await page.request.post(`${base}/api/auth/sign-in`, { data: { email: ADMIN.email, password: ADMIN.password } });
    if (!signIn.ok()) await signUpAdmin(page.request);
    const gateway = await page.request.post(`${base}/api/admin/payment-gateways`, {
      headers: { origin: base },
      data: {
        gatewayName: 'razorpay',
        keyId: razorpay.keyId,
        keySecret: razorpay.keySecret,
        webhookSecret: razorpay.webhookSecret,
        isActive: true,
        configuration: { apiBaseUrl: razorpay.url, checkoutScriptUrl: razorpay.checkoutScriptUrl },
      },
    });
    expect(gateway.status(), await gateway.text()).toBe(201);

    await test.step('Plans: a wrong price is caught in the form; Basic at ₹349 is saved and priced everywhere', async () => {
      await page.goto(`${base}/admin?tab=plans`);
      const basic = page.getByTestId('plan-card').filter({ has: page.getByRole('heading', { name: 'Basic' }) });
      const inrMonthly = basic.getByLabel('INR monthly');
      await expect(inrMonthly).toHaveValue('299');
      await inrMonthly.fill('3,49x');
      await page.getByRole('button', { name: 'Save plans' }).click();
      await expect(basic.getByText('Enter an amount such as 20 or 19.99.')).toBeVisible();
      await expect(inrMonthly).toBeFocused();
      // The contract's rule across fields, checked before anything is sent.
      await inrMonthly.fill('349');
      await basic.getByLabel('INR a month, yearly').fill('400');
      await page.getByRole('button', { name: 'Save plans' }).click();
      await expect(basic.getByText('Billed annually, a month costs no more than monthly.')).toBeVisible();
      await basic.getByLabel('INR a month, yearly').fill('');
      await expect(basic.getByText('Blank: ₹262 (25% off).')).toBeVisible();
      await page.getByRole('button', { name: 'Save plans' }).click();
      await expect(page.getByText('Plans saved', { exact: true })).toBeVisible();
      await expect(page.getByText('All changes saved.')).toBeVisible();

      const plans = (await (await page.request.get(`${base}/api/plans`)).json()) as { currency: string; plans: { id: string; inrMonthly: number }[] };
      expect(plans.currency).toBe('INR');
      expect(plans.plans.find((p) => p.id === 'basic')?.inrMonthly).toBe(349);
      const visitor = await browser.newContext();
      const landing = await visitor.newPage();
      await landing.goto(`${base}/`);
      await expect(landing.locator('#pricing').getByText('₹349', { exact: true })).toBeVisible();
      await visitor.close();
    });

    // Two customers pay through the Razorpay stand-in, as its Checkout hands the result back.
    const stamp = Date.now();
    const customers: { email: string; id: string }[] = [];
    for (const [name, planId] of [
      ['Basil', 'basic_monthly'],
      ['Petra', 'premium_yearly'],
    ] as const) {
      const customer = await playwright.request.newContext({ extraHTTPHeaders: { origin: base } });
      const email = `${name.toLowerCase()}.${stamp}@pay.example.com`;
      expect(
        (await customer.post(`${base}/api/auth/sign-up`, { data: { firstName: name, lastName: 'Payer', email, password: 'payer-password-123' } })).ok(),
      ).toBe(true);
      // The price is quoted, then confirmed with the quote's token, as the billing dialog does.
      const quote = await customer.post(`${base}/api/subscription/quote`, { data: { planId } });
      expect(quote.ok(), await quote.text()).toBe(true);
      const { confirm } = (await quote.json()) as { confirm: string };
      const order = await customer.post(`${base}/api/subscription/create-order`, { data: { planId, confirm } });
      expect(order.ok(), await order.text()).toBe(true);
      const { orderId, amount } = (await order.json()) as { orderId: string; amount: number };
      if (planId === 'basic_monthly') expect(amount).toBe(34_900);
      const { checkout } = razorpay.pay(orderId);
      const verified = await customer.post(`${base}/api/subscription/verify-payment`, { data: { ...checkout, planId } });
      expect(verified.ok(), await verified.text()).toBe(true);
      const me = (await (await customer.get(`${base}/api/auth/user`)).json()) as { id: string };
      customers.push({ email, id: me.id });
      await customer.dispose();
    }
    const [basil, petra] = customers as [{ email: string; id: string }, { email: string; id: string }];

    await test.step('Payments: filters live in the address; totals follow them; the invoice downloads', async () => {
      await page.goto(`${base}/admin?tab=payments`);
      const table = page.getByRole('table', { name: 'Payments' });
      await expect(table.getByTestId('payment-row').filter({ hasText: basil.email.split('@')[0]! })).toBeVisible();
      await expect(table.getByTestId('payment-row').filter({ hasText: petra.email.split('@')[0]! })).toBeVisible();

      await page.getByLabel('Customer email').fill(`basil.${stamp}`);
      await expect(page).toHaveURL(new RegExp(`email=basil\\.${stamp}`));
      await expect(table.getByTestId('payment-row')).toHaveCount(1);
      const row = table.getByTestId('payment-row').first();
      await expect(row).toContainText('Basic');
      await expect(row).toContainText('Monthly');
      await expect(row).toContainText('₹349');
      await expect(row.getByTestId('payment-status')).toHaveText('Paid');
      await expect(page.getByTestId('payment-totals')).toContainText('Payments1');
      await expect(page.getByTestId('payment-totals')).toContainText('Received in INR₹349');

      // Another status: nothing matches, and the way back is offered.
      await page.getByLabel('Status', { exact: true }).selectOption('refunded');
      await expect(page).toHaveURL(/status=refunded/);
      await expect(page.getByText('No payments match these filters')).toBeVisible();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect(page).not.toHaveURL(/status=|email=/);
      await expect(page.getByLabel('Customer email')).toHaveValue('');

      // A filtered address opens filtered.
      await page.goto(`${base}/admin?tab=payments&gateway=razorpay&email=${encodeURIComponent(`basil.${stamp}`)}`);
      await expect(page.getByLabel('Customer email')).toHaveValue(`basil.${stamp}`);
      await expect(page.getByLabel('Gateway', { exact: true })).toHaveValue('razorpay');
      await expect(table.getByTestId('payment-row')).toHaveCount(1);

      const downloadPromise = page.waitForEvent('download');
      await row.getByRole('button', { name: /^Download invoice FW-\d{6} \(PDF\)$/ }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toMatch(/^formwork-invoice-FW-\d{6}\.pdf$/);
      const text = pdfText(await download.path());
      expect(text).toContain(basil.email);
      expect(text).toContain('349');
      expect(text).toContain('Basic');
    });

    await test.step('Users: Enterprise by hand, with its default limit of 100,000', async () => {
      await page.goto(`${base}/admin?tab=users`);
      await page.getByLabel('Search users by name or email').fill(petra.email);
      const row = page.getByRole('table', { name: 'Users' }).getByTestId('admin-user-row');
      await row.getByRole('button', { name: `Change plan for ${petra.email}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Plan and monthly limit' });
      await dialog.getByLabel('Plan', { exact: true }).selectOption('enterprise');
      await expect(dialog.getByText('Leave blank to use the plan’s limit (100,000 a month).', { exact: false })).toBeVisible();
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(dialog).toBeHidden();
      await expect(row).toContainText('Enterprise');
      await expect(row).toContainText('/ 100,000');
    });

    await test.step('Payment Gateways: the webhook address to register, addresses checked, a secret replaced', async () => {
      await page.goto(`${base}/admin?tab=payment-gateways`);
      const card = page.getByTestId('gateway-card').filter({ hasText: razorpay.keyId });
      await expect(card).toContainText(`${base}/api/billing/webhooks/razorpay`);
      await expect(card).toContainText(razorpay.url);
      await card.getByRole('button', { name: 'Copy the Razorpay webhook address' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/api/billing/webhooks/razorpay`);
      await card.getByRole('button', { name: 'Edit Razorpay' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Razorpay' });
      await expect(dialog.getByLabel('API base address')).toHaveValue(razorpay.url);
      await expect(dialog.getByLabel('Checkout script address')).toHaveAttribute('placeholder', 'https://checkout.razorpay.com/v1/checkout.js');
      await dialog.getByLabel('Checkout script address').fill('checkout.example.com/v1.js');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(dialog.getByText('Enter an http(s) address.')).toBeVisible();
      await dialog.getByLabel('Checkout script address').fill(razorpay.checkoutScriptUrl);
      await dialog.getByLabel('New webhook secret').fill(razorpay.webhookSecret);
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(dialog).toBeHidden();
      await expect(card).toContainText('Webhook secret set');
      await expect(card).not.toContainText(razorpay.webhookSecret);
    });

    await test.step('Audit log: who changed the plans, a user and a gateway, in words', async () => {
      await page.goto(`${base}/admin?tab=audit`);
      const entries = page.getByTestId('audit-entry');
      const gatewayEntry = entries.filter({ hasText: 'Changed a gateway' }).first();
      await expect(gatewayEntry).toContainText('Razorpay');
      await expect(gatewayEntry.getByTestId('audit-details')).toContainText('Webhook secretReplaced');
      await expect(gatewayEntry).toContainText(ADMIN.email);
      const planEntry = entries.filter({ hasText: petra.email }).first();
      await expect(planEntry.getByTestId('audit-what')).toHaveText('Changed a plan or limit');
      await expect(planEntry.getByTestId('audit-details')).toContainText('Premium→Enterprise');
      const plansEntry = entries.filter({ hasText: 'Edited the plans' }).first();
      await expect(plansEntry.getByTestId('audit-details')).toContainText('ChangedBasic');
      await expect(entries.filter({ hasText: 'Added a gateway' }).first()).toContainText('Key secretSet');
      await expect(page.locator('body')).not.toContainText(razorpay.keySecret);
    });
    expect(consoleErrors).toEqual([]);
  } finally {
    await razorpay.close();
  }
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
]) {
  test(`the Admin Panel has no serious accessibility violations at ${viewport.width} px`, async ({ browser }) => {
    // Seven tabs and dialogs, each with a full axe pass.
    test.slow();
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const signIn = await page.request.post(`${base}/api/auth/sign-in`, { data: { email: ADMIN.email, password: ADMIN.password } });
    if (!signIn.ok()) await signUpAdmin(page.request);
    const where = `${viewport.width} px`;
    await page.goto(`${base}/admin`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Panel');
    await expect(page.getByText(ADMIN.email).filter({ visible: true }).first()).toBeVisible();
    await expectAccessible(page, `admin users, ${where}`);
    await page.getByRole('button', { name: `Change role for ${ADMIN.email}` }).click();
    await expectAccessible(page, `admin role dialog, ${where}`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expectAccessible(page, `admin settings, ${where}`);
    await page.getByRole('button', { name: 'Add setting' }).first().click();
    await expectAccessible(page, `admin add-setting dialog, ${where}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('tab', { name: /Gateways$/ }).click();
    await expectAccessible(page, `admin payment gateways, ${where}`);
    await page.getByRole('button', { name: 'Add gateway' }).first().click();
    await expectAccessible(page, `admin add-gateway dialog, ${where}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('tab', { name: 'Payments' }).click();
    await expect(page.getByTestId('payment-totals').or(page.getByText('No payments yet'))).toBeVisible();
    await expectAccessible(page, `admin payments, ${where}`);
    await page.getByRole('tab', { name: 'Plans' }).click();
    await expect(page.getByTestId('plan-card').first()).toBeVisible();
    await expectAccessible(page, `admin plans, ${where}`);
    await page.getByRole('tab', { name: /^Audit/ }).click();
    await expect(page.getByTestId('audit-entry').first().or(page.getByText('Nothing changed yet'))).toBeVisible();
    await expectAccessible(page, `admin audit log, ${where}`);
    await context.close();
  });
}

test('API Access: an Enterprise user creates a key, copies it, calls the API with it, sees the call in the chart, then revokes it', async ({
  browser,
  playwright,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const signIn = await page.request.post(`${base}/api/auth/sign-in`, { data: { email: ADMIN.email, password: ADMIN.password } });
  if (!signIn.ok()) await signUpAdmin(page.request);
  const me = (await (await page.request.get(`${base}/api/auth/user`)).json()) as { id: string };

  // Without API access: the way to get it.
  await page.request.patch(`${base}/api/admin/users/${me.id}`, { data: { subscriptionPlan: 'premium' }, headers: { origin: base } });
  await page.goto(`${base}/settings?tab=api`);
  await expect(page.getByText('API access comes with the Enterprise plan')).toBeVisible();
  // No sales address set: nothing writes to someone else's; with one, Contact Sales writes to it.
  await expect(page.getByText('Ask the administrator of this installation for the Enterprise plan.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contact Sales' })).toHaveCount(0);
  const salesSet = await page.request.put(`${base}/api/admin/settings/sales.email`, { data: { value: 'deals@e2e.formwork.test' }, headers: { origin: base } });
  expect(salesSet.ok()).toBe(true);
  await page.reload();
  await expect(page.getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', /^mailto:deals@e2e\.formwork\.test/);
  await expectAccessible(page, 'API Access without the plan');
  await page.request.delete(`${base}/api/admin/settings/sales.email`, { headers: { origin: base } });

  // With it: create, copy, revoke.
  const upgraded = await page.request.patch(`${base}/api/admin/users/${me.id}`, { data: { subscriptionPlan: 'enterprise' }, headers: { origin: base } });
  expect(upgraded.ok()).toBe(true);
  await page.goto(`${base}/settings?tab=api`);
  await page.getByLabel('Key name').fill('Billing system');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByLabel('New API key');
  await expect(shown).toHaveValue(/^fw_live_[A-Za-z0-9_-]{43}$/);
  const key = await shown.inputValue();
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByText('API Key Copied', { exact: true }).first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expectAccessible(page, 'API Access with a new key');
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await expect(shown).toHaveCount(0);
  const row = page.getByTestId('api-key-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Billing system');
  await expect(row).toContainText(key.slice(-4));
  await expect(page.locator('body')).not.toContainText(key);

  // An integrator's server: only the key, no cookie.
  const format = (await (
    await page.request.post(`${base}/api/formats`, {
      headers: { origin: base },
      data: {
        name: 'API invoice',
        content: { elements: [{ id: 'p', type: 'paragraph', content: 'Invoice for {{client_name}}' }] },
        placeholders: [{ name: 'client_name', type: 'text', required: true }],
      },
    })
  ).json()) as { id: string };
  const integrator = await playwright.request.newContext({ extraHTTPHeaders: { authorization: `Bearer ${key}` } });
  const generated = await integrator.post(`${base}/api/v1/documents`, { data: { formatId: format.id, data: { client_name: 'Acme Ltd' } } });
  expect(generated.status()).toBe(201);
  const document = (await generated.json()) as { pdfUrl: string };
  const pdf = await integrator.get(document.pdfUrl);
  expect(pdf.headers()['content-type']).toBe('application/pdf');

  // The calls show in the usage chart and its table.
  await page.reload();
  await expect(page.getByText('Requests', { exact: true }).locator('..')).toContainText('2');
  await expect(page.getByText('Documents', { exact: true }).locator('..')).toContainText('1');
  await expect(page.getByTestId('usage-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await page.getByText('Show the figures for each day').click();
  const today = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader') })
    .first();
  await expect(today.getByRole('cell').nth(0)).toHaveText('2');
  await expect(today.getByRole('cell').nth(3)).toHaveText('1');
  await expectAccessible(page, 'API Access with usage');

  await row.getByRole('button', { name: 'Revoke Billing system' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('No keys yet.')).toBeVisible();
  const refused = await integrator.post(`${base}/api/v1/documents`, { data: { formatId: format.id, data: { client_name: 'Acme Ltd' } } });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  await integrator.dispose();
  await context.close();
});

for (const [width, height] of [
  [1280, 900],
  [375, 812],
] as const) {
  test(`the API reference is public, works offline, and has samples to copy, at ${width} px`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(base)) foreign.push(r.url());
    });
    await page.goto(`${base}/docs/api`);
    await expect(page.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible();
    const operation = page.locator('#post-api-v1-documents');
    await expect(operation.getByRole('heading', { name: 'Generate a document' })).toBeVisible();
    await operation.getByRole('tab', { name: 'Python' }).click();
    const sample = operation.getByRole('region', { name: 'Python sample' });
    await expect(sample).toContainText('requests.post(');
    await expect(sample).toContainText(`${base}/api/v1/documents`);
    await operation.getByRole('button', { name: 'Copy the Python sample' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('import os, requests');
    await expect(page.locator('#errors')).toContainText('quota_exceeded');
    await expectAccessible(page, `API reference at ${width}px`);
    expect(foreign).toEqual([]);
    await context.close();
  });
}

test('webhooks: an Enterprise user adds an endpoint, copies its secret, sends a test event that arrives signed, and sees it in the log', async ({
  browser,
}) => {
  const received: { body: string; signature: string }[] = [];
  const receiver = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(request.headers['formwork-signature'] ?? '') });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/formwork`;

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const signIn = await page.request.post(`${base}/api/auth/sign-in`, { data: { email: ADMIN.email, password: ADMIN.password } });
  if (!signIn.ok()) await signUpAdmin(page.request);
  const me = (await (await page.request.get(`${base}/api/auth/user`)).json()) as { id: string };
  await page.request.patch(`${base}/api/admin/users/${me.id}`, { data: { subscriptionPlan: 'enterprise' }, headers: { origin: base } });

  await page.goto(`${base}/settings?tab=api`);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByText('Enter the full address, starting with https://.')).toBeVisible();
  await page.getByLabel('Endpoint URL').fill(receiverUrl);
  await page.getByLabel(/batch\.completed/).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secretField = page.getByLabel('Webhook signing secret');
  await expect(secretField).toHaveValue(/^whsec_/);
  await page.getByTestId('new-webhook-secret').getByRole('button', { name: 'Copy', exact: true }).click();
  const secret = await page.evaluate(() => navigator.clipboard.readText());
  expect(secret).toBe(await secretField.inputValue());
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await expect(secretField).toHaveCount(0);

  const row = page.getByTestId('webhook-row');
  await expect(row).toContainText(receiverUrl);
  await expect(row).toContainText('batch.completed');
  await row.getByRole('button', { name: 'Send test event' }).click();
  await expect(row.getByText('Delivered · 200')).toBeVisible({ timeout: 15_000 });
  await expect(row.getByRole('rowheader')).toHaveText('webhook.test');
  await expectAccessible(page, 'API Access with a webhook');

  // What arrived is signed with the secret the user copied.
  expect(received).toHaveLength(1);
  const [{ body, signature }] = received as [{ body: string; signature: string }];
  const parts = Object.fromEntries(signature.split(',').map((p) => p.split('=') as [string, string]));
  expect(parts.v1).toBe(createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex'));
  expect(JSON.parse(body)).toMatchObject({ type: 'webhook.test' });

  await row.getByRole('button', { name: `Delete the endpoint ${receiverUrl}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('No endpoints yet.')).toBeVisible();
  await context.close();
  receiver.close();
});
