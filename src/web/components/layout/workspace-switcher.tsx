import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckIcon, ChevronsUpDownIcon, Loader2Icon, PlusIcon, UserIcon, UsersIcon } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { type TTeam } from '../../../contract/teams';
import { TEAM_ROLE_LABELS } from '../../../contract/team-roles';
import type { TUser } from '../../../contract/user';
import { toast } from '../../hooks/use-toast';
import { useTeams, useWorkspace } from '../../hooks/use-workspace';
import { api, isUnauthorizedError, readApiError } from '../../lib/api';
import { teamKeys } from '../../lib/query-keys';
import { switchWorkspace } from '../../lib/workspace';
import { cn } from '../../lib/utils';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu';
import { Field } from '../ui/field';
import { Input } from '../ui/input';

/** What the personal workspace is called: the person's name. */
export function personalName(user: TUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.email;
}

function CreateTeamDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (teamName: string) => api.post<{ id: string; name: string }>('/api/teams', { name: teamName }),
    onSuccess: async (team) => {
      await client.invalidateQueries({ queryKey: teamKeys.mine });
      onOpenChange(false);
      toast({ title: 'Team created', description: `You are now working in ${team.name}. Invite people from Settings → Team.` });
      switchWorkspace(team.id);
    },
    onError: (failure) => {
      if (isUnauthorizedError(failure)) return;
      const problem = readApiError(failure, 'The team could not be created. Please try again.');
      setError(problem.fields['name'] ?? problem.message);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    create.mutate(name);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (create.isPending) return;
        if (!next) {
          setName('');
          setError(null);
        }
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Create a team</DialogTitle>
          <DialogDescription>A team shares its formats, documents and plan. You will be its owner, and can invite people next.</DialogDescription>
        </DialogHeader>
        <form noValidate aria-label="Create a team" onSubmit={submit} className="grid gap-4">
          <Field id={`${id}-name`} label="Team name" error={error ?? undefined}>
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder="e.g. Acme HR"
              autoComplete="organization"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-name-error` : undefined}
            />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
              {create.isPending ? 'Creating...' : 'Create team'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function WorkspaceItem({ current, onSelect, icon, name, detail }: { current: boolean; onSelect: () => void; icon: ReactNode; name: string; detail: string }) {
  return (
    <DropdownMenuItem onSelect={onSelect} aria-current={current ? 'true' : undefined} className="py-2">
      <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-secondary">{icon}</span>
      <span className="grid min-w-0 flex-1">
        <span className="truncate font-medium">{name}</span>
        <span className="truncate text-xs text-muted-foreground">{detail}</span>
      </span>
      <CheckIcon className={cn('ml-2', !current && 'invisible')} aria-hidden />
    </DropdownMenuItem>
  );
}

const memberCount = (team: TTeam) => `${team.memberCount} ${team.memberCount === 1 ? 'member' : 'members'}`;

/**
 * The top bar's workspace menu: the person's own workspace, each of their teams with their role in
 * it, and making a new team. Choosing one opens its dashboard.
 */
export function WorkspaceSwitcher({ user }: { user: TUser }) {
  const { teamId, team } = useWorkspace();
  const teams = useTeams();
  const [creating, setCreating] = useState(false);
  const currentName = teamId ? (team?.name ?? 'Team') : personalName(user);
  return (
    <>
      {/* Not modal: a modal menu hides the page from assistive technology while its buttons stay focusable. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="sm" className="h-9 max-w-[9.5rem] justify-between gap-1.5 px-2.5 sm:max-w-[16rem]" data-testid="workspace-switcher">
            {teamId ? <UsersIcon aria-hidden /> : <UserIcon aria-hidden />}
            <span className="sr-only">Workspace: </span>
            <span className="min-w-0 truncate">{currentName}</span>
            <ChevronsUpDownIcon className="text-muted-foreground" aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" collisionPadding={8} className="w-72 max-w-[calc(100vw-1rem)]">
          <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">Workspaces</DropdownMenuLabel>
          <WorkspaceItem
            current={teamId === null}
            onSelect={() => teamId !== null && switchWorkspace(null)}
            icon={<UserIcon aria-hidden />}
            name="Personal"
            detail={personalName(user)}
          />
          {teams.data?.map((t) => (
            <WorkspaceItem
              key={t.id}
              current={t.id === teamId}
              onSelect={() => t.id !== teamId && switchWorkspace(t.id)}
              icon={<UsersIcon aria-hidden />}
              name={t.name}
              detail={`${TEAM_ROLE_LABELS[t.role]} · ${memberCount(t)}`}
            />
          ))}
          {teams.isLoading && (
            <p className="px-2 py-1.5 text-xs text-muted-foreground" role="status">
              Loading teams...
            </p>
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <PlusIcon aria-hidden /> Create team…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CreateTeamDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
