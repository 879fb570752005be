import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_WINDOW_HOURS } from '../../../contract/public-api.ts';
import { AppError } from '../../http/app-error.ts';
import type { TPublicApiService } from './public-api.service.ts';

export type TApiAnswer = { status: number; body: unknown; location?: string };

const WINDOW_MS = IDEMPOTENCY_WINDOW_HOURS * 60 * 60_000;
/** How long a repeat waits for the first request to finish before it is told to retry. */
const WAIT_FOR_FIRST_MS = 30_000;

function send(reply: FastifyReply, answer: TApiAnswer) {
  if (answer.location) reply.header('location', answer.location);
  return reply.status(answer.status).send(answer.body);
}

/**
 * Runs `work` once per Idempotency-Key: a repeat within 24 hours gets the first answer and does
 * nothing, even while the first is still running (it waits for it); the same key with another
 * body is refused with 422. Only successes are kept: after an error the key is free again, so a
 * corrected request can reuse it.
 */
export async function answerOnce(request: FastifyRequest, reply: FastifyReply, store: TPublicApiService['idempotency'], work: () => Promise<TApiAnswer>) {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) return send(reply, await work());
  const given = Array.isArray(header) ? header[0] : header;
  if (!given || given.length > 255 || !/^[\x21-\x7e]+$/.test(given)) {
    throw new AppError('bad_request', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters, such as a UUID.');
  }
  // Test and live keys have keys of their own: a live request must never be answered a test
  // document made under the same Idempotency-Key (a spaced prefix no header value can contain).
  const key = request.apiKey?.mode === 'test' ? `test ${given}` : given;
  const ownerId = request.callerId;
  const requestHash = createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? ''} ${JSON.stringify(request.params ?? {})} ${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const found = await store.claim(ownerId, key, requestHash, new Date(Date.now() - WINDOW_MS));
    if (found === 'claimed') break;
    if (found === 'gone') continue;
    if (found.requestHash !== requestHash) {
      throw new AppError('unprocessable', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.');
    }
    if (found.status !== null) {
      reply.header('idempotent-replayed', 'true');
      return send(reply, { status: found.status, body: found.body, ...(found.location ? { location: found.location } : {}) });
    }
    if (Date.now() > deadline) {
      throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed. Retry in a few seconds.');
    }
    await sleep(25);
  }
  try {
    const answer = await work();
    await store.complete(ownerId, key, { status: answer.status, body: answer.body, location: answer.location ?? null });
    return send(reply, answer);
  } catch (error) {
    await store.release(ownerId, key);
    throw error;
  }
}
