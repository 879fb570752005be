import { PUBLIC_URL_TOKEN } from '../../contract/site';

/** Where Get Started leads: the sign-in page in sign-up mode, or the single sign-on provider when one is set up. */
export const SIGN_UP_HREF = '/api/login?mode=signup';

/**
 * This installation's address: the page's own origin in the browser. Rendered ahead of time (the
 * landing page at build time) it is a token the server replaces with its public address.
 */
export function siteOrigin(): string {
  return typeof window === 'undefined' ? PUBLIC_URL_TOKEN : window.location.origin;
}

export function mailto(to: string, subject?: string, body?: string): string {
  const params = new URLSearchParams();
  if (subject) params.set('subject', subject);
  if (body) params.set('body', body);
  const q = params.toString().replace(/\+/g, '%20');
  return `mailto:${to}${q ? `?${q}` : ''}`;
}
