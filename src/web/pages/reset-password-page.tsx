import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2Icon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import type { z } from 'zod';
import { ZResetPasswordBody } from '../../contract/user';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { AuthShell } from '../features/account/auth-shell';
import { Field, ServerAlert, useFormMutation, SubmitButton } from '../features/account/form-parts';
import { PASSWORD_HINT } from '../features/account/password-hint';
import { useDocumentTitle } from '../hooks/use-document-title';
import { api } from '../lib/api';

type TInput = z.input<typeof ZResetPasswordBody>;
type TOutput = z.output<typeof ZResetPasswordBody>;

/**
 * The token is read once and the address bar loses it, so it stays out of the history and of
 * anything that reads the page's address later. It is kept here for the page's life: the page may
 * be drawn again (a sign-in elsewhere refreshes the app) after the address has lost it.
 */
let takenToken = '';
function takeToken(): string {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token) {
    takenToken = token;
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search);
  }
  return takenToken;
}

export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const [token] = useState(takeToken);
  const form = useForm<TInput, unknown, TOutput>({ resolver: zodResolver(ZResetPasswordBody), defaultValues: { token, newPassword: '' } });
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: (body: TOutput) => api.post<void>('/api/auth/reset-password', body),
    meta: { skipUnauthorizedHandler: true },
    failure: 'Could not set the new password. Please try again.',
  });
  const linkError = form.formState.errors.token?.message;

  return (
    <AuthShell title="Choose a new password" description="The new password signs you out everywhere you are signed in.">
      {mutation.isSuccess ? (
        <Alert role="status">
          <CheckCircle2Icon />
          <AlertTitle>Your password has been changed</AlertTitle>
          <AlertDescription>
            <Link href="/login" className="font-medium text-foreground underline underline-offset-4">
              Sign in with your new password
            </Link>
          </AlertDescription>
        </Alert>
      ) : !token ? (
        <ServerAlert
          message="This page needs the link from the password reset email."
          action={
            <Link href="/forgot-password" className="mt-1 block font-medium text-foreground underline underline-offset-4">
              Ask for a new link
            </Link>
          }
        />
      ) : (
        <form noValidate aria-label="Reset password" className="grid gap-4" onSubmit={onSubmit}>
          <ServerAlert
            message={serverError ?? (typeof linkError === 'string' ? linkError : null)}
            action={
              form.formState.errors.token ? (
                <Link href="/forgot-password" className="mt-1 block font-medium text-foreground underline underline-offset-4">
                  Ask for a new link
                </Link>
              ) : undefined
            }
          />
          <Field form={anyForm} name="newPassword" label="New password" type="password" autoComplete="new-password" hint={PASSWORD_HINT} />
          <SubmitButton pending={mutation.isPending} label="Set new password" pendingLabel="Saving..." size="lg" className="mt-1 w-full" />
        </form>
      )}
    </AuthShell>
  );
}
