import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCreateDocumentBody, TDocument } from '../../../contract/documents';
import { api } from '../../lib/api';
import { documentKeys, refreshAfterChange } from '../../lib/query-keys';

const seg = encodeURIComponent;

/** GET /api/documents with its query: parameters left empty are not sent. */
export function documentsUrl(query: Readonly<Record<string, string | number | null | undefined>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  return `/api/documents?${params.toString()}`;
}

/** The newest `limit` documents (the dashboard shows 3). */
export function useRecentDocuments(limit: number) {
  return useQuery({
    queryKey: documentKeys.recent(limit),
    queryFn: () => api.get<TDocument[]>(documentsUrl({ limit, offset: 0 })),
  });
}

export function useDeleteDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/documents/${seg(id)}`),
    onSuccess: () => refreshAfterChange(client, 'documents'),
  });
}

export function useCreateDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateDocumentBody) => api.post<TDocument>('/api/documents', body),
    // Not awaited: the success dialog opens at once while lists and stats refresh behind it.
    onSuccess: () => {
      void refreshAfterChange(client, 'documents');
    },
  });
}

export function documentPreviewUrl(id: string): string {
  return `/api/documents/${seg(id)}/preview`;
}
export function documentDownloadUrl(id: string): string {
  return `/api/documents/${seg(id)}/download`;
}

/** 'generated' -> 'Generated'; an empty status reads as the default 'Generated'. */
export function statusLabel(status: string | null | undefined): string {
  const s = (status ?? '').trim();
  if (!s) return 'Generated';
  return s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');
}
