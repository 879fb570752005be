import { useAuth } from './use-auth';
import { usePlans } from './use-plans';
import { useStats } from './use-stats';

/** How many formats the plan allows and how many the user has: known before they build another. */
export function useFormatAllowance(): { used: number; limit: number | null; planName: string; atLimit: boolean } | null {
  const { user } = useAuth();
  const { plans } = usePlans();
  const stats = useStats(user !== null);
  if (!user || !stats.data) return null;
  const plan = plans.find((p) => p.id === user.subscriptionPlan);
  const limit = plan?.formatLimit ?? null;
  return { used: stats.data.totalFormats, limit, planName: plan?.name ?? 'current', atLimit: limit !== null && stats.data.totalFormats >= limit };
}
