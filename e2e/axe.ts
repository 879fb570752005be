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
  // Legacy mode runs axe once, in the page itself. The default runs it frame by frame and then
  // again in a blank page it opens for the purpose, which took twice the time: over a minute of a
  // signed-in screen tour. What legacy mode skips is the inside of frames, and the app's only
  // frame holds a PDF in the browser's own viewer (the live demo's), which axe cannot read anyway.
  const results = await new AxeBuilder({ page }).withTags(TAGS).setLegacyMode(true).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`).join('\n')}`,
  );
  expect.soft(report, `axe at ${where}`).toEqual([]);
  // One heading names the page, for those who navigate by headings.
  expect.soft(await page.locator('h1').count(), `h1 elements at ${where}`).toBe(1);
}
