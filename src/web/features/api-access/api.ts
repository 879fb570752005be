import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TApiKey, TCreateApiKeyBody, TCreatedApiKey } from '../../../contract/api-keys';
import type { TApiUsage } from '../../../contract/api-usage';
import { api } from '../../lib/api';
import { apiKeyKeys } from '../../lib/query-keys';

export function useApiKeys(enabled: boolean) {
  return useQuery({ queryKey: apiKeyKeys.mine, queryFn: () => api.get<TApiKey[]>('/api/user/api-keys'), enabled });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateApiKeyBody) => api.post<TCreatedApiKey>('/api/user/api-keys', body),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/user/api-keys/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

const keyQuery = (keyId: string | undefined) => (keyId ? `?keyId=${encodeURIComponent(keyId)}` : '');

/** The last 30 days of the signed-in user's API calls, for all keys or one; refreshed every minute while shown. */
export function useApiUsage(keyId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: apiKeyKeys.usage(keyId),
    queryFn: () => api.get<TApiUsage>(`/api/user/api-usage${keyQuery(keyId)}`),
    enabled,
    refetchInterval: 60_000,
  });
}

export function usageCsvUrl(keyId: string | undefined): string {
  return `/api/user/api-usage.csv${keyQuery(keyId)}`;
}
