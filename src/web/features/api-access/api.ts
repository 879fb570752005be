import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TApiKey, TCreateApiKeyBody, TCreatedApiKey } from '../../../contract/api-keys';
import { api } from '../../lib/api';
import { apiKeyKeys } from '../../lib/query-keys';

export function useApiKeys(enabled: boolean) {
  return useQuery({ queryKey: apiKeyKeys.mine, queryFn: () => api.get<TApiKey[]>('/api/user/api-keys'), enabled });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateApiKeyBody) => api.post<TCreatedApiKey>('/api/user/api-keys', body),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.mine }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/user/api-keys/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.mine }),
  });
}
