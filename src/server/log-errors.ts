/**
 * How errors are written to the log: enough to debug (type, code, SQL text, constraint, stack)
 * and never the data that was being stored. A failed query's error carries its parameters (users'
 * document data, emails) in its message, its stack and its `params`; PostgreSQL's `detail` echoes
 * key values. Both server and worker log through this.
 */

import { maskTokens } from './log-tokens.ts';

type TLoggedError = { [key: string]: unknown; type: string; message: string; stack: string };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.$]*$/;

/** A message with quoted values and `Key (col)=(value)` contents masked; quoted identifiers stay. */
function maskValues(message: string): string {
  return maskTokens(message)
    .replace(/\nparams:[\s\S]*$/, '\nparams: [redacted]')
    .replace(/=\(([^)]*)\)/g, '=(…)')
    .replace(/"([^"]*)"/g, (whole, inner: string) => (IDENTIFIER.test(inner) ? whole : '"…"'))
    .replace(/'([^']*)'/g, (whole, inner: string) => (IDENTIFIER.test(inner) ? whole : "'…'"));
}

const KEPT_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'routine', 'statusCode', 'errno', 'syscall'] as const;

export function serializeError(error: Error, depth = 0): TLoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: maskValues(String(error)), stack: '' };
  const raw = error as Error & Record<string, unknown>;
  const message = maskValues(error.message);
  const stack = error.stack ? maskValues(error.stack.replace(error.message, message)) : '';
  const logged: TLoggedError = { type: error.constructor.name, message, stack };
  for (const field of KEPT_FIELDS) if (raw[field] !== undefined) logged[field] = raw[field];
  if (typeof raw.query === 'string') logged.query = raw.query;
  if (error.cause instanceof Error && depth < 5) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}
