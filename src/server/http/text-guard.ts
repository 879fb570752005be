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
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || value instanceof Uint8Array) return undefined;
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

/**
 * Every JSON body, query string and path parameter is checked before validation for text that
 * no field may hold (NUL, unpaired surrogates), whatever the route's own schema says, so such a
 * value answers 400 naming its field and never reaches the database or a header.
 */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const bad = firstBadText(part, '');
      if (bad) throw new AppError('validation_failed', `Invalid input: ${bad.problem}`, { [bad.path]: bad.problem });
    }
  });
}
