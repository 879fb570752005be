import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TAdminUser,
  TAuditEntry,
  TAdminUserUpdate,
  TPaymentGateway,
  TPaymentGatewayInput,
  TPaymentGatewayUpdate,
  TSealSettings,
  TSealUpload,
  TSystemSetting,
} from '../../../contract/admin';
import type { TApiUsage } from '../../../contract/api-usage';
import type { TAdminPayments, TAdminPaymentsQuery } from '../../../contract/billing';
import type { TPlanCatalogue } from '../../../contract/plans';
import type { TPublicPages } from '../../../contract/public-pages';
import type { TInvitation, TSignUpPolicy } from '../../../contract/sign-ups';
import type { TSystemMailSettings, TSystemMailSettingsInput, TTestEmailResult } from '../../../contract/mail';
import type { TRole } from '../../../contract/user';
import { api } from '../../lib/api';
import { adminKeys, authKeys, mailKeys, statsKeys, systemKeys } from '../../lib/query-keys';

/** The Admin Panel's calls. Every query takes `enabled`, so nothing is fetched unless the signed-in user is an admin. */
const seg = encodeURIComponent;

export function useAdminUsers(enabled: boolean) {
  return useQuery<TAdminUser[]>({
    queryKey: adminKeys.users(),
    queryFn: () => api.get<TAdminUser[]>('/api/admin/users'),
    enabled,
  });
}

const keyQuery = (keyId: string | undefined) => (keyId ? `?keyId=${seg(keyId)}` : '');

/** One user's API usage, as their own Settings shows it. */
export function useUserApiUsage(userId: string, keyId: string | undefined) {
  return useQuery({
    queryKey: adminKeys.apiUsage(userId, keyId),
    queryFn: () => api.get<TApiUsage>(`/api/admin/users/${seg(userId)}/api-usage${keyQuery(keyId)}`),
  });
}

export function userApiUsageCsvUrl(userId: string, keyId: string | undefined): string {
  return `/api/admin/users/${seg(userId)}/api-usage.csv${keyQuery(keyId)}`;
}

export function useAdminSettings(enabled: boolean) {
  return useQuery<TSystemSetting[]>({
    queryKey: adminKeys.settings(),
    queryFn: () => api.get<TSystemSetting[]>('/api/admin/settings'),
    enabled,
  });
}

export function usePaymentGateways(enabled: boolean) {
  return useQuery<TPaymentGateway[]>({
    queryKey: adminKeys.gateways(),
    queryFn: () => api.get<TPaymentGateway[]>('/api/admin/payment-gateways'),
    enabled,
  });
}

function replaceUser(list: TAdminUser[] | undefined, next: TAdminUser): TAdminUser[] | undefined {
  return list?.map((u) => (u.id === next.id ? next : u));
}

export function useChangeRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: TRole }) => api.patch<TAdminUser>(`/api/admin/users/${seg(id)}/role`, { role }),
    onSuccess: (user) => {
      client.setQueryData<TAdminUser[]>(adminKeys.users(), (list) => replaceUser(list, user));
      void client.invalidateQueries({ queryKey: adminKeys.users() });
    },
  });
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: TAdminUserUpdate }) => api.patch<TAdminUser>(`/api/admin/users/${seg(id)}`, update),
    onSuccess: (user) => {
      client.setQueryData<TAdminUser[]>(adminKeys.users(), (list) => replaceUser(list, user));
      void client.invalidateQueries({ queryKey: adminKeys.users() });
      // An admin may change their own plan or limit: the header badge and usage meter follow.
      void client.invalidateQueries({ queryKey: authKeys.user });
      void client.invalidateQueries({ queryKey: statsKeys.mine });
    },
  });
}

/** Settings can change the plan catalogue, which the landing page and billing read. */
function refreshSettings(client: ReturnType<typeof useQueryClient>) {
  void client.invalidateQueries({ queryKey: adminKeys.settings() });
  void client.invalidateQueries({ queryKey: adminKeys.plans() });
  void client.invalidateQueries({ queryKey: systemKeys.plans });
  void client.invalidateQueries({ queryKey: systemKeys.appConfig });
  // The mail server's card shows the daily limit, a setting like the others.
  void client.invalidateQueries({ queryKey: mailKeys.system });
}

export function useCreateSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { key: string; value: string; description: string | null }) => api.post<TSystemSetting>('/api/admin/settings', input),
    onSuccess: () => refreshSettings(client),
  });
}

