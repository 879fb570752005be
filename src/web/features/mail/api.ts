import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TEmailSettings, TEmailSettingsInput, TTestEmailResult } from '../../../contract/mail';
import { api } from '../../lib/api';
import { mailKeys } from '../../lib/query-keys';

export function useSaveEmailSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TEmailSettingsInput) => api.put<TEmailSettings>('/api/user/email-settings', body),
    onSuccess: (settings) => client.setQueryData(mailKeys.settings, settings),
  });
}

export function useSendTestEmail() {
  return useMutation({ mutationFn: () => api.post<TTestEmailResult>('/api/user/email-settings/test', {}) });
}
