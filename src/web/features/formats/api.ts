import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TCreateDocumentBody, TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import type { TUserStats } from '../../../contract/user';
import { AUTH_USER_KEY } from '../../hooks/use-auth';
import { apiJson, apiRequest } from '../../lib/api';

export type FormatSummary = TFormat;
export type DocumentSummary = TDocument;

export const FORMATS_KEY = ['/api/formats'] as const;
/** Prefix of every documents query (full list pages, dashboard slice): invalidate this one. */
export const DOCUMENTS_KEY = ['/api/documents'] as const;
export const STATS_KEY = ['/api/user/stats'] as const;


/** GET /api/formats through the default query function (401 goes to the one global handler). */
export function useFormats() {
  return useQuery<TFormat[]>({ queryKey: FORMATS_KEY });
}

function documentsUrl(limit: number, offset: number): string {
  return `/api/documents?limit=${limit}&offset=${offset}`;
}

/** The newest `limit` documents (the dashboard shows 3). */
export function useRecentDocuments(limit: number) {
  return useQuery<TDocument[]>({
    queryKey: [...DOCUMENTS_KEY, 'recent', limit],
    queryFn: () => apiJson<TDocument[]>('GET', documentsUrl(limit, 0)),
  });
}


export function useStats(enabled = true) {
  return useQuery<TUserStats>({ queryKey: STATS_KEY, enabled });
}

/** After a format or document changes: lists, stats and the user's usage counter. */
export async function refreshAfterChange(client: QueryClient, what: 'formats' | 'documents' | 'both'): Promise<void> {
  const keys: (readonly string[])[] = [STATS_KEY, AUTH_USER_KEY];
  if (what !== 'documents') keys.push(FORMATS_KEY);
  if (what !== 'formats') keys.push(DOCUMENTS_KEY);
  await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

export function useDeleteFormat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/formats/${encodeURIComponent(id)}`);
    },
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: [...FORMATS_KEY, id] });
      // Documents keep their own copy but show 'Unknown' as format name afterwards.
      return refreshAfterChange(client, 'both');
    },
  });
}

export function useDeleteDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/documents/${encodeURIComponent(id)}`);
    },
    onSuccess: () => refreshAfterChange(client, 'documents'),
  });
}

export function useCreateDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateDocumentBody) => apiJson<TDocument>('POST', '/api/documents', body),
    // Not awaited: the success dialog opens at once while lists and stats refresh behind it.
    onSuccess: () => {
      void refreshAfterChange(client, 'documents');
    },
  });
}

export function documentPreviewUrl(id: string): string {
  return `/api/documents/${encodeURIComponent(id)}/preview`;
}
export function documentDownloadUrl(id: string): string {
  return `/api/documents/${encodeURIComponent(id)}/download`;
}
export function excelTemplateUrl(formatId: string): string {
  return `/api/formats/${encodeURIComponent(formatId)}/excel-template`;
}

export function formatDate(iso: string | undefined, withTime = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    ...(withTime ? { hour: 'numeric', minute: '2-digit' } : {}),
  });
}

/** 'generated' -> 'Generated'; an empty status reads as the default 'Generated'. */
export function statusLabel(status: string | null | undefined): string {
  const s = (status ?? '').trim();
  if (!s) return 'Generated';
  return s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');
}