export function useUpdateSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value, description }: { key: string; value: string; description: string | null }) =>
      api.put<TSystemSetting>(`/api/admin/settings/${seg(key)}`, { value, description }),
    onSuccess: () => refreshSettings(client),
  });
}

export function useDeleteSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (key: string) => {
      await api.delete(`/api/admin/settings/${seg(key)}`);
    },
    onSuccess: () => refreshSettings(client),
  });
}

/** Activating one gateway deactivates the others, and the active one sets the price currency. */
function refreshGateways(client: ReturnType<typeof useQueryClient>) {
  void client.invalidateQueries({ queryKey: adminKeys.gateways() });
  void client.invalidateQueries({ queryKey: systemKeys.plans });
}

export function useCreateGateway() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TPaymentGatewayInput) => api.post<TPaymentGateway>('/api/admin/payment-gateways', input),
    onSuccess: () => refreshGateways(client),
  });
}

export function useUpdateGateway() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: TPaymentGatewayUpdate }) => api.patch<TPaymentGateway>(`/api/admin/payment-gateways/${seg(id)}`, update),
    onMutate: async ({ id, update }) => {
      // Optimistic switch: only one gateway can be active at a time.
      await client.cancelQueries({ queryKey: adminKeys.gateways() });
      const previous = client.getQueryData<TPaymentGateway[]>(adminKeys.gateways());
      if (update.isActive !== undefined) {
        client.setQueryData<TPaymentGateway[]>(adminKeys.gateways(), (list) =>
          list?.map((g) => (g.id === id ? { ...g, isActive: update.isActive ?? g.isActive } : update.isActive ? { ...g, isActive: false } : g)),
        );
      }
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) client.setQueryData(adminKeys.gateways(), context.previous);
    },
    onSettled: () => refreshGateways(client),
  });
}

/** The filter as the list asks for it: only what is set, so equal filters share a cache entry. */
export type TPaymentsFilter = Partial<Pick<TAdminPaymentsQuery, 'status' | 'gateway' | 'email' | 'from' | 'to'>> & {
  limit: number;
  offset: number;
};

/**
 * One page of payments. The previous page stays on screen while the next loads, and every visit
 * asks again: payments arrive by webhook at any time.
 */
export function useAdminPayments(filter: TPaymentsFilter, enabled = true) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== '') params.set(key, String(value));
  return useQuery({
    enabled,
    queryKey: adminKeys.paymentsPage(Object.fromEntries(params)),
    queryFn: ({ signal }) => api.get<TAdminPayments>(`/api/admin/payments?${params.toString()}`, signal),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}

/** Any customer's invoice, as PDF bytes (the list downloads it under the invoice's number). */
export function useDownloadInvoice() {
  return useMutation({
    mutationFn: ({ invoiceId }: { invoiceId: string; invoiceNumber: string }) => api.blob('GET', `/api/admin/invoices/${seg(invoiceId)}/pdf`),
    onSuccess: (blob, { invoiceNumber }) => {
      const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `formwork-invoice-${invoiceNumber}.pdf`;
      document.body.append(link);
      link.click();
      link.remove();
      // The click has handed the bytes to the download by the next task.
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    },
  });
}

export function useAdminPlans() {
  return useQuery({
    queryKey: adminKeys.plans(),
    queryFn: () => api.get<TPlanCatalogue>('/api/admin/plans'),
  });
}

export function useSavePlans() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (catalogue: TPlanCatalogue) => api.put<TPlanCatalogue>('/api/admin/plans', catalogue),
    onSuccess: (saved) => {
      client.setQueryData(adminKeys.plans(), saved);
      // The catalogue is also a setting, and it prices the landing page, billing and the user list.
      void client.invalidateQueries({ queryKey: adminKeys.settings() });
      void client.invalidateQueries({ queryKey: systemKeys.plans });
      void client.invalidateQueries({ queryKey: adminKeys.users() });
    },
  });
}

/** A page of the audit log, newest first; asked again on every visit, as any admin may have acted since. */
export function useAuditLog(offset: number, limit: number) {
  return useQuery({
    queryKey: adminKeys.auditPage(offset),
    queryFn: ({ signal }) => api.get<{ entries: TAuditEntry[]; total: number }>(`/api/admin/audit?limit=${limit}&offset=${offset}`, signal),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}
/** The installation's SMTP server: every user's mail goes through it unless they have their own. */
export function useSystemMail(enabled: boolean) {
  return useQuery({ queryKey: mailKeys.system, queryFn: () => api.get<TSystemMailSettings>('/api/admin/mail-settings'), enabled });
}

function refreshMail(client: ReturnType<typeof useQueryClient>) {
  void client.invalidateQueries({ queryKey: mailKeys.system });
  // Whether users send through it changes with it.
  void client.invalidateQueries({ queryKey: mailKeys.settings });
}

export function useSaveSystemMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TSystemMailSettingsInput) => api.put<TSystemMailSettings>('/api/admin/mail-settings', input),
    onSuccess: () => refreshMail(client),
  });
}

