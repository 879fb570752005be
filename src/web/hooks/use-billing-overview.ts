import { useQuery } from '@tanstack/react-query';
import type { TBillingOverview } from '../../contract/billing';
import { api } from '../lib/api';
import { billingKeys } from '../lib/query-keys';

/** The signed-in user's plan, its subscription and this period's usage: the billing tab, the dashboard's reminder and the top bar's status read it. */
export function useBillingOverview(enabled = true) {
  return useQuery({ queryKey: billingKeys.overview, queryFn: () => api.get<TBillingOverview>('/api/subscription'), enabled });
}
