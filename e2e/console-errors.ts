import type { Page } from '@playwright/test';

/**
 * The browser's own console line for a request the server turned away as busy: a generation
 * answered 503 with Retry-After when the machine is loaded, as a journey's two-core machine often
 * is. The app sends such a request again by itself (src/web/lib/api.ts), so the line is no error of
 * the page's; what the journey checks next (the preview, the document) shows that the retry worked.
 */
const isBusyRetry = (text: string): boolean => text.includes('the server responded with a status of 503 (Service Unavailable)');

/** The browser's line for a 4xx answer: what a journey that sends wrong codes or passwords on purpose expects. */
export const isClientErrorAnswer = (text: string): boolean => /\bstatus of 4\d\d\b/.test(text);

/**
 * Every error `page` logs or throws from now on, with the address that logged it: a journey ends
 * by expecting none. `expected` names the lines a journey provokes on purpose (a refused password's
 * 4xx, a revoked link's 404); a busy server's 503, which the app retries, is never one.
 */
export function collectConsoleErrors(page: Page, expected: (text: string) => boolean = () => false): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' || isBusyRetry(message.text()) || expected(message.text())) return;
    errors.push(`${message.text()} ${message.location().url ?? ''}`.trim());
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return errors;
}
