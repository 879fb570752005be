import { AlertCircleIcon, Loader2Icon, LogOutIcon, MailPlusIcon, RotateCwIcon, Trash2Icon, UserMinusIcon, XIcon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { type TTeamDetail, type TTeamInvitation } from '../../../contract/teams';
import { roleAtLeast, TEAM_ROLE_DESCRIPTIONS, TEAM_ROLE_LABELS, TEAM_ROLES, type TTeamRole } from '../../../contract/team-roles';
import type { TUser } from '../../../contract/user';
import { LoadingText, QueryState } from '../../components/query-state';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../../components/ui/native-select';
import { toast, toastApiError } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { formatDate } from '../../lib/utils';
import { switchWorkspace } from '../../lib/workspace';
import { useDeleteTeam, useInvite, useRemoveMember, useRenameTeam, useResendInvitation, useRevokeInvitation, useSetRole, useTeamDetail } from './api';

type TMember = TTeamDetail['members'][number];

/** The roles `role` may hand out: an owner any, an admin any but owner (the server's rule). */
const assignable = (role: TTeamRole) => TEAM_ROLES.filter((r) => r !== 'owner' || role === 'owner');

/** Whether `me` may change or remove `member`: admins manage everyone but owners, owners everyone. */
const manages = (me: TTeamRole, member: TMember) => roleAtLeast(me, 'admin') && (member.role !== 'owner' || me === 'owner');

function MemberRow({ team, member, me, onRemove, onLeave }: { team: TTeamDetail; member: TMember; me: TUser; onRemove: () => void; onLeave: () => void }) {
  const setRole = useSetRole(team.id);
  const self = member.userId === me.id;
  const owners = team.members.filter((m) => m.role === 'owner').length;
  const lastOwner = self && member.role === 'owner' && owners === 1;
  const editable = !self && manages(team.role, member);
  return (
    <tr data-testid="team-member-row">
      <td className="py-3 pr-3 pl-4 align-middle">
        <p className="truncate text-sm font-medium">
          {member.name || member.email}
          {self && <span className="font-normal text-muted-foreground"> (you)</span>}
        </p>
        <p className="truncate text-xs text-muted-foreground" title={member.email}>
          {member.email}
        </p>
      </td>
      <td className="px-3 py-3 align-middle">
        {editable ? (
          <NativeSelect
            size="sm"
            className="w-28"
            aria-label={`Role of ${member.name || member.email}`}
            value={member.role}
            disabled={setRole.isPending}
            onChange={(event) => {
              const role = event.target.value as TTeamRole;
              setRole.mutate(
                { userId: member.userId, role },
                {
                  onSuccess: () =>
                    toast({ title: 'Role changed', description: `${member.name || member.email} is now ${TEAM_ROLE_LABELS[role].toLowerCase()}.` }),
                  onError: toastApiError('Could not change the role'),
                },
              );
            }}
          >
            {assignable(team.role).map((r) => (
              <option key={r} value={r}>
                {TEAM_ROLE_LABELS[r]}
              </option>
            ))}
          </NativeSelect>
        ) : (
          <Badge variant={member.role === 'owner' ? 'soft' : 'secondary'}>{TEAM_ROLE_LABELS[member.role]}</Badge>
        )}
      </td>
      <td className="hidden px-3 py-3 align-middle text-sm whitespace-nowrap text-muted-foreground sm:table-cell">{formatDate(member.joinedAt)}</td>
      <td className="py-3 pr-4 pl-3 text-right align-middle">
        {self ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={onLeave}
            disabled={lastOwner}
            title={lastOwner ? 'You are the only owner: make someone else an owner first, or delete the team.' : undefined}
          >
            <LogOutIcon aria-hidden />
            <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">Leave team</span>
          </Button>
        ) : editable ? (
          <Button variant="ghost" size="icon-sm" onClick={onRemove} aria-label={`Remove ${member.name || member.email}`} title="Remove from the team">
            <UserMinusIcon aria-hidden />
          </Button>
        ) : null}
      </td>
    </tr>
  );
}

