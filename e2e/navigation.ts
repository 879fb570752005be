import type { Page } from '@playwright/test';

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
