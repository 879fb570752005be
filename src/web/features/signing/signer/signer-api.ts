import { useMutation, useQuery } from '@tanstack/react-query';
import type { TDeclineBody, TSignBody, TSigningSession, TSignResult } from '../../../../contract/signature-requests';
import { api } from '../../../lib/api';

const seg = encodeURIComponent;

/*
 * The signer's calls: anyone holding a link, with no account, so a 404 is the link's own answer
 * and never a signed-out session.
 */

const signerKeys = {
  session: (token: string) => ['signing', 'signer', token, 'session'] as const,
  pdf: (token: string) => ['signing', 'signer', token, 'pdf'] as const,
};

export function useSigningSession(token: string) {
  return useQuery({
    queryKey: signerKeys.session(token),
    queryFn: () => api.get<TSigningSession>(`/api/sign/${seg(token)}`),
    meta: { skipUnauthorizedHandler: true },
  });
}

/** The document as sent, for drawing; `pdfUrl` comes from the session. */
export function useSigningPdf(token: string, pdfUrl: string | undefined) {
  return useQuery({
    queryKey: signerKeys.pdf(token),
    queryFn: () => api.blob('GET', pdfUrl ?? ''),
    enabled: pdfUrl !== undefined,
    meta: { skipUnauthorizedHandler: true },
  });
}

export function useSign(token: string) {
  return useMutation({
    mutationFn: (body: TSignBody) => api.post<TSignResult>(`/api/sign/${seg(token)}`, body),
    meta: { skipUnauthorizedHandler: true },
  });
}

export function useDeclineSigning(token: string) {
  return useMutation({
    mutationFn: (body: TDeclineBody) => api.post<TSignResult>(`/api/sign/${seg(token)}/decline`, body),
    meta: { skipUnauthorizedHandler: true },
  });
}
