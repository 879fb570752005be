import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TAdminUser,
  TAdminUserUpdate,
  TPaymentGateway,
  TPaymentGatewayInput,
  TPaymentGatewayUpdate,
  TSystemSetting,
} from '../../../contract/admin';
import type { TRole } from '../../../contract/user';
import { AUTH_USER_KEY } from '../../hooks/use-auth';
import { apiJson, apiRequest } from '../../lib/api';
import { DEFAULT_PLANS, PLANS_QUERY_KEY, type PlansResponse } from '../../lib/plans';

/**
 * The Admin Panel's calls (SPEC.md section 7). Every query takes `enabled`, so nothing is fetched
 * unless the signed-in user is an admin (SPEC.md section 6).
 */
export const ADMIN_USERS_KEY = ['/api/admin/users'] as const;
export const ADMIN_SETTINGS_KEY = ['/api/admin/settings'] as const;
export const ADMIN_GATEWAYS_KEY = ['/api/admin/payment-gateways'] as const;
/** Read by the rest of the app: the eSign address and support email come from settings. */
const APP_CONFIG_KEY = ['/api/app-config'] as const;
const STATS_KEY = ['/api/user/stats'] as const;

const seg = encodeURIComponent;

export function useAdminUsers(enabled: boolean) {
  return useQuery<TAdminUser[]>({
    queryKey: ADMIN_USERS_KEY,
    queryFn: () => apiJson<TAdminUser[]>('GET', '/api/admin/users'),
    enabled,
  });
}

export function useAdminSettings(enabled: boolean) {
  return useQuery<TSystemSetting[]>({
    queryKey: ADMIN_SETTINGS_KEY,
    queryFn: () => apiJson<TSystemSetting[]>('GET', '/api/admin/settings'),
    enabled,
  });
}

export function usePaymentGateways(enabled: boolean) {
  return useQuery<TPaymentGateway[]>({
    queryKey: ADMIN_GATEWAYS_KEY,
    queryFn: () => apiJson<TPaymentGateway[]>('GET', '/api/admin/payment-gateways'),
    enabled,
  });
}

/** The plan catalogue in force (after any admin override), for plan names and default limits. */
export function usePlanCatalogue() {
  const q = useQuery<PlansResponse>({
    queryKey: PLANS_QUERY_KEY,
    queryFn: () => apiJson<PlansResponse>('GET', '/api/plans'),
  });
  return q.data ?? DEFAULT_PLANS;
}

function replaceUser(list: TAdminUser[] | undefined, next: TAdminUser): TAdminUser[] | undefined {
  return list?.map((u) => (u.id === next.id ? next : u));
}

export function useChangeRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: TRole }) =>
      apiJson<TAdminUser>('PATCH', `/api/admin/users/${seg(id)}/role`, { role }),
    onSuccess: (user) => {
      client.setQueryData<TAdminUser[]>(ADMIN_USERS_KEY, (list) => replaceUser(list, user));
      void client.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    },
  });
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: TAdminUserUpdate }) =>
      apiJson<TAdminUser>('PATCH', `/api/admin/users/${seg(id)}`, update),
    onSuccess: (user) => {
      client.setQueryData<TAdminUser[]>(ADMIN_USERS_KEY, (list) => replaceUser(list, user));
      void client.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
      // An admin may change their own plan or limit: the header badge and usage meter follow.
      void client.invalidateQueries({ queryKey: AUTH_USER_KEY });
      void client.invalidateQueries({ queryKey: STATS_KEY });
    },
  });
}

/** Settings can change the plan catalogue, which the landing page and billing read. */
function refreshSettings(client: ReturnType<typeof useQueryClient>) {
  void client.invalidateQueries({ queryKey: ADMIN_SETTINGS_KEY });
  void client.invalidateQueries({ queryKey: PLANS_QUERY_KEY });
  void client.invalidateQueries({ queryKey: APP_CONFIG_KEY });
}

export function useCreateSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { key: string; value: string; description: string | null }) =>
      apiJson<TSystemSetting>('POST', '/api/admin/settings', input),
    onSuccess: () => refreshSettings(client),
  });
}

export function useUpdateSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value, description }: { key: string; value: string; description: string | null }) =>
      apiJson<TSystemSetting>('PUT', `/api/admin/settings/${seg(key)}`, { value, description }),
    onSuccess: () => refreshSettings(client),
  });
}

export function useDeleteSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (key: string) => {
      await apiRequest('DELETE', `/api/admin/settings/${seg(key)}`);
    },
    onSuccess: () => refreshSettings(client),
  });
}

/** Activating one gateway deactivates the others, and the active one sets the price currency. */
function refreshGateways(client: ReturnType<typeof useQueryClient>) {
  void client.invalidateQueries({ queryKey: ADMIN_GATEWAYS_KEY });
  void client.invalidateQueries({ queryKey: PLANS_QUERY_KEY });
}

export function useCreateGateway() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TPaymentGatewayInput) => apiJson<TPaymentGateway>('POST', '/api/admin/payment-gateways', input),
    onSuccess: () => refreshGateways(client),
  });
}

export function useUpdateGateway() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: TPaymentGatewayUpdate }) =>
      apiJson<TPaymentGateway>('PATCH', `/api/admin/payment-gateways/${seg(id)}`, update),
    onMutate: async ({ id, update }) => {
      // Optimistic switch: only one gateway can be active at a time.
      await client.cancelQueries({ queryKey: ADMIN_GATEWAYS_KEY });
      const previous = client.getQueryData<TPaymentGateway[]>(ADMIN_GATEWAYS_KEY);
      if (update.isActive !== undefined) {
        client.setQueryData<TPaymentGateway[]>(ADMIN_GATEWAYS_KEY, (list) =>
          list?.map((g) =>
            g.id === id ? { ...g, isActive: update.isActive ?? g.isActive } : update.isActive ? { ...g, isActive: false } : g,
          ),
        );
      }
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) client.setQueryData(ADMIN_GATEWAYS_KEY, context.previous);
    },
    onSettled: () => refreshGateways(client),
  });
}