export function useDeleteSystemMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/api/admin/mail-settings'),
    onSuccess: () => refreshMail(client),
  });
}

export function useTestSystemMail() {
  return useMutation({ mutationFn: (to: string | undefined) => api.post<TTestEmailResult>('/api/admin/mail-settings/test', to ? { to } : {}) });
}

/** What the landing and About pages say (figures, testimonials, team), as an admin edits it. */
export function useAdminPublicPages() {
  return useQuery({ queryKey: adminKeys.publicPages(), queryFn: () => api.get<TPublicPages>('/api/admin/public-pages') });
}

export function useSavePublicPages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (pages: TPublicPages) => api.put<TPublicPages>('/api/admin/public-pages', pages),
    onSuccess: (saved) => {
      client.setQueryData(adminKeys.publicPages(), saved);
      // The public pages read it from the app config.
      void client.invalidateQueries({ queryKey: systemKeys.appConfig });
      void client.invalidateQueries({ queryKey: adminKeys.audit() });
    },
  });
}

export function useSignUpPolicy() {
  return useQuery({ queryKey: adminKeys.signUpPolicy(), queryFn: () => api.get<TSignUpPolicy>('/api/admin/sign-up-policy') });
}

export function useSaveSignUpPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: TSignUpPolicy) => api.put<TSignUpPolicy>('/api/admin/sign-up-policy', policy),
    onSuccess: (saved) => {
      client.setQueryData(adminKeys.signUpPolicy(), saved);
      // The sign-up page reads the mode from the app config.
      void client.invalidateQueries({ queryKey: systemKeys.appConfig });
      void client.invalidateQueries({ queryKey: adminKeys.audit() });
    },
  });
}

export function useInvitations(enabled: boolean) {
  return useQuery({ queryKey: adminKeys.invitations(), queryFn: () => api.get<TInvitation[]>('/api/admin/invitations'), enabled });
}

/** Invitations change the pending list (even a failed send leaves one to resend) and the audit log. */
function refreshInvitations(client: ReturnType<typeof useQueryClient>) {
  void client.invalidateQueries({ queryKey: adminKeys.invitations() });
  void client.invalidateQueries({ queryKey: adminKeys.audit() });
}

export function useInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api.post<TInvitation>('/api/admin/invitations', { email }),
    onSettled: () => refreshInvitations(client),
  });
}

export function useResendInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<TInvitation>(`/api/admin/invitations/${seg(id)}/resend`),
    onSettled: () => refreshInvitations(client),
  });
}

export function useRevokeInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.delete(`/api/admin/invitations/${seg(id)}`);
    },
    onSettled: () => refreshInvitations(client),
  });
}

/** The account actions of Admin Panel → Users; each answers with nothing or the user as it now is. */
export type TUserAction = 'verify-email' | 'suspend' | 'restore' | 'sign-out' | 'password-reset' | 'two-factor/reset';

export function useUserAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: TUserAction }) =>
      api.post<TAdminUser | { message: string } | null>(`/api/admin/users/${seg(id)}/${action}`),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminKeys.users() });
      void client.invalidateQueries({ queryKey: adminKeys.audit() });
      // An admin may mark their own address verified.
      void client.invalidateQueries({ queryKey: authKeys.user });
    },
  });
}

const sealKey = [...adminKeys.all, 'seal'] as const;

/** The certificate completed documents are sealed with, and the timestamp server. */
export function useSealSettings() {
  return useQuery({ queryKey: sealKey, queryFn: () => api.get<TSealSettings>('/api/admin/seal') });
}

export function useSaveTimestampUrl() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (timestampUrl: string | null) => api.put<TSealSettings>('/api/admin/seal/timestamp-url', { timestampUrl }),
    onSuccess: (saved) => {
      client.setQueryData(sealKey, saved);
      void client.invalidateQueries({ queryKey: adminKeys.audit() });
    },
  });
}

export function useUploadSeal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (upload: TSealUpload) => api.post<TSealSettings>('/api/admin/seal/certificate', upload),
    onSuccess: (saved) => {
      client.setQueryData(sealKey, saved);
      void client.invalidateQueries({ queryKey: adminKeys.audit() });
    },
  });
}
