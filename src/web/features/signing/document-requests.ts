import { useQuery } from '@tanstack/react-query';
import type { TSignatureRequest } from '../../../contract/signature-requests';
import { api } from '../../lib/api';

/*
 * What every list of documents asks about signing, apart from the flow's calls (api.ts): a
 * document row loads this without the signing contract's schemas.
 */

const seg = encodeURIComponent;

/** The owner's signature requests: a change to one refreshes its document's list too. */
export const signatureRequestKeys = {
  all: ['signature-requests'] as const,
  ofDocument: (documentId: string) => ['signature-requests', 'document', documentId] as const,
  one: (id: string) => ['signature-requests', 'one', id] as const,
};

/** A document's requests, newest first; polled while the newest is still open. */
export function useDocumentSignatureRequests(documentId: string, enabled = true) {
  return useQuery({
    queryKey: signatureRequestKeys.ofDocument(documentId),
    queryFn: async () => {
      const list = await api.get<TSignatureRequest[]>(`/api/documents/${seg(documentId)}/signature-requests`);
      return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    enabled,
    refetchOnMount: 'always',
  });
}

/** The sealed PDF, once everyone has signed. */
export function signedPdfUrl(requestId: string): string {
  return `/api/signature-requests/${seg(requestId)}/pdf`;
}
