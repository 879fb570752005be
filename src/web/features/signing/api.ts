import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  isOpenRequest,
  type TBatchSignatureBody,
  type TBatchSignatureProgress,
  type TBatchSignatureResult,
  type TCreateSignatureRequestBody,
  type TSignatureRequest,
  type TSignatureRequestDetail,
} from '../../../contract/signature-requests';
import { api } from '../../lib/api';
import { documentKeys, statsKeys } from '../../lib/query-keys';
import { signatureRequestKeys } from './document-requests';

const seg = encodeURIComponent;

/** How often an open request is asked again while its panel is on screen: signers act elsewhere. */
const SIGNATURE_POLL_MS = 5_000;

/** A send or a cancel changes the document's status, which every document list shows. */
async function refreshAfterSigningChange(client: QueryClient, documentId: string): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: signatureRequestKeys.ofDocument(documentId) }),
    client.invalidateQueries({ queryKey: documentKeys.all }),
    client.invalidateQueries({ queryKey: statsKeys.mine }),
  ]);
}

/** One request with its audit trail; polled every few seconds while it is open. */
export function useSignatureRequest(id: string | null) {
  return useQuery({
    queryKey: signatureRequestKeys.one(id ?? ''),
    queryFn: () => api.get<TSignatureRequestDetail>(`/api/signature-requests/${seg(id ?? '')}`),
    enabled: id !== null,
    refetchOnMount: 'always',
    refetchInterval: (query) => (query.state.data && !isOpenRequest(query.state.data.status) ? false : SIGNATURE_POLL_MS),
  });
}

export function useSendForSignature() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, body }: { documentId: string; body: TCreateSignatureRequestBody }) =>
      api.post<TSignatureRequest>(`/api/documents/${seg(documentId)}/signature-requests`, body),
    onSuccess: (_request, { documentId }) => refreshAfterSigningChange(client, documentId),
  });
}

export function useRemindSigners() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<TSignatureRequest>(`/api/signature-requests/${seg(id)}/remind`),
    onSuccess: (request) => client.invalidateQueries({ queryKey: signatureRequestKeys.one(request.id) }),
  });
}

export function useCancelSignatureRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<TSignatureRequest>(`/api/signature-requests/${seg(id)}/cancel`),
    onSuccess: (request) =>
      Promise.all([client.invalidateQueries({ queryKey: signatureRequestKeys.one(request.id) }), refreshAfterSigningChange(client, request.documentId)]),
  });
}

/** How many of a batch's signature requests are in each status. */
export function useBatchSignatureProgress(jobId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['signature-requests', 'batch', jobId] as const,
    queryFn: () => api.get<TBatchSignatureProgress>(`/api/bulk-jobs/${seg(jobId)}/signature-requests`),
    enabled,
    refetchInterval: (query) => {
      const counts = query.state.data?.byStatus;
      return counts && counts.sent + counts.partly_signed > 0 ? SIGNATURE_POLL_MS : false;
    },
  });
}

/** "Send each for signature": one request per row of the batch. */
export function useSendBatchForSignature(jobId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TBatchSignatureBody) => api.post<TBatchSignatureResult>(`/api/bulk-jobs/${seg(jobId)}/signature-requests`, body),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['signature-requests', 'batch', jobId] }),
        client.invalidateQueries({ queryKey: documentKeys.all }),
        client.invalidateQueries({ queryKey: statsKeys.mine }),
      ]),
  });
}
