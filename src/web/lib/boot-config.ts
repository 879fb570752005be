import type { TAppConfig } from '../../contract/admin';
import { APP_CONFIG_ELEMENT_ID } from '../../contract/site';

/**
 * The app config the page arrived with. The server writes it into every page it sends, and draws
 * the landing page with it; reading it before the first render makes that render match the
 * server's drawing (hydration) and spares a request. Drawn ahead of time (the build, or the
 * server drawing the landing page) it is the config given to `drawWithConfig`.
 *
 * The block is the server's own answer to GET /api/app-config, written into its own page, and is
 * read as that call's answer is (use-app-config.ts): the app starts without the contract's schemas.
 */
let given: TAppConfig | undefined;
let read = false;
let fromPage: TAppConfig | undefined;

export function drawWithConfig(config: TAppConfig | undefined): void {
  given = config;
}

export function bootConfig(): TAppConfig | undefined {
  if (given || typeof document === 'undefined') return given;
  if (!read) {
    read = true;
    const text = document.getElementById(APP_CONFIG_ELEMENT_ID)?.textContent;
    if (text) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fromPage = parsed as TAppConfig;
      } catch {
        // A page without a valid block (the dev server's) asks the server instead.
      }
    }
  }
  return fromPage;
}
