import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TCreateShareLinkBody,
  TDelivery,
  TDeliveryWithDocument,
  TEmailDocumentBody,
  TMailMerge,
  TMailMergeBody,
  TMailMergeOptions,
  TMailMergePreview,
  TMailMergeRowPage,
  TSharedDocument,
  TShareLink,
} from '../../../contract/delivery';
import { api } from '../../lib/api';
import { deliveryKeys, shareLinkKeys } from '../../lib/query-keys';

const seg = encodeURIComponent;

/** A document's emails; polled while one is still on its way. */
export function useDocumentDeliveries(documentId: string, enabled: boolean) {
  return useQuery({
    queryKey: deliveryKeys.ofDocument(documentId),
    queryFn: () => api.get<TDelivery[]>(`/api/documents/${seg(documentId)}/deliveries`),
    enabled,
    // Emails change on the server (the queue sends them): fresh each time the list is opened.
    refetchOnMount: 'always',
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'queued' || d.status === 'sending') ? 2_000 : false),
  });
}

/** One email, polled until it is sent or failed (the dialog's confirmation). */
export function useDelivery(id: string | null) {
  return useQuery({
    queryKey: deliveryKeys.one(id ?? ''),
    queryFn: () => api.get<TDelivery>(`/api/deliveries/${seg(id ?? '')}`),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && (query.state.data.status === 'sent' || query.state.data.status === 'failed') ? false : 1_000),
  });
}

export function useRecentDeliveries(limit: number) {
  return useQuery({
    queryKey: deliveryKeys.recent(limit),
    queryFn: () => api.get<TDeliveryWithDocument[]>(`/api/deliveries?limit=${limit}`),
    refetchOnMount: 'always',
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'queued' || d.status === 'sending') ? 3_000 : false),
  });
}

export function useEmailDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, body }: { documentId: string; body: TEmailDocumentBody }) =>
      api.post<TDelivery>(`/api/documents/${seg(documentId)}/email`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}

export function useShareLinks(documentId: string, enabled: boolean) {
  return useQuery({
    queryKey: shareLinkKeys.ofDocument(documentId),
    queryFn: () => api.get<TShareLink[]>(`/api/documents/${seg(documentId)}/share-links`),
    enabled,
    // Views are counted by visitors: fresh each time the list is opened.
    refetchOnMount: 'always',
  });
}

export function useCreateShareLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, body }: { documentId: string; body: TCreateShareLinkBody }) =>
      api.post<TShareLink>(`/api/documents/${seg(documentId)}/share`, body),
    onSuccess: (_link, { documentId }) => client.invalidateQueries({ queryKey: shareLinkKeys.ofDocument(documentId) }),
  });
}

export function useRevokeShareLink(documentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<TShareLink>(`/api/share-links/${seg(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: shareLinkKeys.ofDocument(documentId) }),
  });
}

/* A share link's public page: no account, so a 404 is the link's own answer, not a session problem. */

export function useSharedDocument(token: string) {
  return useQuery({
    queryKey: shareLinkKeys.shared(token),
    queryFn: () => api.get<TSharedDocument>(`/api/share/${seg(token)}`),
    meta: { skipUnauthorizedHandler: true },
  });
}

export function useSharedPdf(token: string, enabled: boolean) {
  return useQuery({
    queryKey: shareLinkKeys.sharedPdf(token),
    queryFn: () => api.blob('GET', sharedPdfUrl(token)),
    enabled,
    meta: { skipUnauthorizedHandler: true },
  });
}

export function sharedPdfUrl(token: string, download = false): string {
  return `/api/share/${seg(token)}/pdf${download ? '?download=1' : ''}`;
}

/* Mail merge */

export function useMailMergeOptions(jobId: string, enabled: boolean) {
  return useQuery({
    queryKey: deliveryKeys.merge(jobId),
    queryFn: () => api.get<TMailMergeOptions>(`/api/bulk-jobs/${seg(jobId)}/mail-merge`),
    enabled,
    refetchInterval: (query) => {
      const merge = query.state.data?.merge;
      return merge && !merge.finished ? 2_000 : false;
    },
  });
}

export function useMailMergePreview() {
  return useMutation({
    mutationFn: ({ jobId, body }: { jobId: string; body: TMailMergeBody }) =>
      api.post<TMailMergePreview>(`/api/bulk-jobs/${seg(jobId)}/mail-merge/preview`, body),
  });
}

export function useStartMailMerge() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId, body }: { jobId: string; body: TMailMergeBody }) => api.post<TMailMerge>(`/api/bulk-jobs/${seg(jobId)}/mail-merge`, body),
    onSuccess: (_merge, { jobId }) => client.invalidateQueries({ queryKey: deliveryKeys.merge(jobId) }),
  });
}

export function useMailMergeRows(jobId: string, offset: number, status: 'all' | 'failed', live: boolean) {
  return useQuery({
    queryKey: deliveryKeys.mergeRows(jobId, offset, status),
    queryFn: () =>
      api.get<TMailMergeRowPage>(`/api/bulk-jobs/${seg(jobId)}/mail-merge/rows?limit=25&offset=${offset}${status === 'failed' ? '&status=failed' : ''}`),
    refetchInterval: live ? 3_000 : false,
  });
}
