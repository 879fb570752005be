import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

/** WCAG 2.1 A and AA, the level the product promises. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const RUN_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: TAGS },
  // Passing and undecided results are dropped unread: building them (a selector and an HTML
  // snippet for every element that passed) took half of a long page's run.
  resultTypes: ['violations'],
  // The app's only frame holds a PDF in the browser's own viewer (the live demo's), which axe
  // cannot read. Asking a frame that has no axe would wait for its answer until axe gives up.
  iframes: false,
};

/**
 * axe-core's serious and critical violations on the page as it is now (dialogs and menus
 * included), one line per rule with the elements it was found on.
 *
 * axe is put into a document once, and stays there for the screens a single-page app shows next.
 * Handing its source to the page again for each check (1.5 MB, twice a check, as the Playwright
 * wrapper did) took 0.6 s of the browser's time where the check itself took 0.03 s, on a page with
 * one heading. The minified source it is handed now is 650 KB.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const injected = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!injected) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    (options) => (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe.run(document, options),
    RUN_OPTIONS,
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`).join('\n')}`,
    );
}

/** Fails with every serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  // One heading names the page, for those who navigate by headings. Waiting for it also waits for a
  // screen whose code is still loading after a navigation: axe once ran on a half-drawn My Formats.
  await expect.soft(page.locator('h1'), `h1 elements at ${where}`).toHaveCount(1);
  // Dialogs and toasts fading in or out would be measured half-transparent: wait until every
  // animation that ends has ended (a fixed 250 ms was too short on a busy machine). Spinners and
  // other endless ones are left running.
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { timeout: 10_000 },
  );
  expect.soft(await seriousAxeViolations(page), `axe at ${where}`).toEqual([]);
}
