/**
 * Addresses that are permissions: a share link's path is its token, and so are the links that
 * sign a document, verify an email, reset a password or accept an invitation. Whoever reads a log
 * line holding one can open what it opens, so every log line (request logs, errors, the API's
 * request log) carries the path with the token replaced by `[token]`, and never a query string.
 */

/** `/s/{token}`, `/sign/{token}`, `/invite/{token}` and their API forms, and any `…/token/{token}`. */
const TOKEN_SEGMENT =
  /(\/(?:api\/)?(?:s|share|sign|signing|invite|invites|invitation|invitations|verify-email|reset-password|unsubscribe|token|tokens)\/)([^/?#\s"'<>]+)/gi;
/** A query string may carry a token too (`/verify-email?token=…`, OAuth codes and states). */
const QUERY = /\?[^\s"'<>]*/g;

/** Text with every token-bearing path's token masked and every query string dropped. */
export function maskTokens(text: string): string {
  return text.replace(TOKEN_SEGMENT, '$1[token]').replace(QUERY, '');
}

/** A request's address as logs keep it. */
export const pathForLog = (url: string) => maskTokens(url.split('?')[0] ?? url);
