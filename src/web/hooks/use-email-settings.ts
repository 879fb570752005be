import { useQuery } from '@tanstack/react-query';
import type { TEmailSettings } from '../../contract/mail';
import { api } from '../lib/api';
import { mailKeys } from '../lib/query-keys';

/** The signed-in user's mail settings: their own server, which server sends for them, their send rate. */
export function useEmailSettings(enabled = true) {
  return useQuery({ queryKey: mailKeys.settings, queryFn: () => api.get<TEmailSettings>('/api/user/email-settings'), enabled });
}
