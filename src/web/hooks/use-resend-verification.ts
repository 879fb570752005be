import { useMutation } from '@tanstack/react-query';
import type { TResendVerificationResult } from '../../contract/user';
import { api, readApiError } from '../lib/api';
import { toast } from './use-toast';

/** "Resend": a new verification link for the signed-in account, with the server's words as a toast. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api.post<TResendVerificationResult>('/api/auth/resend-verification'),
    onSuccess: (result) => toast({ title: result.status === 'sent' ? 'Verification email sent' : 'Verification link', description: result.message }),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Could not send the link', description: readApiError(error, 'Please try again in a minute.').message }),
  });
}
