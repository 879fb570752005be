import type { QueryClient } from '@tanstack/react-query';

/**
 * Every query key, one factory per feature. Keys are hierarchical, so invalidating a factory's
 * `all` (or a narrower prefix) refreshes everything under it. They live together because one
 * feature's change often refreshes another's lists (a deleted format renames its documents).
 */
export const authKeys = {
  user: ['auth', 'user'] as const,
  /** The signed-in user's sessions (Settings → Profile). */
  sessions: ['auth', 'sessions'] as const,
  /** The newest export of the user's data (Settings → Profile → Your data). */
  dataExport: ['auth', 'data-export'] as const,
  /** The address an invitation link was sent to (the sign-up page fills it in). */
  invitation: (token: string) => ['auth', 'invitation', token] as const,
};

/** The signed-in person's teams: account data, the same in every workspace. */
export const teamKeys = {
  all: ['teams'] as const,
  mine: ['teams', 'mine'] as const,
  detail: (teamId: string) => ['teams', 'detail', teamId] as const,
  /** A team invitation as its link shows it, signed in or not. */
  invitation: (token: string) => ['teams', 'invitation', token] as const,
};

/**
 * Keys whose data belongs to the person or the installation, not to a workspace: one cache entry
 * serves every workspace. Every other key is kept apart per workspace (query-client.ts).
 */
const ACCOUNT_KEY_ROOTS: ReadonlySet<unknown> = new Set(['auth', 'system', 'teams', 'admin']);

export function isAccountKey(queryKey: readonly unknown[]): boolean {
  return ACCOUNT_KEY_ROOTS.has(queryKey[0]);
}

export const statsKeys = {
  mine: ['stats', 'mine'] as const,
};

export const systemKeys = {
  plans: ['system', 'plans'] as const,
  appConfig: ['system', 'app-config'] as const,
  /** The public API's OpenAPI document, for the reference page. */
  openapi: ['system', 'openapi'] as const,
};

export const formatKeys = {
  all: ['formats'] as const,
  list: () => [...formatKeys.all, 'list'] as const,
  detail: (id: string) => [...formatKeys.all, 'detail', id] as const,
};

export const documentKeys = {
  all: ['documents'] as const,
  recent: (limit: number) => [...documentKeys.all, 'recent', limit] as const,
  /** Documents made one at a time; in a team, optionally only one member's (`createdBy`). */
  singles: (pageSize: number, createdBy: string | null = null) => [...documentKeys.all, 'singles', pageSize, createdBy ?? 'everyone'] as const,
  ofBatch: (batchId: string, offset: number) => [...documentKeys.all, 'batch', batchId, offset] as const,
};

export const bulkJobKeys = {
  all: ['bulk-jobs'] as const,
  lists: () => [...bulkJobKeys.all, 'list'] as const,
  pages: (pageSize: number) => [...bulkJobKeys.lists(), pageSize] as const,
  job: (id: string) => [...bulkJobKeys.all, 'job', id] as const,
  draft: (id: string) => [...bulkJobKeys.all, 'draft', id] as const,
  errors: (id: string) => [...bulkJobKeys.job(id), 'errors'] as const,
  errorsPage: (id: string, offset: number) => [...bulkJobKeys.errors(id), offset] as const,
};

export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  /** Whether the Admin Panel opens for this admin (two-factor may be asked for first). */
  access: () => [...adminKeys.all, 'access'] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
  gateways: () => [...adminKeys.all, 'payment-gateways'] as const,
  apiUsage: (userId: string, keyId: string | undefined) => [...adminKeys.all, 'api-usage', userId, keyId ?? 'all'] as const,
  /** Every payments page, whatever its filter. */
  payments: () => [...adminKeys.all, 'payments'] as const,
  paymentsPage: (filter: Readonly<Record<string, string | number>>) => [...adminKeys.payments(), filter] as const,
  plans: () => [...adminKeys.all, 'plans'] as const,
  publicPages: () => [...adminKeys.all, 'public-pages'] as const,
  signUpPolicy: () => [...adminKeys.all, 'sign-up-policy'] as const,
  invitations: () => [...adminKeys.all, 'invitations'] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
  auditPage: (offset: number) => [...adminKeys.audit(), offset] as const,
};

export const billingKeys = {
  /** The plan, its period and usage, the subscription, the invoices: a payment changes them all. */
  all: ['billing'] as const,
  overview: ['billing', 'overview'] as const,
  invoices: ['billing', 'invoices'] as const,
};

export const apiKeyKeys = {
  /** Everything about keys: a key made or revoked changes the list and the usage filter. */
  all: ['api-keys'] as const,
  mine: ['api-keys', 'mine'] as const,
  /** The usage chart, for all keys (no id) or one. */
  usage: (keyId: string | undefined) => ['api-keys', 'usage', keyId ?? 'all'] as const,
};

export const webhookKeys = {
  all: ['webhooks'] as const,
  mine: ['webhooks', 'mine'] as const,
  deliveries: (endpointId: string) => ['webhooks', 'deliveries', endpointId] as const,
};

export const mailKeys = {
  /** The signed-in user's mail settings and which server sends for them. */
  settings: ['mail', 'settings'] as const,
  /** The installation's SMTP server (admins). */
  system: ['mail', 'system'] as const,
};

export const deliveryKeys = {
  /** Every email: a send changes a document's log, the recent list and a merge's progress. */
  all: ['deliveries'] as const,
  ofDocument: (documentId: string) => ['deliveries', 'document', documentId] as const,
  one: (id: string) => ['deliveries', 'one', id] as const,
  recent: (limit: number) => ['deliveries', 'recent', limit] as const,
  merge: (jobId: string) => ['deliveries', 'merge', jobId] as const,
  mergeRows: (jobId: string, offset: number, status: string) => ['deliveries', 'merge', jobId, 'rows', offset, status] as const,
};

export const shareLinkKeys = {
  ofDocument: (documentId: string) => ['share-links', 'document', documentId] as const,
  /** A shared document as its link's visitor sees it. */
  shared: (token: string) => ['share-links', 'shared', token] as const,
  sharedPdf: (token: string) => ['share-links', 'shared', token, 'pdf'] as const,
};

export const imageKeys = {
  byAddress: (address: string) => ['images', 'by-address', address] as const,
};

/** After a format or document changes: lists, stats and the user's usage counter. */
export async function refreshAfterChange(client: QueryClient, what: 'formats' | 'documents' | 'both'): Promise<void> {
  const keys: (readonly string[])[] = [statsKeys.mine, authKeys.user];
  if (what !== 'documents') keys.push(formatKeys.all);
  if (what !== 'formats') keys.push(documentKeys.all);
  await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
