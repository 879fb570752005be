import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.1 A and AA, the level the product promises. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Fails with every serious or critical axe violation on the page as it is now (dialogs and menus
 * included), each with the elements it was found on.
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  // Dialogs and toasts fading in or out would be measured half-transparent: wait until every
  // animation that ends has ended (a fixed 250 ms was too short on a busy machine). Spinners and
  // other endless ones are left running.
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { timeout: 10_000 },
  );
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`).join('\n')}`,
  );
  expect.soft(report, `axe at ${where}`).toEqual([]);
  // One heading names the page, for those who navigate by headings.
  expect.soft(await page.locator('h1').count(), `h1 elements at ${where}`).toBe(1);
}
