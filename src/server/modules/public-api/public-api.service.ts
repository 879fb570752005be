import { API_LATENCY_DAYS, API_USAGE_CSV_HEADER, API_USAGE_DAYS, type TApiUsage, type TApiUsageDay } from '../../../contract/api-usage.ts';
import { notFound } from '../../http/app-error.ts';
import type { TApiKeysRepository } from '../api-keys/api-keys.repository.ts';
import { csvCell } from '../bulk/bulk.service.ts';
import type { TDocumentsService } from '../documents/documents.service.ts';
import type { TUsersRepository } from '../users/users.repository.ts';
import type { TPublicApiRepository, TUsageDay } from './public-api.repository.ts';

/** Raw request rows are kept this long, then only their daily roll-up remains. */
export const API_REQUEST_RETENTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;

/** Housekeeping for the public API, run at start and every hour. */
/**
 * A day's figures over several keys. Counts add up; percentiles cannot, so a day of several keys
 * shows each key's percentile weighted by its requests (exact for one key, close for several).
 */
function mergeDays(day: string, parts: TUsageDay[]): TApiUsageDay {
  const requests = (p: TUsageDay) => p.ok + p.clientErrors + p.serverErrors;
  const total = parts.reduce((n, p) => n + requests(p), 0);
  const weighted = (pick: (p: TUsageDay) => number) =>
    total === 0 ? null : Math.round(parts.reduce((n, p) => n + pick(p) * requests(p), 0) / total);
  return {
    day,
    ok: parts.reduce((n, p) => n + p.ok, 0),
    clientErrors: parts.reduce((n, p) => n + p.clientErrors, 0),
    serverErrors: parts.reduce((n, p) => n + p.serverErrors, 0),
    documents: parts.reduce((n, p) => n + p.documents, 0),
    p50Ms: weighted((p) => p.p50Ms),
    p95Ms: weighted((p) => p.p95Ms),
  };
}

function usageCsvOf({ days }: TApiUsage): string {
  const lines = [API_USAGE_CSV_HEADER, ...days.map((d) => [d.day, d.ok, d.clientErrors, d.serverErrors, d.documents, d.p50Ms ?? '', d.p95Ms ?? ''])];
  return `${lines.map((cells) => cells.map((c) => csvCell(c)).join(',')).join('\r\n')}\r\n`;
}

export function createPublicApiService(deps: {
  repository: TPublicApiRepository;
  keys: Pick<TApiKeysRepository, 'listAll'>;
  users: Pick<TUsersRepository, 'findById'>;
  documents: Pick<TDocumentsService, 'deleteExpired'>;
}) {
  const r = deps.repository;

  /** The last 30 days of an owner's API use, for all keys or one of theirs (another's answers 404). */
  async function usage(ownerId: string, keyId: string | undefined, now = new Date()): Promise<TApiUsage> {
    const keys = await deps.keys.listAll(ownerId);
    if (keyId && !keys.some((k) => k.id === keyId)) throw notFound('API key');
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const dayList = Array.from({ length: API_USAGE_DAYS }, (_, i) => new Date(today - (API_USAGE_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10));
    const stored = (await r.usageDays(ownerId, dayList[0]!)).filter((d) => !keyId || d.keyId === keyId);
    const byDay = new Map<string, TUsageDay[]>();
    for (const d of stored) byDay.set(d.day, [...(byDay.get(d.day) ?? []), d]);
    const days = dayList.map((day) => mergeDays(day, byDay.get(day) ?? []));
    const sum = (pick: (d: TApiUsageDay) => number) => days.reduce((n, d) => n + pick(d), 0);
    return {
      keyId: keyId ?? null,
      days,
      totals: {
        requests: sum((d) => d.ok + d.clientErrors + d.serverErrors),
        ok: sum((d) => d.ok),
        clientErrors: sum((d) => d.clientErrors),
        serverErrors: sum((d) => d.serverErrors),
        documents: sum((d) => d.documents),
      },
      latency: await r.latency(ownerId, new Date(now.getTime() - API_LATENCY_DAYS * DAY_MS), keyId),
      keys: keys.map((k) => ({ id: k.id, name: k.name, last4: k.last4, revoked: k.revokedAt !== null })),
    };
  }
  return {
    usage,

    /** For admins: any user's usage; an unknown user answers 404. */
    async usageOfUser(userId: string, keyId: string | undefined): Promise<TApiUsage> {
      if (!(await deps.users.findById(userId))) throw notFound('User');
      return usage(userId, keyId);
    },

    /** The same figures as a CSV file, one row per day. */
    async usageCsv(ownerId: string, keyId: string | undefined): Promise<string> {
      return usageCsvOf(await usage(ownerId, keyId));
    },

    async usageCsvOfUser(userId: string, keyId: string | undefined): Promise<string> {
      if (!(await deps.users.findById(userId))) throw notFound('User');
      return usageCsvOf(await usage(userId, keyId));
    },

    /** Each key's requests: counted per minute for the rate limit, and logged for the usage chart. */
    requests: {
      countInWindow: r.countRequest,
      record: r.recordRequest,
    },
    /** Where Idempotency-Keys and their first answers are kept. */
    idempotency: {
      claim: r.claimIdempotencyKey,
      complete: r.completeIdempotencyKey,
      release: r.releaseIdempotencyKey,
    },
    /** Documents asked for with `Prefer: respond-async`, until they exist. */
    asyncDocuments: {
      started: r.insertAsyncDocument,
      finished: r.finishAsyncDocument,
      get: r.asyncDocument,
    },

    async sweep(now = new Date()): Promise<void> {
      await deps.repository.sweep(now, new Date(now.getTime() - API_REQUEST_RETENTION_DAYS * DAY_MS), new Date(now.getTime() - DAY_MS));
      await deps.repository.sweepAsyncDocuments(new Date(now.getTime() - DAY_MS));
      await deps.documents.deleteExpired(now);
    },
  };
}
export type TPublicApiService = ReturnType<typeof createPublicApiService>;
