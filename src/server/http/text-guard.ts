import type { FastifyInstance } from 'fastify';
import { textProblem } from '../../contract/text.ts';
import { AppError } from './app-error.ts';

const MAX_DEPTH = 64;

/** The first string (key or value) in `value` that cannot be stored, with its dotted path. */
function firstBadText(value: unknown, path: string, depth = 0): { path: string; problem: string } | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path: path || '_', problem } : undefined;
  }
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return undefined;
  // No schema of the contract nests this deep; a body that does would only be walked again, and
  // overflow the stack, where it is validated or stored.
  if (depth >= MAX_DEPTH) return { path: path || '_', problem: `Nested more than ${MAX_DEPTH} levels deep.` };
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstBadText(item, path ? `${path}.${i}` : String(i), depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const keyProblem = textProblem(key);
    if (keyProblem) return { path: at, problem: keyProblem };
    const found = firstBadText(item, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The 400 the guard answers when `value` holds text no field may hold; for input the hook does not see (multipart fields). */
export function refuseUnstorableText(value: unknown): void {
  const bad = firstBadText(value, '');
  if (bad) throw new AppError('validation_failed', `Invalid input: ${bad.problem}`, { [bad.path]: bad.problem });
}

/**
 * Every JSON body, query string and path parameter is checked before validation for text that
 * no field may hold (NUL, unpaired surrogates), whatever the route's own schema says, so such a
 * value answers 400 naming its field and never reaches the database or a header.
 */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) refuseUnstorableText(part);
  });
}
