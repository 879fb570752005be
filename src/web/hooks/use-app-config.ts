import { useQuery } from '@tanstack/react-query';
import type { TAppConfig } from '../../contract/admin';
import { api } from '../lib/api';
import { systemKeys } from '../lib/query-keys';

/** The public part of the system settings (eSign address, support and sales emails). */
export function useAppConfig() {
  return useQuery({ queryKey: systemKeys.appConfig, queryFn: () => api.get<TAppConfig>('/api/app-config') });
}
