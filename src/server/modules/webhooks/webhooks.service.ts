import { randomBytes, randomUUID } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_TEST_EVENT,
  type TCreatedWebhookEndpoint,
  type TCreateWebhookBody,
  type TWebhookDelivery,
  type TWebhookEndpoint,
  type TWebhookEvent,
} from '../../../contract/webhooks.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { createDueRowsWorker, type TDueRowsWorker } from '../../jobs/due-rows.ts';
import type { TCheckHost } from '../../net/address-rule.ts';
import type { TWebhookSender } from './webhook-sender.ts';
import type { TWebhookDeliveryRow, TWebhookEndpointRow, TWebhooksRepository } from './webhooks.repository.ts';
import { isoOrNull, pick } from '../api-fields.ts';

const MINUTE = 60_000;
/**
 * Waits between attempts: 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h; the last attempt comes about
 * 24 hours after the first. A delivery still failing then fails for good, and its endpoint is
 * turned off until the user turns it on again.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [1, 5, 30, 120, 300, 480, 480].map((m) => m * MINUTE);
/** How long a taken attempt is reserved for its sender before another may take it. */
const LEASE_MS = 2 * MINUTE;
/** "Send test event" per user and minute: enough to debug a receiver, too few to aim a flood at a URL. */
export const TEST_EVENTS_PER_MINUTE = 10;

function toEndpoint(row: TWebhookEndpointRow): TWebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as TWebhookEvent[],
    createdAt: row.createdAt.toISOString(),
    disabledAt: isoOrNull(row.disabledAt),
    disabledReason: row.disabledReason,
  };
}

function toDelivery(row: TWebhookDeliveryRow): TWebhookDelivery {
  return {
    ...pick(row, ['id', 'endpointId', 'event', 'status', 'attempts', 'responseStatus', 'error']),
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: row.status === 'pending' ? isoOrNull(row.nextAttemptAt) : null,
    deliveredAt: isoOrNull(row.deliveredAt),
  };
}

/**
 * Webhooks: endpoints a user registers, events that become deliveries, and the sender that works
 * through due deliveries (its queue is the deliveries table) with retries and backoff.
 */
