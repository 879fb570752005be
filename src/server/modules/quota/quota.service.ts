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
import type { TUserAccounts } from '../users/index.ts';
import type { TWorkspaceRow } from '../workspaces/index.ts';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The one place that says how much a user may generate and store, and the one wording of each
 * limit. Single documents, bulk jobs and the API all ask it, so every way of making a document
 * is held to the same numbers.
 */
const MB = 1024 * 1024;
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
