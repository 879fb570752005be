import type { TPlan, TPlanCatalogue } from '../../../contract/plans.ts';
import {
  apiRequestsPerMinuteOf,
  DEFAULT_API_REQUESTS_PER_MINUTE,
  DEFAULT_EMAILS_PER_HOUR,
  emailsPerHourOf,
  DEFAULT_STORAGE_MB,
  FALLBACK_API_CALLS_LIMIT,
  signatureRequestsPerMonthOf,
  storageMbOf,
} from '../../../contract/plan-catalogue.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { createBoundedLru } from '../../jobs/bounded-lru.ts';
import type { TUserAccounts } from '../users/index.ts';
import type { TGenerationLimits, TWorkspaceRow } from '../workspaces/index.ts';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The one place that says how much a user may generate and store, and the one wording of each
 * limit. Single documents, bulk jobs and the API all ask it, so every way of making a document
 * is held to the same numbers.
 */
const MB = 1024 * 1024;
/** How long a read that found room for more generations stands in for the next ones. */
export const ROOM_SEEN_TTL_MS = 5_000;

const sizeText = (bytes: number) =>
  bytes >= 1024 * MB
    ? `${(bytes / 1024 / MB).toLocaleString('en-US', { maximumFractionDigits: 1 })} GB`
    : `${(bytes / MB).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

export function createQuotaService(deps: {
  users: Pick<TUserAccounts, 'workspaceOf' | 'findWithUsage'>;
  /** Bytes of images the owner has stored (the assets module counts them). */
  imageBytesUsed: (ownerId: string) => Promise<number>;
  plans: () => Promise<TPlanCatalogue>;
  /** Signature requests the owner has created since a time (the signing module counts them). */
  signatureRequestsSince: (ownerId: string, since: Date) => Promise<number>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  // Owners a read recently found room for, with how much room is left of it, so that a user
  // making document after document is not read again for each (see assertRoomForOne).
  const roomSeen = createBoundedLru<string, { remaining: number; readAt: number }>({ maxEntries: 10_000, maxSize: 10_000 });
  // How many times anything was forgotten: reads under way meanwhile keep nothing.
  let forgotten = 0;

  async function planOf(row: TWorkspaceRow): Promise<TPlan | undefined> {
    return (await deps.plans()).find((p) => p.id === row.subscriptionPlan);
  }

  /** The user's own override wins, then the plan's monthly generations, then the fallback. */
  async function generationLimit(row: TWorkspaceRow): Promise<number> {
    if (row.apiCallsLimit !== null) return row.apiCallsLimit;
    return (await planOf(row))?.generationsPerMonth ?? FALLBACK_API_CALLS_LIMIT;
  }

  async function generations(ownerId: string): Promise<{ limit: number; used: number; remaining: number }> {
    const found = await deps.users.findWithUsage(ownerId);
    if (!found) throw notFound('Workspace');
    const limit = await generationLimit(found.workspace);
    return { limit, used: found.generations, remaining: Math.max(0, limit - found.generations) };
  }

  /** The refusal for asking `wanted` generations with `remaining` left of `limit`. */
  function generationsExceeded(limit: number, remaining: number, wanted = 1): AppError {
    return new AppError(
      'quota_exceeded',
      remaining === 0
        ? `You have used all ${count(limit, 'document', 'documents')} of your plan this month. Upgrade your plan or wait until next month.`
        : `Your plan can make ${count(remaining, 'more document', 'more documents')} this month, and this needs ${wanted.toLocaleString('en-US')}. Make fewer or upgrade your plan.`,
    );
  }

  async function storage(ownerId: string): Promise<{ planName: string; limitBytes: number; usedBytes: number }> {
    const workspace = await deps.users.workspaceOf(ownerId);
    if (!workspace) throw notFound('Workspace');
    const plan = await planOf(workspace);
    const limitBytes = (plan ? storageMbOf(plan) : DEFAULT_STORAGE_MB.free) * MB;
    return { planName: plan?.name ?? 'current', limitBytes, usedBytes: await deps.imageBytesUsed(ownerId) };
  }

  /** Whether a plan includes the API (and so API keys), and how fast each key may call it. */
  async function apiPlanFor(planId: string): Promise<{ apiAccess: boolean; requestsPerMinute: number }> {
    const plan = (await deps.plans()).find((p) => p.id === planId);
    return { apiAccess: plan?.apiAccess ?? false, requestsPerMinute: plan ? apiRequestsPerMinuteOf(plan) : DEFAULT_API_REQUESTS_PER_MINUTE };
  }

  async function apiPlan(ownerId: string): Promise<{ apiAccess: boolean; requestsPerMinute: number }> {
    const workspace = await deps.users.workspaceOf(ownerId);
    if (!workspace) throw notFound('Workspace');
    return apiPlanFor(workspace.subscriptionPlan);
  }

  /** Signature requests count by calendar month (UTC), whatever the billing period. */
  async function signatureRequestsUsed(ownerId: string): Promise<{ used: number; limit: number | null }> {
    const workspace = await deps.users.workspaceOf(ownerId);
    if (!workspace) throw notFound('Workspace');
    const plan = await planOf(workspace);
    const at = now();
    const used = await deps.signatureRequestsSince(ownerId, new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)));
    return { used, limit: signatureRequestsPerMonthOf(plan ?? { id: 'free' }) };
  }

  return {
    apiPlan,
    apiPlanFor,
    async hasApiAccess(ownerId: string): Promise<boolean> {
      return (await apiPlan(ownerId)).apiAccess;
    },
    generationLimit,
    generations,
    generationsExceeded,
    signatureRequestsUsed,
    storage,

    /** Refuses sending `count` more signature requests when they would pass the plan's monthly allowance. */
    async assertSignatureRequestRoom(ownerId: string, wanted: number): Promise<void> {
      const { used, limit } = await signatureRequestsUsed(ownerId);
      if (limit === null || used + wanted <= limit) return;
      throw new AppError(
        'quota_exceeded',
        `You have sent ${used.toLocaleString('en-US')} of your plan's ${limit.toLocaleString('en-US')} signature requests this month. Upgrade your plan or wait until next month.`,
      );
    },

    /** Recipients a user may email per hour, counting To and Cc of every message (the plan's send rate). */
    async emailsPerHour(ownerId: string): Promise<number> {
      const workspace = await deps.users.workspaceOf(ownerId);
      if (!workspace) throw notFound('Workspace');
      const plan = await planOf(workspace);
      return plan ? emailsPerHourOf(plan) : DEFAULT_EMAILS_PER_HOUR.free;
    },

    /** The refusal for an image of `adding` bytes when `usedBytes` of `limitBytes` are taken. */
    storageExceeded(planName: string, limitBytes: number, usedBytes: number, adding: number): AppError {
      return new AppError(
        'storage_limit',
        `This image (${sizeText(adding)}) does not fit: your images use ${sizeText(usedBytes)} of the ${sizeText(limitBytes)} your ${planName} plan includes. Upgrade your plan for more room.`,
      );
    },

    /** What the statement that counts a generation reads the owner's limit against (generationLimitOf). */
    async generationLimits(): Promise<TGenerationLimits> {
      const plans = await deps.plans();
      return { byPlan: Object.fromEntries(plans.map((p) => [p.id, p.generationsPerMonth])), fallback: FALLBACK_API_CALLS_LIMIT };
    },

    /**
     * Refuses one more generation before any work is done when the owner has none left. A read
     * from the last few seconds that found room stands in for a new one, less what this process
     * has counted since: the statement that counts reads the limit and the count again under the
     * counter's row lock, so a read gone stale (a limit lowered elsewhere) costs at most a render
     * that is then refused, while a refusal is always read fresh and room is never denied on an
     * old answer.
     */
    async assertRoomForOne(ownerId: string): Promise<void> {
      const seen = roomSeen.get(ownerId);
      if (seen && seen.remaining >= 1 && performance.now() - seen.readAt < ROOM_SEEN_TTL_MS) return;
      const forgottenBefore = forgotten;
      const { limit, remaining } = await generations(ownerId);
      if (remaining < 1) throw generationsExceeded(limit, remaining);
      // A read that began before a limit was changed may answer after it: then it is not kept.
      if (forgotten === forgottenBefore) roomSeen.set(ownerId, { remaining, readAt: performance.now() }, 1);
    },

    /** This process counted one of the owner's generations. */
    countedOne(ownerId: string): void {
      const seen = roomSeen.get(ownerId);
      if (seen) seen.remaining -= 1;
    },

    /** The owner's limit changed, or a generation was refused: the next check reads again. */
    forgetRoom(ownerId: string): void {
      forgotten += 1;
      roomSeen.delete(ownerId);
    },

    /**
     * Refuses before any work is done when `wanted` documents would not fit. The insert that
     * counts the generation checks again under a row lock, so racing requests cannot overshoot.
     */
    async assertCanGenerate(ownerId: string, wanted = 1): Promise<{ limit: number; remaining: number }> {
      const { limit, remaining } = await generations(ownerId);
      if (wanted > remaining) throw generationsExceeded(limit, remaining, wanted);
      return { limit, remaining };
    },
  };
}
export type TQuotaService = ReturnType<typeof createQuotaService>;
