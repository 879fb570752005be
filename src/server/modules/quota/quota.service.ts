import { FALLBACK_API_CALLS_LIMIT, type TPlan, type TPlanCatalogue } from '../../../contract/plans.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TUserRow, TUsersRepository } from '../users/users.repository.ts';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The one place that says how much a user may generate and store, and the one wording of each
 * limit. Single documents, bulk jobs and the API all ask it, so every way of making a document
 * is held to the same numbers.
 */
export function createQuotaService(deps: { users: TUsersRepository; plans: () => Promise<TPlanCatalogue> }) {
  async function planOf(row: TUserRow): Promise<TPlan | undefined> {
    return (await deps.plans()).find((p) => p.id === row.subscriptionPlan);
  }

  /** The user's own override wins, then the plan's monthly generations, then the fallback. */
  async function generationLimit(row: TUserRow): Promise<number> {
    if (row.apiCallsLimit !== null) return row.apiCallsLimit;
    return (await planOf(row))?.generationsPerMonth ?? FALLBACK_API_CALLS_LIMIT;
  }

  async function generations(ownerId: string): Promise<{ limit: number; used: number; remaining: number }> {
    const user = await deps.users.findById(ownerId);
    if (!user) throw notFound('User');
    const [limit, used] = await Promise.all([generationLimit(user), deps.users.generationsUsed(ownerId)]);
    return { limit, used, remaining: Math.max(0, limit - used) };
  }

  /** The refusal for asking `wanted` generations with `remaining` left of `limit`. */
  function generationsExceeded(limit: number, remaining: number, wanted = 1): AppError {
    return new AppError(
      'quota_exceeded',
      remaining === 0
        ? `You have used all ${count(limit, 'document generation', 'document generations')} of your plan this month. Upgrade your plan or wait until next month.`
        : `Your plan can make ${count(remaining, 'more document', 'more documents')} this month, and this needs ${wanted.toLocaleString('en-US')}. Make fewer or upgrade your plan.`,
    );
  }

  return {
    generationLimit,
    generations,
    generationsExceeded,

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
