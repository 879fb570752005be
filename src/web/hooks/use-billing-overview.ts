import { useQuery } from '@tanstack/react-query';
import type { TBillingOverview } from '../../contract/billing';
import { api } from '../lib/api';
import { billingKeys } from '../lib/query-keys';
import { useWorkspace } from './use-workspace';

/** The signed-in user's plan, its subscription and this period's usage: the billing tab, the dashboard's reminder and the top bar's status read it. */
export function useBillingOverview(enabled = true) {
  // In a team, only its owners may read the subscription: nobody else asks for it.
  const owner = useWorkspace().atLeast('owner');
  return useQuery({ queryKey: billingKeys.overview, queryFn: () => api.get<TBillingOverview>('/api/subscription'), enabled: enabled && owner });
}
