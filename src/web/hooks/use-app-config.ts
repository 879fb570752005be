import { useQuery } from '@tanstack/react-query';
import type { TAppConfig } from '../../contract/admin';
import { api } from '../lib/api';
import { bootConfig } from '../lib/boot-config';
import { systemKeys } from '../lib/query-keys';

/**
 * The public part of the system settings (support and sales emails, the public
 * pages' content). The page carries it (lib/boot-config.ts), so it is there on the first render;
 * an admin's change refreshes it.
 */
export function useAppConfig() {
  return useQuery({ queryKey: systemKeys.appConfig, queryFn: () => api.get<TAppConfig>('/api/app-config'), initialData: bootConfig });
}

/** The support and sales addresses, null when the installation has none (their links are then hidden). */
export function useContactEmails(): { supportEmail: string | null; salesEmail: string | null } {
  const config = useAppConfig().data;
  return { supportEmail: config?.supportEmail ?? null, salesEmail: config?.salesEmail ?? null };
}
