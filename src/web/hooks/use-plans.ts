import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';
import { DEFAULT_PLANS, type PlansResponse } from '../lib/plans';
import { systemKeys } from '../lib/query-keys';

/**
 * The plan catalogue in force (after any admin override) and its currency. Public, so a signed-out
 * visitor's failure is not a session problem; the built-in catalogue stands in until it loads.
 */
export function usePlans(): PlansResponse {
  const { data } = useQuery({
    queryKey: systemKeys.plans,
    queryFn: () => api.get<PlansResponse>('/api/plans'),
    meta: { skipUnauthorizedHandler: true },
  });
  return data && Array.isArray(data.plans) && data.plans.length > 0 ? data : DEFAULT_PLANS;
}
