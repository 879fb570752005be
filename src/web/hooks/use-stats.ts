import { useQuery } from '@tanstack/react-query';
import type { TUserStats } from '../../contract/user';
import { api } from '../lib/api';
import { statsKeys } from '../lib/query-keys';

/** The signed-in user's counts and usage. */
export function useStats(enabled = true) {
  return useQuery({ queryKey: statsKeys.mine, queryFn: () => api.get<TUserStats>('/api/user/stats'), enabled });
}
