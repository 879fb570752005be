import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TApiKey, TCreateApiKeyBody, TCreatedApiKey } from '../../../contract/api-keys';
import type { TApiUsage } from '../../../contract/api-usage';
import { api } from '../../lib/api';
import { apiKeyKeys, webhookKeys } from '../../lib/query-keys';
import type { TCreatedWebhookEndpoint, TCreateWebhookBody, TWebhookDelivery, TWebhookEndpoint } from '../../../contract/webhooks';

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

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.mine, queryFn: () => api.get<TWebhookEndpoint[]>('/api/user/webhooks') });
}

/** An endpoint's last 50 deliveries; while any is pending it looks again every few seconds. */
export function useWebhookDeliveries(endpointId: string) {
  return useQuery({
    queryKey: webhookKeys.deliveries(endpointId),
    queryFn: () => api.get<TWebhookDelivery[]>(`/api/user/webhooks/${encodeURIComponent(endpointId)}/deliveries`),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 3_000 : false),
  });
}

function useWebhookMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }) });
}

export const useCreateWebhook = () => useWebhookMutation((body: TCreateWebhookBody) => api.post<TCreatedWebhookEndpoint>('/api/user/webhooks', body));
export const useDeleteWebhook = () => useWebhookMutation((id: string) => api.delete(`/api/user/webhooks/${encodeURIComponent(id)}`));
export const useEnableWebhook = () => useWebhookMutation((id: string) => api.post<TWebhookEndpoint>(`/api/user/webhooks/${encodeURIComponent(id)}/enable`));
export const useSendTestWebhook = () => useWebhookMutation((id: string) => api.post<TWebhookDelivery>(`/api/user/webhooks/${encodeURIComponent(id)}/test`));
