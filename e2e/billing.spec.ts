import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { startBillingServer } from './billing-server.ts';
import type { TOwnServer } from './own-server.ts';

/*
 * From the pricing card to the invoice: a visitor chooses Basic on the landing page, creates an
 * account, finds Basic picked out in Billing, confirms the price, pays on Razorpay's checkout (a
 * stand-in on loopback that signs like Razorpay), and arrives on the Basic plan with its limit and
 * an invoice. A second visitor's payment fails.
 */

let server: TOwnServer;
let billing: Awaited<ReturnType<typeof startBillingServer>>;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  billing = await startBillingServer('billing');
  server = billing.server;
});

test.afterAll(async () => {
  await billing?.stop();
});

/** Landing page → plan card → Create account; the app then opens Billing with that plan picked out. */
async function choosePlanAndSignUp(browser: Browser, plan: 'Basic' | 'Premium', firstName: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.base });
  const page = await context.newPage();
  await page.goto('/');
  const card = page.getByTestId(`plan-${plan.toLowerCase()}`);
  await expect(card.getByTestId(`price-${plan.toLowerCase()}`)).toHaveText(plan === 'Basic' ? '₹299' : '₹999');
  await card.getByRole('button', { name: `Choose ${plan}` }).click();
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').fill(firstName);
  await signUp.getByLabel('Last name').fill('Buyer');
  await signUp.getByLabel('Email').fill(`${firstName.toLowerCase()}-${Date.now()}@e2e.formwork.test`);
  await signUp.getByLabel('Password').fill('buyer-password-123');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  return page;
}

const checkoutFrame = (page: Page) => page.frameLocator('iframe[title="Razorpay Checkout"]');

/** The plan's button, then the confirmation with the price: only its button opens Razorpay. */
async function confirmRazorpay(page: Page, plan: 'Basic' | 'Premium', total: string) {
  await page
    .getByTestId(`billing-plan-${plan.toLowerCase()}`)
    .getByRole('button', { name: `Choose ${plan}` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Subscribe to ${plan} (monthly)` });
  await expect(dialog.getByTestId('confirm-payment-total')).toHaveText(total);
  await expect(dialog.getByTestId('confirm-payment-method')).toHaveText('Razorpay');
  await dialog.getByRole('button', { name: 'Continue to Razorpay' }).click();
  await expect(dialog).toBeHidden();
}

test('a visitor chooses Basic, signs up, pays with Razorpay, and has the plan, its limit and an invoice', async ({ browser }) => {
  const page = await choosePlanAndSignUp(browser, 'Basic', 'Priya');
  // Billing, with the plan picked out; nothing is bought until the price is confirmed.
  await expect(page).toHaveURL(/\/settings\?tab=billing/);
  await expect(page.getByTestId('chosen-plan-notice')).toContainText('You chose Basic (monthly). Review it below and confirm to pay.');
  await expect(page.getByTestId('billing-plan-basic')).toHaveAttribute('data-chosen', 'true');
  await expect(page.locator('iframe[title="Razorpay Checkout"]')).toHaveCount(0);
  await confirmRazorpay(page, 'Basic', '₹299.00');
  const frame = checkoutFrame(page);
  await expect(frame.getByText('₹299').first()).toBeVisible();
  await frame.getByRole('button', { name: 'Pay ₹299' }).click();

  await expect(page).toHaveURL(/\/payment-success\?/);
  await expect(page.getByRole('heading', { name: 'Subscription Activated!' })).toBeVisible();
  await expect(page.getByText('Welcome to your Basic plan!').first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('selectedPlan'))).toBeNull();

  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page.getByRole('banner').getByText('Basic')).toBeVisible();
  await expect(page.getByTestId('sidebar-usage')).toContainText('0/5,000');

  await page.goto('/settings?tab=billing');
  await expect(page.getByTestId('billing-plan')).toHaveText('Basic');
  await expect(page.getByTestId('billing-generations')).toHaveText('0 / 5,000');
  const invoice = page.getByTestId('invoice-row');
  await expect(invoice).toHaveCount(1);
  await expect(invoice).toContainText('₹299');
  const [download] = await Promise.all([page.waitForEvent('download'), invoice.getByRole('button', { name: /PDF of invoice/ }).click()]);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-invoice-')), download.suggestedFilename());
  await download.saveAs(file);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  expect(text).toContain('Invoice');
  expect(text).toContain('₹299');
  expect(text).toContain('Formwork Labs Pvt Ltd');
  expect(text).toContain('Priya Buyer');
  writeFileSync(path.join(tmpdir(), 'formwork-e2e-invoice.txt'), text);

  // Cancelled, the plan runs to the end of its period, and the top bar says it is ending; kept, it is active again.
  const planIndicator = page.getByTestId('plan-indicator');
  await expect(planIndicator).toContainText('Active');
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page.getByRole('button', { name: 'Keep my Basic plan' })).toBeVisible();
  await expect(planIndicator).toContainText('Basic');
  await expect(planIndicator).toContainText('Ending');
  await page.getByRole('button', { name: 'Keep my Basic plan' }).click();
  await expect(planIndicator).toContainText('Active');
  await expect(page.getByRole('button', { name: 'Cancel plan' })).toBeVisible();

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `billing tab (${width})`);
  }
  await page.context().close();
});

test('a second visitor’s payment fails: the failure path, and the account stays on Free', async ({ browser }) => {
  const page = await choosePlanAndSignUp(browser, 'Premium', 'Omar');
  await expect(page).toHaveURL(/\/settings\?tab=billing/);
  await confirmRazorpay(page, 'Premium', '₹999.00');
  await checkoutFrame(page).getByRole('button', { name: 'Fail payment' }).click();
  await expect(page).toHaveURL(/\/payment-success\?status=failed/);
  await expect(page.getByRole('heading', { name: 'Payment Processing Failed' })).toBeVisible();
  await expect(page.getByText('Please contact support if payment was deducted.')).toBeVisible();
  await expect(page.getByTestId('payment-failure-reason')).toContainText('card was declined');
  await expectAccessible(page, 'payment failed');

  await page.getByRole('link', { name: 'Try Again' }).click();
  await expect(page.getByTestId('billing-plan')).toHaveText('Free');
  await expect(page.getByTestId('invoice-row')).toHaveCount(0);
  // Closing the payment window changes nothing either, and says so by leaving the button ready.
  await confirmRazorpay(page, 'Premium', '₹999.00');
  await expect(checkoutFrame(page).getByRole('button', { name: /^Pay / })).toBeVisible();
  await page.context().close();
});
