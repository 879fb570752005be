import { useMutation } from '@tanstack/react-query';
import { CopyIcon, Loader2Icon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { TFormat } from '../../../contract/formats';
import { roleAtLeast, TEAM_ROLE_LABELS } from '../../../contract/team-roles';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { NativeSelect } from '../../components/ui/native-select';
import { toast } from '../../hooks/use-toast';
import { useTeams, useWorkspace } from '../../hooks/use-workspace';
import { api, isUnauthorizedError, readApiError } from '../../lib/api';
import { switchWorkspace } from '../../lib/workspace';

/**
 * "Copy to team" on a format: a new format in a team where the person creates formats (editor or
 * more), with its images; the original and its documents stay where they are. Shown only when
 * there is such a team other than the current workspace.
 */
export function CopyToTeamButton({ format }: { format: Pick<TFormat, 'id' | 'name'> }) {
  const id = useId();
  const { teamId: current } = useWorkspace();
  const teams = (useTeams().data ?? []).filter((team) => team.id !== current && roleAtLeast(team.role, 'editor'));
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string | null>(null);
  const target = teams.find((team) => team.id === chosen) ?? teams[0];
  const copy = useMutation({
    mutationFn: (teamId: string) => api.post<TFormat>(`/api/formats/${encodeURIComponent(format.id)}/copy-to-team`, { teamId }),
    onSuccess: (_copied, teamId) => {
      const name = teams.find((team) => team.id === teamId)?.name ?? 'the team';
      setOpen(false);
      toast({ title: `Copied to ${name}`, description: `“${format.name}” is now one of ${name}’s formats too.` });
      switchWorkspace(teamId, '/formats');
    },
    onError: (failure) => {
      if (isUnauthorizedError(failure)) return;
      setError(readApiError(failure, 'The format could not be copied. Please try again.').message);
    },
  });
  if (teams.length === 0) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (target) copy.mutate(target.id);
  };
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="text-muted-foreground"
        onClick={() => setOpen(true)}
        aria-label={`Copy ${format.name} to a team`}
        title="Copy to team"
      >
        <CopyIcon /> <span className="sr-only sm:not-sr-only">Copy</span>
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (copy.isPending) return;
          setError(null);
          setOpen(next);
        }}
      >
        <DialogContent className="max-w-md">
          <DialogHeader>
            <DialogTitle>Copy “{format.name}” to a team</DialogTitle>
            <DialogDescription>
              The team gets its own copy, with its images, to fill and edit. This format and the documents made from it stay where they are.
            </DialogDescription>
          </DialogHeader>
          <form noValidate aria-label="Copy to a team" onSubmit={submit} className="grid gap-4">
            <Field id={`${id}-team`} label="Team" error={error ?? undefined}>
              <NativeSelect id={`${id}-team`} value={target?.id ?? ''} onChange={(event) => setChosen(event.target.value)}>
                {teams.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name} ({TEAM_ROLE_LABELS[team.role]})
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <DialogFooter>
              <Button variant="outline" onClick={() => setOpen(false)} disabled={copy.isPending}>
                Cancel
              </Button>
              <Button type="submit" disabled={copy.isPending || !target}>
                {copy.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
                {copy.isPending ? 'Copying...' : 'Copy format'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
