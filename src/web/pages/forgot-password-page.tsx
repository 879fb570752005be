import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheckIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ZForgotPasswordBody } from '../../contract/user';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { AuthShell } from '../features/account/auth-shell';
import { Field, ServerAlert, useFormMutation, SubmitButton } from '../features/account/form-parts';
import { useDocumentTitle } from '../hooks/use-document-title';
import { api } from '../lib/api';

type TInput = z.input<typeof ZForgotPasswordBody>;
type TOutput = z.output<typeof ZForgotPasswordBody>;

export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const form = useForm<TInput, unknown, TOutput>({ resolver: zodResolver(ZForgotPasswordBody), defaultValues: { email: '' } });
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: (body: TOutput) => api.post<{ message: string }>('/api/auth/forgot-password', body),
    meta: { skipUnauthorizedHandler: true },
    failure: 'Could not send the link. Please try again.',
  });

  return (
    <AuthShell title="Forgot your password?" description="Enter your account’s email address and we will send you a link to choose a new password.">
      {mutation.isSuccess ? (
        <Alert role="status">
          <MailCheckIcon />
          <AlertTitle>Check your email</AlertTitle>
          <AlertDescription>{mutation.data.message}</AlertDescription>
        </Alert>
      ) : (
        <form noValidate aria-label="Forgot password" className="grid gap-4" onSubmit={onSubmit}>
          <ServerAlert message={serverError} />
          <Field form={anyForm} name="email" label="Email" type="email" autoComplete="email" />
          <SubmitButton pending={mutation.isPending} label="Send reset link" pendingLabel="Sending..." size="lg" className="mt-1 w-full" />
        </form>
      )}
    </AuthShell>
  );
}
