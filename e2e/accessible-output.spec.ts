import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { checkAccessibility } from '../src/render/test/pdf-accessibility-check.ts';
import { expectAccessible } from './axe.ts';

/*
 * Accessible output from the builder: a format with a level 1 heading, a heading that skips to
 * level 3 and an image without alternative text; the check beside the preview lists both, leads to
 * each field (at 1280 px, and at 375 px from the Preview view back to the canvas), and says so
 * when nothing is left; a link is made with Ctrl+K; the saved format's document is a tagged PDF
 * with the headings' levels, the image's description and a link that opens its address.
 */

/** A 40x24 solid PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAYCAIAAAAH5iiXAAAAKElEQVR4nGPwd3s6IIhh1OJRi0ctHrV41OJRi0ctHrV41OJRi4ePxQCR4YnMcvRTDgAAAABJRU5ErkJggg==',
  'base64',
);

function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** A download started from a link that opens a new tab arrives on the new page, not the opener. */
function nextDownload(page: Page): Promise<Download> {
  return new Promise((resolve) => {
    page.on('download', resolve);
    page.context().on('page', (popup) => popup.on('download', resolve));
  });
}

async function toast(page: Page, title: string) {
  await expect(
    page
      .getByRole('region', { name: /Notifications/ })
      .getByText(title, { exact: true })
      .first(),
  ).toBeVisible();
}

