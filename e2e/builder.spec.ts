import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { navigate } from './navigation.ts';
import { collectConsoleErrors } from './console-errors.ts';

/*
 * The Format Builder journey: sign up, build a format with all five element types and three
 * typed placeholders (one a required select), reorder by mouse and keyboard, save (POST, then PUT),
 * check the preview PDF, reload and see it persisted, Clear with confirmation.
 */

/** A 40x24 solid PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAYCAIAAAAH5iiXAAAAKElEQVR4nGPwd3s6IIhh1OJRi0ctHrV41OJRi0ctHrV41OJRi4ePxQCR4YnMcvRTDgAAAABJRU5ErkJggg==',
  'base64',
);

async function types(page: Page): Promise<string[]> {
  return page.getByTestId('canvas-element').evaluateAll((els) => els.map((e) => e.getAttribute('data-element-type') ?? ''));
}

async function toast(page: Page, title: string) {
  // The toast's own text (the live-region announcement repeats it, joined with the description).
  await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
}

// Tall enough that the whole canvas is on screen while dragging with the mouse.
test.use({ viewport: { width: 1280, height: 1500 } });

test('format builder: all element types, placeholders, reorder, save, preview, persist, clear', async ({ page, baseURL }) => {
  // Every edit redraws the live preview beside the canvas: 70 s on a busy two-core machine, and
  // close to 120 s beside a journey as heavy.
  test.slow();
  const consoleErrors = collectConsoleErrors(page);

  const email = `builder.${Date.now()}@example.com`;
  const signUp = await page.request.post('/api/auth/sign-up', {
    headers: { origin: baseURL ?? '' },
    data: { firstName: 'Bea', lastName: 'Builder', email, password: 'longenough1' },
  });
  expect(signUp.ok()).toBeTruthy();

  // Empty builder.
  await page.goto('/builder');
  await expect(page.getByTestId('canvas-empty')).toContainText('Start building your format');
  await expect(page.getByLabel('Format name')).toHaveValue('Untitled Format');

  // From 1280 px the live preview sits beside the canvas, and the app's navigation folds away.
  await expect(page.getByTestId('preview-pane')).toContainText('Your PDF appears here');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await toast(page, 'Nothing to Preview Yet');

  await page.getByLabel('Format name').fill('Offer Letter');

  // Placeholders: Add is disabled until there is a name.
  const panel = page.getByTestId('placeholder-panel');
  const addPlaceholder = panel.getByRole('button', { name: 'Add placeholder' });
  await expect(addPlaceholder).toBeDisabled();
  await panel.getByLabel('Name', { exact: true }).fill('Client Name');
  await expect(panel.getByLabel('Label (optional)')).toHaveAttribute('placeholder', 'Client name');
  await addPlaceholder.click();
  await panel.getByLabel('Name', { exact: true }).fill('start_date');
  await panel.getByLabel('Type', { exact: true }).selectOption('date');
  await addPlaceholder.click();
  await panel.getByLabel('Name', { exact: true }).fill('employment_type');
  await panel.getByLabel('Label (optional)').fill('Employment type');
  await panel.getByLabel('Type', { exact: true }).selectOption('select');
  await panel.getByLabel('Required', { exact: true }).check();
  await panel.getByLabel('Options').fill('Full-time\n\n  \nPart-time\nContract\n');
  await addPlaceholder.click();
  const items = panel.getByTestId('placeholder-item');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('{{client_name}}');
  await expect(items.nth(2)).toContainText('Full-time · Part-time · Contract');
  await expect(items.nth(2)).toContainText('required');
  // All three unused so far: the panel warns.
  await expect(panel.getByTestId('placeholder-warnings')).toContainText('Not used in the format yet');

  const sidebar = page.getByTestId('builder-sidebar');
  const done = () => page.getByRole('button', { name: 'Done' }).click();

  // Heading
  await sidebar.getByRole('button', { name: 'Add Heading' }).click();
  await page.getByLabel('Heading text').fill('Offer of Employment');
  await page.getByLabel('Heading size').selectOption('text-3xl');
  await page.getByRole('button', { name: 'Align center' }).click();
  await done();

  // Paragraph, with a placeholder inserted at the cursor.
  await sidebar.getByRole('button', { name: 'Add Paragraph' }).click();
  const para = page.getByLabel('Paragraph text');
  await para.fill('Dear ,\nWelcome aboard as **{{employment_type}}** from {{start_date}}. Salary: {{salary}}.');
  await para.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(5, 5));
  await panel.getByRole('button', { name: 'Insert {{client_name}}' }).click();
  await expect(para).toHaveValue(/^Dear \{\{client_name\}\},/);
  await done();
  await expect(panel.getByTestId('placeholder-warnings')).toContainText('{{salary}}');
  await expect(panel.getByTestId('placeholder-warnings')).toContainText('matches no placeholder');
  await expect(items.nth(0).getByTestId('placeholder-uses')).toHaveText('used 1×');

  // List
  await sidebar.getByRole('button', { name: 'Add List' }).click();
  await expect(page.getByRole('textbox', { name: 'Item 1', exact: true })).toHaveValue('New item');
  await page.getByRole('textbox', { name: 'Item 1', exact: true }).fill('Health insurance');
  await page.getByRole('button', { name: 'Add item' }).click();
  await expect(page.getByRole('textbox', { name: 'Item 2', exact: true })).toHaveValue('New item');
  await page.getByRole('button', { name: 'Add item' }).click();
  await page.getByRole('button', { name: 'Remove item 3' }).click();
  await page.getByRole('textbox', { name: 'Item 2', exact: true }).fill('25 days of leave');
  await done();

  // Table: 2x2 by default, never below 1x1.
  await sidebar.getByRole('button', { name: 'Add Table' }).click();
  const cell = (r: number, c: number) => page.getByLabel(`Table 4, row ${r}, column ${c}`);
  await expect(cell(2, 2)).toBeVisible();
  await page.getByRole('button', { name: 'Add row' }).click();
  await page.getByRole('button', { name: 'Add column' }).click();
  await expect(cell(3, 3)).toBeVisible();
  await page.getByRole('button', { name: 'Delete column 3' }).click();
  await page.getByRole('button', { name: 'Delete row 3' }).click();
  await page.getByRole('button', { name: 'Delete column 2' }).click();
  await page.getByRole('button', { name: 'Delete row 2' }).click();
  await expect(page.getByRole('button', { name: 'Delete row 1' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete column 1' })).toBeDisabled();
  await page.getByRole('button', { name: 'Add column' }).click();
  await page.getByRole('button', { name: 'Add row' }).click();
  await cell(1, 1).fill('Item');
  await cell(1, 2).fill('Detail');
  await cell(2, 1).fill('Start');
  await cell(2, 2).fill('{{start_date}}');
  await page.getByLabel('Header row').check();
  // Column widths: one column set, the other takes the rest; Even widths appears once set.
  const width = (c: number) => page.getByLabel(`Table 4, column ${c} width in percent`);
  await expect(width(1)).toHaveValue('50');
  await width(1).fill('30');
  await width(1).press('Enter');
  await expect(width(2)).toHaveValue('70');
  await expect(page.getByRole('button', { name: 'Even widths' })).toBeVisible();
  await done();

  // Image, uploaded.
  await sidebar.getByRole('button', { name: 'Add Image' }).click();
  await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await toast(page, 'Image Uploaded');
  // An upload starts at its own proportions (40 x 24), not a fixed 300 x 200.
  await expect(page.getByLabel('Width (px)')).toHaveValue('40');
  await expect(page.getByLabel('Height (px)')).toHaveValue('24');
  await page.getByLabel('Width (px)').fill('120');
  await page.getByLabel('Height (px)').fill('72');
  await page.getByLabel('Height (px)').press('Tab');
  await page.getByRole('button', { name: 'Align right' }).click();
  await done();

  // Document style: saved with the format.
  await sidebar.getByLabel('Font').selectOption('Times New Roman');
  await sidebar.getByLabel('Size').selectOption('14');

  expect(await types(page)).toEqual(['heading', 'paragraph', 'list', 'table', 'image']);

  // Reorder with the mouse: drag the image above the heading.
  const handles = page.getByTestId('drag-handle');
  const elements = page.getByTestId('canvas-element');
  await page.evaluate(() => window.scrollTo(0, 0));
  const to = await elements.nth(0).boundingBox();
  await elements.nth(4).hover();
  const from = await handles.nth(4).boundingBox();
  if (!from || !to) throw new Error('no boxes');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 20, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + 5, { steps: 20 });
  await page.mouse.up();
  await expect.poll(() => types(page)).toEqual(['image', 'heading', 'paragraph', 'list', 'table']);

  // Reorder with the keyboard: the image goes back down two places.
  // (A short pause between keys, as a person types: each step measures the moved layout.)
  await handles.nth(0).focus();
  for (const key of ['Space', 'ArrowDown', 'ArrowDown', 'Space']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(250);
  }
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'image', 'list', 'table']);

  // And with the move buttons.
  await elements.nth(2).hover();
  await page.getByRole('button', { name: /^Move Image 3 down$/ }).click();
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table']);

  // Delete, then Undo from the toast.
  await elements.nth(2).hover();
  await page.getByRole('button', { name: /^Delete List 3/ }).click();
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'image', 'table']);
  await page
    .getByRole('region', { name: /Notifications/ })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table']);

  // Undo and Redo cover every edit: the top bar's buttons and the keyboard.
  await elements.nth(4).hover();
  await page.getByRole('button', { name: 'Duplicate Table 5' }).click();
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table', 'table']);
  await page.getByRole('button', { name: 'Undo', exact: true }).first().click();
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table']);
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table', 'table']);
  await page.keyboard.press('Control+z');
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table']);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table', 'table']);
  await page.keyboard.press('Control+z');
  await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table']);

  // Page setup: page numbers in the footer.
  await sidebar.getByRole('button', { name: 'Add page numbers' }).click();
  await expect(sidebar.getByLabel('Footer')).toHaveValue('Page {{page}} of {{pages}}');

  // First save: POST, toasts, then back to the dashboard.
  const post = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/formats');
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/formats');
  await page.getByRole('button', { name: 'Save Format' }).click();
  await post;
  const createdRes = await created;
  expect(createdRes.status()).toBe(201);
  const format = (await createdRes.json()) as { id: string; content: { elements: unknown[]; style?: unknown } };
  expect(format.content.elements).toHaveLength(5);
  expect(format.content.style).toEqual({ fontFamily: 'Times New Roman', fontSize: 14 });
  expect(format.content).toMatchObject({ footer: { text: 'Page {{page}} of {{pages}}' } });
  expect(format.content.elements.find((e) => (e as { type: string }).type === 'table')).toMatchObject({ columnWidths: [30, 70] });
  await toast(page, 'Format saved successfully!');
  await toast(page, 'Form Ready');
  // The builder stays, at the saved format's address, and offers to fill it in.
  await expect(page).toHaveURL(new RegExp(`/builder/${format.id}$`));
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
  await expect(page.getByRole('link', { name: 'Fill in', exact: true })).toHaveAttribute('href', `/data-entry/${format.id}`);

  // The preview endpoint returns a PDF for the saved id.
  const pdf = await page.request.get(`/api/formats/${format.id}/preview`);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Reload the builder: the content persisted.
  await page.goto(`/builder/${format.id}`);
  await expect(page.getByLabel('Format name')).toHaveValue('Offer Letter');
  expect(await types(page)).toEqual(['heading', 'paragraph', 'list', 'image', 'table']);
  await expect(page.getByTestId('builder-canvas')).toContainText('Offer of Employment');
  await expect(page.getByTestId('placeholder-item')).toHaveCount(3);
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');

  // Second save: PUT, and the user stays.
  await page.getByLabel('Format name').fill('Offer Letter v2');
  await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');
  const put = page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).pathname === `/api/formats/${format.id}`);
  await page.getByRole('button', { name: 'Save Format' }).click();
  await put;
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');

  // Preview opens the saved PDF in a new tab.
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  expect((await popup).url()).toContain(`/api/formats/${format.id}/preview`);
  await (await popup).close();

  // Clear asks first; cancelling keeps everything.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Clear all content?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await types(page)).toHaveLength(5);
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await dialog.getByRole('button', { name: 'Clear content' }).click();
  await toast(page, 'Content Cleared');
  await expect(page.getByTestId('canvas-empty')).toBeVisible();
  await expect(page.getByTestId('placeholder-item')).toHaveCount(0);

  // Leaving with unsaved changes asks for confirmation.
  await navigate(page, 'My Formats');
  await expect(dialog).toContainText('Leave without saving?');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(new RegExp(`/builder/${format.id}$`));
  await navigate(page, 'My Formats');
  await dialog.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/formats$/);

  // The browser's Back button asks too (from a page the app itself navigated from): Stay keeps the
  // page and its changes, Leave goes back.
  await page.getByRole('link', { name: 'Edit' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/builder/${format.id}$`));
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await dialog.getByRole('button', { name: 'Clear content' }).click();
  await expect(page.getByTestId('canvas-empty')).toBeVisible();
  await page.evaluate(() => history.back());
  await expect(dialog).toContainText('Leave without saving?');
  await expect(page).toHaveURL(new RegExp(`/builder/${format.id}$`));
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/builder/${format.id}$`));
  await expect(page.getByTestId('canvas-empty')).toBeVisible();
  // The question is asked again, by a dialog of its own (not the one closing above).
  await page.evaluate(() => history.back());
  await expect(dialog).toContainText('Leave without saving?');
  await dialog.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/formats$/);
  await expect(page.getByRole('link', { name: 'Edit' }).first()).toBeVisible();

  // The saved format was not changed by the unsaved Clear.
  const saved = await page.request.get(`/api/formats/${format.id}`);
  expect(((await saved.json()) as { content: { elements: unknown[] } }).content.elements).toHaveLength(5);

  // A free user's second format is refused with the plan named.
  // New asks for a name (default 'New Format') and starts a blank format at /builder.
  await page.goto(`/builder/${format.id}`);
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await expect(dialog.getByLabel('Format name')).toHaveValue('New Format');
  await dialog.getByLabel('Format name').fill('Second');
  await dialog.getByRole('button', { name: 'Create format' }).click();
  await expect(page).toHaveURL(/\/builder$/);
  await expect(page.getByLabel('Format name')).toHaveValue('Second');
  await expect(page.getByTestId('canvas-empty')).toBeVisible();
  await page.getByTestId('builder-sidebar').getByRole('button', { name: 'Add Heading' }).click();
  await page.getByRole('button', { name: 'Save Format' }).click();
  await toast(page, 'Plan Limit Reached');
  await expect(page.getByText(/The Free plan includes 1 format/).first()).toBeVisible();

  // An unknown id.
  await page.goto('/builder/does-not-exist');
  await expect(page.getByText('Format Not Found')).toBeVisible();
  await expect(page.getByText('The requested format could not be found.')).toBeVisible();

  expect(consoleErrors.filter((e) => !/status of 40[34]/.test(e))).toEqual([]);
});

test('an image by address is fetched by the server and shown from our own origin, http:// included, also in formats made through the API', async ({
  page,
  baseURL,
}) => {
  // An image host on 127.0.0.2, which the e2e server is told to trust (IMAGE_FETCH_ALLOWED_IPS).
  const host = http.createServer((req, res) => {
    if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.2', resolve));
  const origin = `http://127.0.0.2:${(host.address() as AddressInfo).port}`;
  try {
    const signUp = await page.request.post('/api/auth/sign-up', {
      headers: { origin: baseURL ?? '' },
      data: { firstName: 'Ira', lastName: 'Image', email: `image.${Date.now()}@example.com`, password: 'longenough1' },
    });
    expect(signUp.ok()).toBeTruthy();
    await page.goto('/builder');
    await page.getByTestId('builder-sidebar').getByRole('button', { name: 'Add Image' }).click();
    const address = page.getByLabel('Image URL');
    const use = page.getByRole('button', { name: 'Use URL' });

    await address.fill('not a url');
    await use.click();
    await expect(page.getByText('Enter an image address starting with http:// or https://')).toBeVisible();
    await address.fill(`${origin}/missing.png`);
    await use.click();
    await expect(page.getByText(/could not be loaded\. The image address answered 404/)).toBeVisible();

    await address.fill(`${origin}/logo.png`);
    await use.click();
    await toast(page, 'Image Added');
    const image = page.getByTestId('builder-canvas').locator('img');
    await expect(image).toHaveAttribute('src', /^\/api\/assets\/[\w-]+$/);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);

    // A format made through the API keeps its http:// addresses; the canvas still shows the image
    // (fetched by the server, as the PDF gets it) and says why another cannot be shown.
    const made = await page.request.post('/api/formats', {
      headers: { origin: baseURL ?? '' },
      data: {
        name: 'By address',
        content: {
          elements: [
            { id: 'a', type: 'image', src: `${origin}/logo.png`, width: 120, height: 72, align: 'left' },
            { id: 'b', type: 'image', src: `${origin}/gone.png`, width: 120, height: 72, align: 'left' },
          ],
        },
        placeholders: [],
      },
    });
    expect(made.status()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    await page.goto(`/builder/${id}`);
    const byAddress = page.getByTestId('canvas-element').nth(0);
    const gone = page.getByTestId('canvas-element').nth(1);
    await expect(byAddress.locator('img')).toHaveAttribute('src', /^\/api\/assets\/[\w-]+$/);
    await expect.poll(() => byAddress.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    await expect(gone.getByRole('alert')).toContainText('The image address answered 404');
    const saved = (await (await page.request.get(`/api/formats/${id}`)).json()) as { content: { elements: { src: string }[] } };
    expect(saved.content.elements.map((e) => e.src)).toEqual([`${origin}/logo.png`, `${origin}/gone.png`]);
  } finally {
    host.close();
  }
});

test('placeholders in one step: typed in the text, created with a guessed type, renamed everywhere, inserted at the cursor', async ({ page }) => {
  const signUp = await page.request.post('/api/auth/sign-up', {
    data: { firstName: 'Pia', lastName: 'Placeholder', email: `pia.${Date.now()}@example.com`, password: 'longenough1' },
  });
  expect(signUp.ok()).toBeTruthy();
  await page.goto('/builder');
  const canvas = page.getByTestId('builder-canvas');

  // Typing tags offers them as placeholders, each with the type its name suggests.
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Paragraph' }).click();
  const text = canvas.getByLabel('Paragraph text');
  await expect(text).toBeFocused();
  await page.keyboard.type('Dear {{client_name}}, you start on {{start_date}} at {{annual_salary}}.');
  const offers = page.getByTestId('new-tag');
  await expect(offers).toHaveCount(3);
  await expect(offers.filter({ hasText: '{{start_date}}' })).toContainText('Date');
  await expect(offers.filter({ hasText: '{{annual_salary}}' })).toContainText('Number');
  await page.getByRole('button', { name: 'Create {{start_date}} as Date' }).click();
  await expect(offers).toHaveCount(2);
  await page.getByRole('button', { name: 'Create all 2' }).click();
  await expect(page.getByTestId('new-tags')).toHaveCount(0);
  const items = page.getByTestId('placeholder-item');
  await expect(items).toHaveCount(3);
  await expect(items.filter({ hasText: '{{start_date}}' })).toContainText('Date');
  await expect(items.filter({ hasText: '{{annual_salary}}' })).toContainText('Number');

  // Renaming a placeholder rewrites every use of it.
  await page.getByRole('button', { name: 'Edit placeholder client_name' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit placeholder' });
  await dialog.getByLabel('Name').fill('candidate_name');
  await dialog.getByLabel('Required').check();
  await dialog.getByRole('button', { name: 'Save placeholder' }).click();
  await expect(dialog).toBeHidden();
  // Focus comes back to the renamed placeholder's Edit button, a moment after the dialog has gone:
  // a selection made before that would lose its focus, and Ctrl+B below would go to the button.
  await expect(page.getByRole('button', { name: 'Edit placeholder candidate_name' })).toBeFocused();
  await expect(text).toHaveValue('Dear {{candidate_name}}, you start on {{start_date}} at {{annual_salary}}.');
  await expect(items.filter({ hasText: '{{candidate_name}}' })).toContainText('required');

  // Bold and italic for the selected words only: Ctrl+B on a selection, the Italic button on another.
  await text.evaluate((el: HTMLTextAreaElement) => (el.focus(), el.setSelectionRange(5, 23))); // "{{candidate_name}}"
  await page.keyboard.press('Control+b');
  await expect(text).toHaveValue('Dear **{{candidate_name}}**, you start on {{start_date}} at {{annual_salary}}.');
  // The same words stay selected, inside the markers.
  await expect.poll(() => text.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([7, 25]);
  await text.evaluate((el: HTMLTextAreaElement) => (el.focus(), el.setSelectionRange(29, 38))); // "you start"
  await page.getByRole('button', { name: 'Italic' }).click();
  await expect(text).toHaveValue('Dear **{{candidate_name}}**, *you start* on {{start_date}} at {{annual_salary}}.');
  await page.keyboard.press('Control+z');
  await expect(text).toHaveValue('Dear {{candidate_name}}, you start on {{start_date}} at {{annual_salary}}.');

  // Insert puts a placeholder at the cursor.
  await text.press('End');
  await page.keyboard.type(' Signed, ');
  await page.getByRole('button', { name: 'Insert', exact: true }).click();
  await page.getByRole('menuitem', { name: /\{\{candidate_name\}\}/ }).click();
  await expect(text).toHaveValue('Dear {{candidate_name}}, you start on {{start_date}} at {{annual_salary}}. Signed, {{candidate_name}}');

  // Undo takes back the typing in that text (the insert with it), then the rename.
  await page.keyboard.press('Control+z');
  await expect(text).toHaveValue('Dear {{candidate_name}}, you start on {{start_date}} at {{annual_salary}}.');
  await page.keyboard.press('Control+z');
  await expect(text).toHaveValue('Dear {{client_name}}, you start on {{start_date}} at {{annual_salary}}.');
});
