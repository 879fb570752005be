import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Goes to a page of the app's navigation: from the sidebar where it shows, else from the menu
 * (phones, and the builder, where the navigation folds away to give the canvas room).
 */
export async function navigate(page: Page, name: string): Promise<void> {
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  if (await sidebar.isVisible()) {
    await sidebar.getByRole('link', { name }).click();
    return;
  }
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('dialog').getByRole('link', { name }).click();
}

/**
 * Clicks `element` on a page the server drew once React has taken it over (it marks each node it
 * hydrates). Before then a drawn button does nothing when clicked, and a journey that runs faster
 * than the script loads would click it in vain.
 */
export async function clickOnceHydrated(element: Locator): Promise<void> {
  await untilHydrated(element);
  await element.click();
}

/**
 * Waits until React has taken `element` of a page the server drew over. Typing into a drawn form
 * before then is typing into fields React will set again to what it holds.
 */
export async function untilHydrated(element: Locator): Promise<void> {
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactFiber$'))), { message: 'React takes the drawn page over' })
    .toBe(true);
}