function MembersCard({ team, me }: { team: TTeamDetail; me: TUser }) {
  const remove = useRemoveMember(team.id);
  const [removing, setRemoving] = useState<TMember | null>(null);
  const [leaving, setLeaving] = useState(false);
  const self = team.members.find((m) => m.userId === me.id);
  const onlyOwner = self?.role === 'owner' && team.members.filter((m) => m.role === 'owner').length === 1;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          {roleAtLeast(team.role, 'admin')
            ? 'Everyone in the team sees its formats and documents. Change a role to change what someone may do.'
            : 'Everyone in the team sees its formats and documents. Admins and owners invite people and change roles.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="px-0 sm:px-0">
        <table className="w-full table-fixed text-left">
          <caption className="sr-only">Members of {team.name}</caption>
          <colgroup>
            <col />
            <col className="w-[8.5rem]" />
            <col className="hidden w-32 sm:table-column" />
            <col className="w-14 sm:w-36" />
          </colgroup>
          <thead className="border-y bg-muted/40 text-xs font-medium text-muted-foreground">
            <tr>
              <th scope="col" className="py-2 pr-3 pl-4 font-medium">
                Name
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Role
              </th>
              <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                Joined
              </th>
              <th scope="col" className="py-2 pr-4 pl-3 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {team.members.map((member) => (
              <MemberRow key={member.userId} team={team} member={member} me={me} onRemove={() => setRemoving(member)} onLeave={() => setLeaving(true)} />
            ))}
          </tbody>
        </table>
        {onlyOwner && (
          <p className="px-4 pt-4 text-[13px] text-muted-foreground">
            You are the team’s only owner: to leave it, make someone else an owner first, or delete the team.
          </p>
        )}
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove ${removing?.name || removing?.email || ''}?`}
        description={`They lose access to ${team.name} at once. What they made in the team stays.`}
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.userId, {
            onSuccess: () => {
              toast({ title: 'Member removed', description: `${removing.name || removing.email} is no longer in ${team.name}.` });
              setRemoving(null);
            },
            onError: toastApiError('Could not remove the member'),
          })
        }
      />
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title={`Leave ${team.name}?`}
        description="You lose access to the team’s formats and documents. To come back, someone in the team must invite you again."
        confirmLabel="Leave team"
        pendingLabel="Leaving..."
        pending={remove.isPending}
        onConfirm={() =>
          self &&
          remove.mutate(self.userId, {
            onSuccess: () => {
              toast({ title: 'You left the team', description: `You are no longer in ${team.name}.` });
              switchWorkspace(null);
            },
            onError: toastApiError('Could not leave the team'),
          })
        }
      />
    </Card>
  );
}

function InvitationRow({ teamId, invitation }: { teamId: string; invitation: TTeamInvitation }) {
  const resend = useResendInvitation(teamId);
  const revoke = useRevokeInvitation(teamId);
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-testid="team-invitation-row">
      {/* On a phone the buttons go under the details, which keep the row's width. */}
      <div className="min-w-0 flex-1 basis-64">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          <span className="min-w-0 truncate" title={invitation.email}>
            {invitation.email}
          </span>
          <Badge variant="secondary">{TEAM_ROLE_LABELS[invitation.role]}</Badge>
          {invitation.expired && <Badge variant="destructive">Expired</Badge>}
        </p>
        <p className="mt-0.5 text-xs text-muted-foreground">
          Sent {formatDate(invitation.sentAt)} by {invitation.invitedBy} ·{' '}
          {invitation.expired ? `expired ${formatDate(invitation.expiresAt)}` : `expires ${formatDate(invitation.expiresAt)}`}
        </p>
      </div>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={resend.isPending}
          aria-label={`Resend the invitation to ${invitation.email}`}
          onClick={() =>
            resend.mutate(invitation.id, {
              onSuccess: () =>
                toast({ title: 'Invitation sent again', description: `A new link is on its way to ${invitation.email}; the old one no longer works.` }),
              onError: toastApiError('Could not resend the invitation'),
            })
          }
        >
          {resend.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <RotateCwIcon aria-hidden />}
          Resend
        </Button>
        <Button
          variant="ghost"
          size="sm"
          disabled={revoke.isPending}
          aria-label={`Revoke the invitation to ${invitation.email}`}
          onClick={() =>
            revoke.mutate(invitation.id, {
              onSuccess: () => toast({ title: 'Invitation revoked', description: `The link sent to ${invitation.email} no longer works.` }),
              onError: toastApiError('Could not revoke the invitation'),
            })
          }
        >
          <XIcon aria-hidden />
          Revoke
        </Button>
      </div>
    </li>
  );
}

function InviteForm({ team }: { team: TTeamDetail }) {
  const id = useId();
  const invite = useInvite(team.id);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TTeamRole>('member');
  const [problem, setProblem] = useState<{ message: string; field: string | null } | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    invite.mutate(
      { email, role },
      {
        onSuccess: (sent) => {
          setEmail('');
          toast({ title: 'Invitation sent', description: `${sent.email} can join as ${TEAM_ROLE_LABELS[sent.role].toLowerCase()} within a week.` });
        },
        onError: (failure) => {
          if (isUnauthorizedError(failure)) return;
          const read = readApiError(failure, 'The invitation could not be sent. Please try again.');
          setProblem({ message: read.fields['email'] ?? read.fields['role'] ?? read.message, field: read.fields['email'] ? 'email' : null });
        },
      },
    );
  };
  const emailError = problem?.field === 'email' ? problem.message : undefined;
  return (
    <form noValidate aria-label="Invite someone" onSubmit={submit} className="grid gap-4">
      {problem && !emailError && (
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertDescription>{problem.message}</AlertDescription>
        </Alert>
      )}
      <Field id={`${id}-email`} label="Email address" error={emailError}>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="off"
          placeholder="name@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${id}-email-error` : undefined}
        />
      </Field>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Role</legend>
        {assignable(team.role).map((r) => (
          <label
            key={r}
            className="flex cursor-pointer items-start gap-2.5 rounded-md border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary-soft/40"
          >
            <input
              type="radio"
              name={`${id}-role`}
              value={r}
              checked={role === r}
              onChange={() => setRole(r)}
              className="mt-0.5 size-4 shrink-0 accent-[var(--color-primary)]"
            />
            <span>
              <span className="font-medium">{TEAM_ROLE_LABELS[r]}</span>
              <span className="block text-muted-foreground">{TEAM_ROLE_DESCRIPTIONS[r]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <MailPlusIcon aria-hidden />}
          {invite.isPending ? 'Sending...' : 'Send invitation'}
        </Button>
      </div>
    </form>
  );
}

function InvitationsCard({ team }: { team: TTeamDetail }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite people</CardTitle>
        <CardDescription>We email them a link that works once, for a week. They join with the role you choose.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <InviteForm team={team} />
        <section aria-label="Open invitations">
          <h4 className="text-sm font-medium">Open invitations</h4>
          {team.invitations.length === 0 ? (
            <p className="mt-2 text-sm text-muted-foreground">No invitations waiting for an answer.</p>
          ) : (
            <ul className="mt-1 divide-y">
              {team.invitations.map((invitation) => (
                <InvitationRow key={invitation.id} teamId={team.id} invitation={invitation} />
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

function RenameCard({ team }: { team: TTeamDetail }) {
  const id = useId();
  const rename = useRenameTeam(team.id);
  const [name, setName] = useState(team.name);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    rename.mutate(name, {
      onSuccess: (renamed) => toast({ title: 'Team renamed', description: `The team is now called ${renamed.name}.` }),
      onError: (failure) => {
        if (isUnauthorizedError(failure)) return;
        const read = readApiError(failure, 'The team could not be renamed. Please try again.');
        setError(read.fields['name'] ?? read.message);
      },
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Team name</CardTitle>
        <CardDescription>What members see in their workspace menu and in invitations.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate aria-label="Rename the team" onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="flex-1">
            <Field id={`${id}-name`} label="Name" error={error ?? undefined}>
              <Input
                id={`${id}-name`}
                value={name}
                onChange={(event) => setName(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-name-error` : undefined}
              />
            </Field>
          </div>
          <Button type="submit" variant="outline" className="sm:mt-7" disabled={rename.isPending || name.trim() === team.name}>
            {rename.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
            {rename.isPending ? 'Saving...' : 'Rename'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function DeleteTeamCard({ team }: { team: TTeamDetail }) {
  const id = useId();
  const remove = useDeleteTeam(team.id);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = (next: boolean) => {
    if (remove.isPending) return;
    setOpen(next);
    if (!next) {
      setTyped('');
      setError(null);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    remove.mutate(typed, {
      onSuccess: () => {
        toast({ title: 'Team deleted', description: `${team.name} and everything in it are gone.` });
        switchWorkspace(null);
      },
      onError: (failure) => {
        if (isUnauthorizedError(failure)) return;
        setError(readApiError(failure, 'The team could not be deleted. Please try again.').message);
      },
    });
  };
  return (
    <Card className="border-destructive/30">
      <CardHeader>
        <CardTitle>Delete team</CardTitle>
        <CardDescription>Deletes the team’s formats, documents, batches, keys and settings for every member. This cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          <Trash2Icon aria-hidden /> Delete team
        </Button>
      </CardContent>
      <Dialog open={open} onOpenChange={close}>
        <DialogContent className="max-w-md">
          <DialogHeader>
            <DialogTitle>Delete {team.name}?</DialogTitle>
            <DialogDescription>
              Everything in the team goes, for all {team.members.length} {team.members.length === 1 ? 'member' : 'members'}. Type the team’s name to confirm.
            </DialogDescription>
          </DialogHeader>
          <form noValidate aria-label="Delete the team" onSubmit={submit} className="grid gap-4">
            <Field id={`${id}-confirm`} label={`Type “${team.name}”`} error={error ?? undefined}>
              <Input
                id={`${id}-confirm`}
                value={typed}
                autoComplete="off"
                onChange={(event) => setTyped(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-confirm-error` : undefined}
              />
            </Field>
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={remove.isPending || typed.trim() !== team.name}>
                {remove.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
                {remove.isPending ? 'Deleting...' : 'Delete team'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

/** Settings → Team: who is in the current team, inviting, roles, leaving; renaming and deleting for owners. */
export function TeamTab({ teamId, user }: { teamId: string; user: TUser }) {
  const detail = useTeamDetail(teamId);
  return (
    <QueryState query={detail} loading={<LoadingText>Loading the team...</LoadingText>} errorText="The team could not be loaded. Please try again.">
      {() => {
        const team = detail.data!;
        const admin = roleAtLeast(team.role, 'admin');
        return (
          <div className="space-y-6">
            <MembersCard team={team} me={user} />
            {admin && <InvitationsCard team={team} />}
            {team.role === 'owner' && (
              <>
                <RenameCard key={team.name} team={team} />
                <DeleteTeamCard team={team} />
              </>
            )}
          </div>
        );
      }}
    </QueryState>
  );
}
