import { expect, test } from '@playwright/test';
import { startOwnServer, type TOwnServer } from './own-server.ts';

/**
 * Finding a document in Recent Documents: three documents from two formats, one found by
 * searching a name (the search kept on reload), then the list narrowed to one format, on a phone
 * where the filters fold behind a button. Its own server, whose admin puts themself on a plan with
 * room for two formats.
 */
const ADMIN = { firstName: 'Fay', lastName: 'Finder', email: 'find-admin@e2e.formwork.test', password: 'find-admin-password-1' };

let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email }, 'find');
  base = server.base;
});

test.afterAll(() => {
  server?.stop();
});

test('search Recent Documents and filter by format', async ({ page }) => {
  const origin = { origin: base };
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  expect((await page.request.post(`${base}/api/auth/sign-up`, { data: ADMIN })).ok()).toBe(true);
  // ADMIN_EMAILS counts once the address is verified: with no mail server, its link is in the log.
  const link = new URL(await server!.verificationLink(ADMIN.email), base);
  expect((await page.request.post(`${base}/api/auth/verify-email`, { headers: origin, data: { token: link.searchParams.get('token') } })).ok()).toBe(true);
  const me = (await (await page.request.get(`${base}/api/auth/user`)).json()) as { id: string };
  expect((await page.request.patch(`${base}/api/admin/users/${me.id}`, { headers: origin, data: { subscriptionPlan: 'basic' } })).ok()).toBe(true);
  const formatOf = async (name: string, field: string) => {
    const created = await page.request.post(`${base}/api/formats`, {
      headers: origin,
      data: {
        name,
        content: { elements: [{ id: 'p', type: 'paragraph', content: `For {{${field}}}.` }] },
        placeholders: [{ name: field, type: 'text', required: true }],
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    return ((await created.json()) as { id: string }).id;
  };
  const offer = await formatOf('Offer letter', 'candidate');
  const invoice = await formatOf('Invoice', 'client_name');
  const names: string[] = [];
  for (const [formatId, data] of [
    [offer, { candidate: 'Jane Doe' }],
    [offer, { candidate: 'Ann Lee' }],
    [invoice, { client_name: 'Acme Corp' }],
  ] as const) {
    const made = await page.request.post(`${base}/api/documents`, { headers: origin, data: { formatId, data } });
    expect(made.ok(), await made.text()).toBe(true);
    names.push(((await made.json()) as { name: string }).name);
  }
  // Without a client name, the candidate tells the two offer letters apart.
  expect(names[0]).toMatch(/^Offer letter - Jane Doe - \d{4}-\d{2}-\d{2}$/);
  expect(names[1]).toMatch(/^Offer letter - Ann Lee - /);

  await page.goto(`${base}/documents`);
  const list = page.getByRole('list', { name: 'Documents and batches' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await page.getByRole('searchbox', { name: 'Search documents' }).fill('jane');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByTitle(names[0]!)).toBeVisible();
  await expect(page).toHaveURL(/[?&]q=jane/);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search documents' })).toHaveValue('jane');
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // On a phone: the format filter behind Filters.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('searchbox', { name: 'Search documents' }).fill('');
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByLabel('Format')).toBeHidden();
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByLabel('Format').selectOption({ label: 'Invoice' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByTitle(names[2]!)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]format=${invoice}`));
  await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
});
