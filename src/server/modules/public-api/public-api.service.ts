import { API_LATENCY_DAYS, API_USAGE_CSV_HEADER, API_USAGE_DAYS, type TApiUsage, type TApiUsageDay } from '../../../contract/api-usage.ts';
import { notFound } from '../../http/app-error.ts';
import { hashApiKey, type TApiKeysService } from '../api-keys/index.ts';
import { csvCell } from '../csv-cell.ts';
import type { TDocumentsService } from '../documents/index.ts';
import type { TUserAccounts } from '../users/index.ts';
import type { TApiRequest, TPublicApiRepository, TUsageDay } from './public-api.repository.ts';
import { API_KEY_PREFIX, type TApiKeyMode } from '../../../contract/api-keys.ts';
import type { TQuotaService } from '../quota/index.ts';

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
  const weighted = (pick: (p: TUsageDay) => number) => (total === 0 ? null : Math.round(parts.reduce((n, p) => n + pick(p) * requests(p), 0) / total));
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

/** The request log is written in batches: at most this often, or sooner when this many wait. */
const LOG_FLUSH_MS = 250;
const LOG_BATCH = 200;
const RATE_WINDOW_MS = 60_000;

export type TAdmission = {
  ownerId: string;
  /** Who made the key (null once their account is deleted): the person its calls act as. */
  createdBy: string | null;
  keyId: string;
  mode: TApiKeyMode;
  apiAccess: boolean;
  /** An admin suspended the key's owner (or a team key's maker): the key answers 401 until the account is restored. */
  suspended: boolean;
  /** A team key whose maker is no longer one of the team's admins: it answers 401 while they are not. */
  makerAway: boolean;
  limit: number;
  used: number;
  /** Seconds until the key's rate window starts again. */
  resetSeconds: number;
};

export function createPublicApiService(deps: {
  repository: TPublicApiRepository;
  keys: Pick<TApiKeysService, 'listForUsage' | 'markUsed'>;
  plans: Pick<TQuotaService, 'apiPlanFor'>;
  log: { warn: (obj: object, msg: string) => void };
  users: Pick<TUserAccounts, 'findById'>;
  documents: Pick<TDocumentsService, 'deleteExpired'>;
}) {
  const r = deps.repository;

  /** The last 30 days of an owner's API use, for all keys or one of theirs (another's answers 404). */
  async function usage(ownerId: string, keyId: string | undefined, now = new Date()): Promise<TApiUsage> {
    // Someone who has just called the API and opens the chart expects to see that call.
    await flushRequestLog();
    const keys = await deps.keys.listForUsage(ownerId);
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
      keys,
    };
  }
  // Logging a request must not cost the request a database round trip: rows wait here briefly
  // and go in together. A crash loses at most the last quarter second of the usage log.
  let pending: (TApiRequest & { createdAt: Date })[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  /** Settles once every row handed to a flush so far is written, including flushes already under way. */
  let written: Promise<void> = Promise.resolve();
  async function flushRequestLog(): Promise<void> {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length > 0) {
      const write = r.recordRequests(batch).catch((error: unknown) => deps.log.warn({ err: error, rows: batch.length }, 'could not log API requests'));
      written = Promise.all([written, write]).then(() => undefined);
    }
    await written;
  }

  return {
    usage,

    /**
     * Who a key belongs to, whether their plan has the API, and the request counted against the
     * key's per-minute limit; null for a malformed, unknown or revoked key.
     */
    async admit(key: string, now = new Date()): Promise<TAdmission | null> {
      if (!Object.values(API_KEY_PREFIX).some((prefix) => key.startsWith(prefix)) || key.length > 200) return null;
      const windowStart = now.getTime() - (now.getTime() % RATE_WINDOW_MS);
      const found = await r.admit(hashApiKey(key), new Date(windowStart));
      if (!found) return null;
      if (found.suspended || found.makerAway)
        return {
          ownerId: found.ownerId,
          createdBy: found.createdBy,
          keyId: found.keyId,
          mode: found.mode,
          suspended: found.suspended,
          makerAway: found.makerAway,
          apiAccess: false,
          limit: 0,
          used: 0,
          resetSeconds: 0,
        };
      // "Last used" is written at most once a minute per key, not once per call.
      if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() > 60_000) await deps.keys.markUsed(found.keyId, now);
      const plan = await deps.plans.apiPlanFor(found.plan);
      return {
        ownerId: found.ownerId,
        createdBy: found.createdBy,
        keyId: found.keyId,
        mode: found.mode,
        apiAccess: plan.apiAccess,
        suspended: false,
        makerAway: false,
        limit: plan.requestsPerMinute,
        used: found.used,
        resetSeconds: Math.max(1, Math.ceil((windowStart + RATE_WINDOW_MS - now.getTime()) / 1000)),
      };
    },

    /** Logs one request for the usage chart; written with others within a quarter second. */
    logRequest(request: TApiRequest): void {
      pending.push({ ...request, createdAt: new Date() });
      if (pending.length >= LOG_BATCH) void flushRequestLog();
      else flushTimer ??= setTimeout(() => void flushRequestLog(), LOG_FLUSH_MS).unref();
    },

    flushRequestLog,

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