export function createWebhooksService(deps: {
  repository: TWebhooksRepository;
  secrets: { seal(plain: string): string; open(sealed: string): string };
  send: TWebhookSender;
  hasApiAccess: (ownerId: string) => Promise<boolean>;
  /** The address rule, for an endpoint's host when it is saved (it is checked again on every send). */
  checkHost: TCheckHost;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  retryDelaysMs?: readonly number[];
  pollMs?: number;
}) {
  const r = deps.repository;
  const delays = deps.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const pollMs = deps.pollMs ?? 5_000;
  async function attempt(delivery: Awaited<ReturnType<TWebhooksRepository['takeDue']>>[number], signal: AbortSignal): Promise<void> {
    const body = JSON.stringify(delivery.payload);
    // Stopping cuts attempts in flight short; their rows stay leased and are tried again later.
    const result = await deps.send(delivery.url, body, deps.secrets.open(delivery.secretEnc), signal);
    if (signal.aborted) return;
    if (result.ok) {
      await r.recordAttempt(delivery.id, { status: 'delivered', responseStatus: result.status, error: null, nextAttemptAt: null });
      return;
    }
    const wait = delays[delivery.attempts - 1];
    if (wait !== undefined) {
      await r.recordAttempt(delivery.id, { status: 'pending', responseStatus: result.status, error: result.error, nextAttemptAt: new Date(Date.now() + wait) });
      worker.kickIn(wait);
      return;
    }
    await r.giveUp(
      delivery,
      { responseStatus: result.status, error: result.error },
      `Turned off after ${delivery.attempts} failed attempts over a day to deliver ${delivery.event}: ${result.error ?? 'no answer'}`,
    );
  }

  const worker: TDueRowsWorker = createDueRowsWorker({
    what: 'webhook',
    take: (now, leaseUntil, limit) => r.takeDue(now, leaseUntil, limit),
    attempt,
    leaseMs: LEASE_MS,
    pollMs,
    batch: 20,
    log: deps.log,
  });
  const kick = () => worker.kick();
  const testLimiter = new RateLimiterMemory({ points: TEST_EVENTS_PER_MINUTE, duration: 60 });

  /** Refuses an endpoint whose host is, or resolves to, a private or local address, before it is stored. */
  async function checkUrl(url: string): Promise<void> {
    const verdict = await deps.checkHost(new URL(url).hostname);
    if (verdict === 'ok') return;
    const message =
      verdict === 'not_allowed'
        ? 'This address is not allowed: it points to a private or local network. Give an address on the public internet.'
        : 'This address’s host could not be found. Check the spelling.';
    throw new AppError('validation_failed', message, { url: message });
  }

  async function enqueue(ownerId: string, endpoints: TWebhookEndpointRow[], event: string, data: unknown): Promise<TWebhookDeliveryRow[]> {
    const now = new Date();
    const rows = await r.insertDeliveries(
      endpoints.map((endpoint) => {
        const id = randomUUID();
        return {
          id,
          ownerId,
          endpointId: endpoint.id,
          event,
          payload: { id, type: event, createdAt: now.toISOString(), data },
          status: 'pending' as const,
          nextAttemptAt: now,
        };
      }),
    );
    if (rows.length > 0) kick();
    return rows;
  }

  return {
    async list(ownerId: string): Promise<TWebhookEndpoint[]> {
      return (await r.list(ownerId)).map(toEndpoint);
    },

    async create(ownerId: string, body: TCreateWebhookBody): Promise<TCreatedWebhookEndpoint> {
      if (!(await deps.hasApiAccess(ownerId))) {
        throw new AppError('plan_limit', 'Webhooks come with API access on the Enterprise plan. Contact sales to upgrade.');
      }
      if ((await r.count(ownerId)) >= MAX_WEBHOOK_ENDPOINTS) {
        throw new AppError('conflict', `You can register at most ${MAX_WEBHOOK_ENDPOINTS} endpoints. Delete one you no longer use first.`);
      }
      await checkUrl(body.url);
      const secret = `whsec_${randomBytes(32).toString('base64url')}`;
      const row = await r.insert({ id: randomUUID(), ownerId, url: body.url, events: [...new Set(body.events)], secretEnc: deps.secrets.seal(secret) });
      return { ...toEndpoint(row), secret };
    },

    async delete(ownerId: string, id: string): Promise<void> {
      if (!(await r.delete(ownerId, id))) throw notFound('Endpoint');
    },

    /** Turns an endpoint that repeated failures turned off back on. */
    async enable(ownerId: string, id: string): Promise<TWebhookEndpoint> {
      const row = await r.setDisabled(ownerId, id, null);
      if (!row) throw notFound('Endpoint');
      return toEndpoint(row);
    },

    async deliveries(ownerId: string, endpointId: string): Promise<TWebhookDelivery[]> {
      if (!(await r.get(ownerId, endpointId))) throw notFound('Endpoint');
      return (await r.deliveries(ownerId, endpointId, 50)).map(toDelivery);
    },

    /** Queues a `webhook.test` event for one endpoint, whatever it listens to. */
    async sendTest(ownerId: string, endpointId: string): Promise<TWebhookDelivery> {
      const endpoint = await r.get(ownerId, endpointId);
      if (!endpoint) throw notFound('Endpoint');
      try {
        await testLimiter.consume(ownerId);
      } catch (error) {
        const wait = error instanceof RateLimiterRes ? Math.max(1, Math.ceil(error.msBeforeNext / 1000)) : 60;
        throw new AppError('rate_limited', `You can send ${TEST_EVENTS_PER_MINUTE} test events a minute. Try again in ${wait} s.`, undefined, {
          'retry-after': String(wait),
        });
      }
      const [row] = await enqueue(ownerId, [endpoint], WEBHOOK_TEST_EVENT, { message: 'This is a test event from Formwork.' });
      return toDelivery(row!);
    },

    /** Tells every endpoint of the owner that listens to `event`; never fails the caller's work. */
    async emit(ownerId: string, event: TWebhookEvent, data: unknown): Promise<void> {
      try {
        const endpoints = await r.listening(ownerId, event);
        if (endpoints.length > 0) await enqueue(ownerId, endpoints, event, data);
      } catch (error) {
        deps.log.error({ err: error, event }, 'could not queue a webhook event');
      }
    },

    /** Looks for due retries now and then (deliveries made here are sent at once). */
    start(): void {
      worker.start();
    },

    async stop(): Promise<void> {
      await worker.stop();
    },
  };
}
export type TWebhooksService = ReturnType<typeof createWebhooksService>;
