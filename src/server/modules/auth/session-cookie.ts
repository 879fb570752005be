import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { unauthorized } from '../../http/app-error.ts';

const SESSION_COOKIE_RE = /(?:^|;\s*)(?:__Secure-)?formwork\.session_token=([^;]+)/;
/** The signed session cookie's value, the key a session is remembered by. */
export const sessionCookieOf = (headers: IncomingHttpHeaders) => SESSION_COOKIE_RE.exec(headers.cookie ?? '')?.[1];

/**
 * The sign-in session a request carries, as a key that can be stored: a SHA-256 of its session
 * cookie (the cookie itself is a credential). A new sign-in gives a new key.
 */
export function sessionKeyOf(headers: IncomingHttpHeaders): string {
  const cookie = sessionCookieOf(headers);
  if (!cookie) throw unauthorized();
  return createHash('sha256').update(cookie, 'utf8').digest('hex');
}
