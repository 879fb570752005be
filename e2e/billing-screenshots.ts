/**
 * Screenshots of billing at 1280 px and 375 px, for looking at by eye. Not a test. It starts its
 * own servers and gateway stand-ins, so nothing else needs to run:
 *   npx tsx e2e/billing-screenshots.ts [outDir=/tmp/formwork-billing-shots]
 * Shots: the Free user's billing tab, a plan picked out by a link, the confirmation before
 * Razorpay, Razorpay checkout over it, the payment result, the paid plan's tab with its invoice,
 * a scheduled downgrade, the builder's "1 of 1 formats used", and (on a second server, with Stripe
 * on) the confirmation before Stripe Checkout and before a saved card is charged.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startBillingServer } from './billing-server.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const OUT = process.argv[2] ?? '/tmp/formwork-billing-shots';

async function shot(page: Page, name: string, width: number, fullPage = true) {
  // A gateway's frame over the page can keep the page from ever counting as idle: then the wait is capped.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) console.warn(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(`wrote ${file}`);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const { server, stop } = await startBillingServer('billing-shots');
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ baseURL: server.base, viewport: { width, height: width > 600 ? 900 : 780 } });
      const page = await context.newPage();
      page.on('pageerror', (error) => console.warn(`page error: ${error.message}`));
      const email = `asha-${width}@example.com`;
      await context.request.post('/api/auth/sign-up', {
        data: { firstName: 'Asha', lastName: 'Rao', email, password: 'buyer-password-123' },
        headers: { origin: server.base },
      });
      await context.request.post('/api/formats', {
        data: { name: 'Offer letter', description: null, content: { elements: [] }, placeholders: [] },
        headers: { origin: server.base },
      });

      await page.goto('/settings?tab=billing');
      await shot(page, 'billing-free', width);
      await page.goto('/builder');
      await page.getByTestId('format-allowance').waitFor();
      await shot(page, 'builder-format-allowance', width, false);

      // A link that names a plan only picks it out.
      await page.goto('/settings?tab=billing&checkout=basic_monthly');
      await page.getByTestId('chosen-plan-notice').waitFor();
      await shot(page, 'billing-chosen', width, false);
      await page.getByTestId('billing-plan-basic').getByRole('button', { name: 'Choose Basic' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Continue to Razorpay' }).waitFor();
      await shot(page, 'confirm-razorpay', width, false);
      await page.getByRole('dialog').getByRole('button', { name: 'Continue to Razorpay' }).click();
      await page.frameLocator('iframe[title="Razorpay Checkout"]').getByRole('button', { name: /^Pay / }).waitFor();
      await shot(page, 'checkout-razorpay', width, false);
      await page.frameLocator('iframe[title="Razorpay Checkout"]').getByRole('button', { name: /^Pay / }).click();
      await page.getByRole('heading', { name: 'Subscription Activated!' }).waitFor();
      await shot(page, 'payment-success', width, false);

      await page.goto('/settings?tab=billing');
      await page.getByTestId('invoice-row').waitFor();
      await shot(page, 'billing-basic', width);

      const invoices = (await (await context.request.get('/api/subscription/invoices')).json()) as { id: string }[];
      if (width === 1280 && invoices[0]) {
        const pdf = await context.request.get(`/api/subscription/invoices/${invoices[0].id}/pdf`);
        const file = path.join(OUT, 'invoice.pdf');
        writeFileSync(file, await pdf.body());
        execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', file, path.join(OUT, 'invoice-page')]);
        console.log(`wrote ${path.join(OUT, 'invoice-page-1.png')}`);
      }

      await page.getByTestId('billing-plan-premium').getByRole('button', { name: 'Upgrade to Premium' }).waitFor();
      await context.request.post('/api/subscription/downgrade', { data: { planId: 'free_monthly' }, headers: { origin: server.base } });
      await page.reload();
      await page.getByText('Your plan ends on').waitFor();
      await shot(page, 'billing-cancelled', width);
      await context.close();
    }
    await browser.close();
  } finally {
    await stop();
  }
  await cardConfirmation();
}

/** A Stripe subscriber's upgrade: the saved card is charged at once, so the dialog names it. */
async function cardConfirmation() {
  const { server, stop } = await startBillingServer('billing-shots-stripe', { active: 'stripe' });
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ baseURL: server.base, viewport: { width, height: width > 600 ? 900 : 780 } });
      const page = await context.newPage();
      page.on('pageerror', (error) => console.warn(`page error: ${error.message}`));
      await context.request.post('/api/auth/sign-up', {
        data: { firstName: 'Sam', lastName: 'Card', email: `sam-${width}@example.com`, password: 'buyer-password-123' },
        headers: { origin: server.base },
      });
      await page.goto('/settings?tab=billing');
      await page.getByTestId('billing-plan-basic').getByRole('button', { name: 'Choose Basic' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Continue to Stripe' }).waitFor();
      await shot(page, 'confirm-stripe-checkout', width, false);
      await page.getByRole('dialog').getByRole('button', { name: 'Continue to Stripe' }).click();
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByRole('heading', { name: 'Subscription Activated!' }).waitFor();

      await page.goto('/settings?tab=billing');
      await page.getByRole('radio', { name: 'Annually' }).click();
      await page.getByTestId('billing-plan-premium').getByRole('button', { name: 'Upgrade to Premium' }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^Pay .* now$/ })
        .waitFor();
      await shot(page, 'confirm-card', width, false);
      await context.close();
    }
    await browser.close();
  } finally {
    await stop();
  }
}

await main();
