import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Loader2Icon, MailCheckIcon, MonitorSmartphoneIcon } from 'lucide-react';
import { QueryState } from '../../components/query-state';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { type TAccountSession, type TAccountSessions, type TUser, ZChangeEmailBody, ZChangePasswordBody, ZProfileBody } from '../../../contract/user';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { toast, toastApiError } from '../../hooks/use-toast';
import { api } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { authKeys } from '../../lib/query-keys';
import { Field, ServerAlert, SubmitButton, useFormMutation } from './form-parts';
import { PASSWORD_HINT } from './password-hint';

type TProfileInput = z.input<typeof ZProfileBody>;
type TProfileOutput = z.output<typeof ZProfileBody>;
type TEmailInput = z.input<typeof ZChangeEmailBody>;
type TEmailOutput = z.output<typeof ZChangeEmailBody>;
type TPasswordInput = z.input<typeof ZChangePasswordBody>;
type TPasswordOutput = z.output<typeof ZChangePasswordBody>;

export function NameCard({ user }: { user: TUser }) {
  const form = useForm<TProfileInput, unknown, TProfileOutput>({
    resolver: zodResolver(ZProfileBody),
    defaultValues: { firstName: user.firstName ?? '', lastName: user.lastName ?? '' },
  });
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: (body: TProfileOutput) => api.put<TUser>('/api/user/profile', body),
    onSuccess: (updated) => {
      queryClient.setQueryData(authKeys.user, updated);
      form.reset({ firstName: updated.firstName ?? '', lastName: updated.lastName ?? '' });
      toast({ title: 'Name saved' });
    },
    failure: 'Could not save your name. Please try again.',
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Name</CardTitle>
        <CardDescription>How you appear in Formwork and in the emails you send from it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate aria-label="Name" className="grid gap-4" onSubmit={onSubmit}>
          <ServerAlert message={serverError} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field form={anyForm} name="firstName" label="First name" autoComplete="given-name" />
            <Field form={anyForm} name="lastName" label="Last name" autoComplete="family-name" />
          </div>
          <SubmitButton pending={mutation.isPending} label="Save name" pendingLabel="Saving..." className="w-full sm:w-fit" />
        </form>
      </CardContent>
    </Card>
  );
}

export function EmailCard({ user }: { user: TUser }) {
  const form = useForm<TEmailInput, unknown, TEmailOutput>({ resolver: zodResolver(ZChangeEmailBody), defaultValues: { newEmail: '' } });
  const [pending, setPending] = useState<string | null>(null);
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: (body: TEmailOutput) => api.post<{ pendingEmail: string }>('/api/user/email', body),
    onSuccess: ({ pendingEmail }) => {
      setPending(pendingEmail);
      form.reset({ newEmail: '' });
    },
    failure: 'Could not change your email. Please try again.',
    beforeSubmit: () => setPending(null),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Email</CardTitle>
        <CardDescription>
          You sign in with <span className="font-medium text-foreground">{user.email}</span>. A new address takes effect once you open the link we send to it.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {pending && (
          <Alert role="status">
            <MailCheckIcon />
            <AlertTitle>Check {pending}</AlertTitle>
            <AlertDescription>We sent a link there. Open it while signed in to make it your address. Until then, nothing changes.</AlertDescription>
          </Alert>
        )}
        <form noValidate aria-label="Change email" className="grid gap-4" onSubmit={onSubmit}>
          <ServerAlert message={serverError} />
          <Field form={anyForm} name="newEmail" label="New email address" type="email" autoComplete="email" />
          <SubmitButton pending={mutation.isPending} label="Send confirmation link" pendingLabel="Sending..." className="w-full sm:w-fit" />
        </form>
      </CardContent>
    </Card>
  );
}

export function PasswordCard() {
  const form = useForm<TPasswordInput, unknown, TPasswordOutput>({
    resolver: zodResolver(ZChangePasswordBody),
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: (body: TPasswordOutput) => api.put<void>('/api/user/password', body),
    onSuccess: () => {
      form.reset({ currentPassword: '', newPassword: '' });
      void queryClient.invalidateQueries({ queryKey: authKeys.sessions });
      toast({ title: 'Password changed', description: 'You were signed out everywhere else.' });
    },
    failure: 'Could not change your password. Please try again.',
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs you out on every other device.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate aria-label="Change password" className="grid gap-4" onSubmit={onSubmit}>
          <ServerAlert message={serverError} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field form={anyForm} name="currentPassword" label="Current password" type="password" autoComplete="current-password" />
            <Field form={anyForm} name="newPassword" label="New password" type="password" autoComplete="new-password" hint={PASSWORD_HINT} />
          </div>
          <SubmitButton pending={mutation.isPending} label="Change password" pendingLabel="Changing..." className="w-full sm:w-fit" />
        </form>
      </CardContent>
    </Card>
  );
}

/** "Firefox on Windows" from a user-agent string; the raw string when nothing is recognised. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : undefined;
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /CrOS/.test(userAgent)
            ? 'ChromeOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : undefined;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function SessionRow({ session }: { session: TAccountSession }) {
  return (
    <li className="flex items-start gap-3 py-3" data-testid="account-session">
      <MonitorSmartphoneIcon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          {describeDevice(session.userAgent)}
          {session.current && <Badge variant="soft">This device</Badge>}
        </p>
        <p className="text-[13px] text-muted-foreground">
          {session.ipAddress ?? 'Address unknown'} · Last active {when(session.lastActiveAt)} · Signed in {when(session.createdAt)}
        </p>
      </div>
    </li>
  );
}

export function SessionsCard() {
  const sessions = useQuery({ queryKey: authKeys.sessions, queryFn: ({ signal }) => api.get<TAccountSessions>('/api/user/sessions', signal) });
  const signOutOthers = useMutation({
    mutationFn: () => api.post<void>('/api/user/sessions/sign-out-others'),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: authKeys.sessions });
      toast({ title: 'Signed out everywhere else' });
    },
    onError: toastApiError('Could not sign out your other sessions'),
  });
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current).length;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Where you are signed in</CardTitle>
        <CardDescription>If you see a device you do not know, sign out everywhere else and change your password.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <QueryState
          query={sessions}
          loading={<p className="text-sm text-muted-foreground">Loading...</p>}
          errorText="Could not load your sessions. Reload the page to try again."
        >
          <ul className="divide-y" aria-label="Active sessions">
            {list.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </ul>
        </QueryState>
        <Button variant="outline" className="w-full sm:w-fit" disabled={others === 0 || signOutOthers.isPending} onClick={() => signOutOthers.mutate()}>
          {signOutOthers.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
          Sign out everywhere else
        </Button>
      </CardContent>
    </Card>
  );
}
