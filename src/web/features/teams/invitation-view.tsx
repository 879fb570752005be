import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertCircleIcon, Loader2Icon, LogOutIcon, UsersIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type TTeamInvitationPreview } from '../../../contract/teams';
import { TEAM_ROLE_DESCRIPTIONS, TEAM_ROLE_LABELS, type TTeamRole } from '../../../contract/team-roles';
import type { TUser } from '../../../contract/user';
import { Logo } from '../../components/layout/logo';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useAuth } from '../../hooks/use-auth';
import { toast, toastApiError } from '../../hooks/use-toast';
import { errorStatus, readApiError, request } from '../../lib/api';
import { authKeys } from '../../lib/query-keys';
import { signInHref } from '../../lib/site';
import { formatDate } from '../../lib/utils';
import { switchWorkspace } from '../../lib/workspace';
import { useAcceptInvitation, useInvitationPreview } from './api';

const withArticle = (role: TTeamRole) => `${role === 'admin' || role === 'editor' || role === 'owner' ? 'an' : 'a'} ${TEAM_ROLE_LABELS[role].toLowerCase()}`;

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40 px-4 py-8 sm:px-8">
      <header>
        <Logo />
      </header>
      <main id="main" className="mx-auto flex w-full max-w-[460px] flex-1 flex-col justify-center py-10">
        <div className="rounded-xl border bg-background p-6 shadow-xs sm:p-8">{children}</div>
      </main>
    </div>
  );
}

function Accept({ token, preview }: { token: string; preview: TTeamInvitationPreview }) {
  const accept = useAcceptInvitation(token);
  return (
    <div className="grid gap-3">
      <Button
        size="lg"
        className="w-full"
        disabled={accept.isPending}
        onClick={() =>
          accept.mutate(undefined, {
            onSuccess: (team) => {
              toast({ title: `Welcome to ${team.name}`, description: `You joined as ${withArticle(team.role)}.` });
              switchWorkspace(team.id);
            },
            onError: toastApiError('Could not join the team'),
          })
        }
      >
        {accept.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
        {accept.isPending ? 'Joining...' : `Join ${preview.teamName}`}
      </Button>
      <Button variant="ghost" asChild className="w-full">
        <Link href="/">Not now</Link>
      </Button>
    </div>
  );
}

/** Signed in with another address: the invitation is not theirs to accept; signing out keeps them on this page. */
function WrongAccount({ user, preview }: { user: TUser; preview: TTeamInvitationPreview }) {
  const client = useQueryClient();
  const signOut = useMutation({
    // The server ends the session and redirects to the home page; whatever that page answers, the
    // session is over once the server answered at all. useAuth then says who (if anyone) is here.
    mutationFn: async () => {
      await request('POST', '/api/logout').catch((error: unknown) => {
        if (errorStatus(error) === null) throw error;
      });
    },
    onSuccess: async () => {
      client.setQueryData(authKeys.user, null);
      await client.invalidateQueries({ queryKey: authKeys.user });
    },
    onError: toastApiError('Could not sign you out'),
  });
  return (
    <div className="grid min-w-0 gap-4">
      <Alert variant="destructive" className="break-words">
        <AlertCircleIcon />
        <AlertTitle>This invitation is for another address</AlertTitle>
        <AlertDescription>
          You are signed in as {user.email}, and the invitation was sent to {preview.email}. Sign out, then sign in or create an account with {preview.email}.
        </AlertDescription>
      </Alert>
      <Button variant="outline" size="lg" className="w-full" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
        {signOut.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <LogOutIcon aria-hidden />}
        {signOut.isPending ? 'Signing out...' : 'Sign out'}
      </Button>
    </div>
  );
}

function SignedOut({ token, preview }: { token: string; preview: TTeamInvitationPreview }) {
  const here = `/invite/${encodeURIComponent(token)}`;
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        {preview.hasAccount
          ? `Sign in as ${preview.email} to accept. You come back here afterwards.`
          : `Create your account with ${preview.email} to accept. You come back here afterwards.`}
      </p>
      <Button asChild size="lg" variant={preview.hasAccount ? 'default' : 'outline'} className="w-full">
        <Link href={signInHref(here)}>Sign in</Link>
      </Button>
      <Button asChild size="lg" variant={preview.hasAccount ? 'outline' : 'default'} className="w-full">
        {/* The token goes along: it opens sign-up even where accounts are made by invitation only. */}
        <Link href={`${signInHref(here, true)}&invitation=${encodeURIComponent(token)}`}>Create account</Link>
      </Button>
    </div>
  );
}

/** /invite/:token — who invited whom to which team, and the way in for the person it was sent to. */
export function InvitationView({ token }: { token: string }) {
  const preview = useInvitationPreview(token);
  const { user, isLoading } = useAuth();
  if (preview.isLoading || (preview.data && isLoading)) {
    return (
      <Frame>
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Loader2Icon className="size-4 animate-spin" aria-hidden /> Reading your invitation...
        </p>
      </Frame>
    );
  }
  if (!preview.data) {
    return (
      <Frame>
        <h1 className="text-xl font-semibold tracking-tight">This invitation cannot be used</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          {readApiError(preview.error, 'The invitation could not be read. Check the link, or ask the team for a new one.').message}
        </p>
        <Button asChild variant="outline" className="mt-6 w-full">
          <Link href="/">{user ? 'Go to your dashboard' : 'Go to the home page'}</Link>
        </Button>
      </Frame>
    );
  }
  const invitation = preview.data;
  const mine = user !== null && user.email.toLowerCase() === invitation.email.toLowerCase();
  return (
    <Frame>
      <span className="flex size-11 items-center justify-center rounded-full bg-primary-soft text-primary">
        <UsersIcon className="size-5" aria-hidden />
      </span>
      <h1 className="mt-4 text-xl font-semibold tracking-tight text-balance">
        {invitation.invitedBy} invited you to join {invitation.teamName} as {withArticle(invitation.role)}
      </h1>
      <p className="mt-2 text-sm text-muted-foreground">{TEAM_ROLE_DESCRIPTIONS[invitation.role]}</p>
      <p className="mt-1 text-xs text-muted-foreground">
        Sent to {invitation.email} · works until {formatDate(invitation.expiresAt)}
      </p>
      <div className="mt-6">
        {!user ? (
          <SignedOut token={token} preview={invitation} />
        ) : mine ? (
          <Accept token={token} preview={invitation} />
        ) : (
          <WrongAccount user={user} preview={invitation} />
        )}
      </div>
    </Frame>
  );
}
