import { expect, test } from '@playwright/test';
import { seriousAxeViolations } from './axe.ts';

/*
 * The accessibility checks of every journey pass only as long as the checker can fail: a page
 * built to break the rules the app's screens are held to, then the same page mended, checked
 * again in the same document as a single-page app's next screen would be.
 */
const BROKEN = `<!doctype html><html lang="en"><head></head><body><main>
  <h1>Broken</h1>
  <p style="color:#bbb;background:#fff">Pale grey text on white</p>
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <iframe srcdoc="<p>inside</p>"></iframe>
  <button></button>
</main></body></html>`;

test('the accessibility checker finds what breaks the rules, and nothing once it is mended', async ({ page }) => {
  await page.setContent(BROKEN);
  const found = await seriousAxeViolations(page);
  const rules = found.map((line) => line.split(' ')[0]);
  expect(rules.sort()).toEqual(['button-name', 'color-contrast', 'document-title', 'frame-title', 'image-alt']);
  expect(found.find((line) => line.startsWith('color-contrast'))).toContain('p');

  await page.evaluate(() => {
    document.title = 'Mended';
    document.querySelector('p')!.style.color = '#333';
    document.querySelector('img')!.alt = 'A dot';
    document.querySelector('iframe')!.title = 'A note';
    document.querySelector('button')!.textContent = 'Send';
  });
  expect(await seriousAxeViolations(page)).toEqual([]);
});
