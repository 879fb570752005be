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

/**
 * `value` when it is a path on this site (`/invite/…`), else null: where the sign-in page may send
 * someone afterwards (`?next=`) without becoming a way to send them to another site.
 */
export function sameSitePath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\u0000-\u001f\\]/.test(value)) return null;
  return value;
}

/** The sign-in page (`signUp`: on its Create account tab) that returns to `next` afterwards. */
export function signInHref(next: string, signUp = false): string {
  const params = new URLSearchParams(signUp ? { mode: 'signup', next } : { next });
  return `/login?${params.toString()}`;
}