test('accessible output: levels and alternative text set from the check beside the preview, and a tagged PDF', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  const res = await page.request.post('/api/auth/sign-up', {
    headers: { origin: baseURL ?? '' },
    data: { firstName: 'Ari', lastName: 'Access', email: `access.${Date.now()}@example.com`, password: 'longenough1' },
  });
  expect(res.ok()).toBeTruthy();

  const check = page.getByRole('region', { name: 'Accessibility' });
  const findings = check.getByTestId('accessibility-finding');
  const canvas = page.getByRole('list', { name: 'Format elements' });
  const sidebar = page.getByTestId('builder-sidebar');
  const done = () => page.getByRole('button', { name: 'Done' }).click();

  await test.step('build: a level 1 heading, a heading at level 3, an image without alternative text', async () => {
    await page.goto('/builder');
    await page.getByLabel('Format name').fill('Accessible offer');
    await expect(check.getByRole('status')).toHaveText('No accessibility problems found');

    await sidebar.getByRole('button', { name: 'Add Heading' }).click();
    await page.getByLabel('Heading text').fill('Offer of employment');
    await page.getByLabel('Heading level').selectOption('Heading 1');
    await done();

    await sidebar.getByRole('button', { name: 'Add Heading' }).click();
    await page.getByLabel('Heading text').fill('Terms of the offer');
    // A heading after a level 1 heading starts at level 2; this one is set to skip a level.
    await expect(page.getByLabel('Heading level')).toHaveValue('2');
    await page.getByLabel('Heading level').selectOption('Heading 3');
    await done();

    await sidebar.getByRole('button', { name: 'Add Image' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await toast(page, 'Image Uploaded');
    await expect(page.getByTestId('image-alt-missing')).toBeVisible();
    await done();

    await expect(canvas.getByTestId('heading-level-badge')).toHaveText(['Level 1: H1', 'Level 3: H3']);
  });

  await test.step('the check lists both problems; axe finds nothing on the builder', async () => {
    await expect(check.getByTestId('accessibility-count')).toHaveText('2 problems found');
    await expect(findings).toHaveText([
      '“Terms of the offer” is level 3 after a level 1 heading; use level 2.Go to heading',
      'An image has no alternative text. Describe what it shows, or mark it decorative.Go to image',
    ]);
    await expectAccessible(page, 'the builder with two accessibility findings at 1280 px');
  });

  await test.step('at 1280 px: Go to heading focuses its level, and level 2 clears the finding', async () => {
    await findings.nth(0).getByRole('button', { name: 'Go to heading' }).click();
    const level = page.getByRole('group', { name: /^Editing Heading 2/ }).getByLabel('Heading level');
    await expect(level).toBeFocused();
    await level.selectOption('Heading 2');
    await expect(findings).toHaveCount(1);
    await done();
    await expect(canvas.getByTestId('heading-level-badge')).toHaveText(['Level 1: H1', 'Level 2: H2']);
  });

  await test.step('at 375 px: the check is in the Preview view, and Go to image goes back to the canvas', async () => {
    await page.setViewportSize({ width: 375, height: 760 });
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect(check).toBeVisible();
    await expect(check.getByTestId('accessibility-count')).toHaveText('1 problem found');
    await expectAccessible(page, 'the builder’s Preview view with one finding at 375 px');
    await findings.getByRole('button', { name: 'Go to image' }).click();
    await expect(page.getByRole('tab', { name: 'Canvas' })).toHaveAttribute('aria-selected', 'true');
    const alt = page.getByRole('group', { name: /^Editing Image 3/ }).getByLabel('Alternative text');
    await expect(alt).toBeFocused();
    await expect(alt).toBeInViewport();
    await page.keyboard.type('The Acme logo, a blue anchor');
    await expect(page.getByTestId('image-alt-missing')).toBeHidden();
    await done();
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect(check.getByRole('status')).toHaveText('No accessibility problems found');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('a link made with Ctrl+K on selected words', async () => {
    await sidebar.getByRole('button', { name: 'Add Paragraph' }).click();
    const text = page.getByLabel('Paragraph text');
    await text.fill('Read the full terms online.');
    await text.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(9, 19));
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Add a link' });
    await expect(dialog.getByLabel('Words to show')).toHaveValue('full terms');
    await expect(dialog.getByLabel('Address')).toBeFocused();
    await page.keyboard.type('https://example.com/terms');
    await dialog.getByRole('button', { name: 'Add link' }).click();
    await expect(dialog).toBeHidden();
    await expect(text).toHaveValue('Read the [full terms](https://example.com/terms) online.');
    await expect(text).toBeFocused();
    await done();
    await expect(canvas.getByTitle('Link to https://example.com/terms')).toHaveText('full terms');
  });

  let formatId = '';
  await test.step('save', async () => {
    await expect(check.getByRole('status')).toHaveText('No accessibility problems found');
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/formats');
    await page.getByRole('button', { name: 'Save Format' }).click();
    const createdRes = await created;
    expect(createdRes.status()).toBe(201);
    formatId = ((await createdRes.json()) as { id: string }).id;
    await toast(page, 'Format saved successfully!');
  });

  await test.step('generate a document and download a tagged PDF with the text, the levels and the description', async () => {
    await page.getByRole('link', { name: 'Fill in' }).click();
    await expect(page).toHaveURL(new RegExp(`/data-entry/${formatId}$`));
    await page.getByRole('button', { name: 'Generate Document' }).click();
    const dialog = page.getByRole('dialog', { name: 'Document generated' });
    await expect(dialog).toBeVisible();
    const downloadPromise = nextDownload(page);
    await dialog.getByRole('link', { name: /^Download/ }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const file = await download.path();

    const text = pdfText(file);
    expect(text).toContain('Offer of employment');
    expect(text).toContain('Terms of the offer');
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/^Tagged:\s+yes$/m);
    // The structure, read with pdf.js: the chosen levels, and the image's description as its Figure's /Alt.
    const report = await checkAccessibility(readFileSync(file));
    expect(report.findings).toEqual([]);
    expect(report.elements.map(({ role, text, alt }) => ({ role, text, alt }))).toEqual(
      expect.arrayContaining([
        { role: 'H1', text: 'Offer of employment', alt: undefined },
        { role: 'H2', text: 'Terms of the offer', alt: undefined },
        expect.objectContaining({ role: 'Figure', alt: 'The Acme logo, a blue anchor' }),
        { role: 'Link', text: 'full terms', alt: undefined },
      ]),
    );
    // The link is a real, clickable annotation that opens its address.
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(file)), isEvalSupported: false }).promise;
    const annotations = (await (await doc.getPage(1)).getAnnotations()) as { subtype: string; url?: string }[];
    expect(annotations.filter((a) => a.subtype === 'Link').map((a) => a.url)).toEqual(['https://example.com/terms']);
    await doc.destroy();
  });

  expect(pageErrors).toEqual([]);
});
