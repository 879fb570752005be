import { useQuery } from '@tanstack/react-query';
import { isPlanId } from '../../contract/plan-catalogue';
import type { TPlanId } from '../../contract/plans';
import { type TTeam } from '../../contract/teams';
import { roleAtLeast, type TTeamRole } from '../../contract/team-roles';
import { api } from '../lib/api';
import { teamKeys } from '../lib/query-keys';
import { useTeamId } from '../lib/workspace';

/** The teams the signed-in person is in, with their role in each (the switcher's list). */
export function useTeams(enabled = true) {
  return useQuery({ queryKey: teamKeys.mine, queryFn: () => api.get<TTeam[]>('/api/teams'), enabled });
}

export type TWorkspace = {
  /** The team's id, or null in the personal workspace. */
  teamId: string | null;
  /** The team as its member sees it; undefined in the personal workspace and while the list loads. */
  team: TTeam | undefined;
  /** The team's plan; undefined in the personal workspace (the person's own is on their user). */
  teamPlan: TPlanId | undefined;
  /** The person's role here: always owner of their own workspace. Undefined while a team's list loads. */
  role: TTeamRole | undefined;
  /** Whether the role is at least `least` (false while it is not known yet). */
  atLeast: (least: TTeamRole) => boolean;
};

/** Where the signed-in person is working, and what their role there lets them do (route-roles.ts on the server). */
export function useWorkspace(): TWorkspace {
  const teamId = useTeamId();
  const teams = useTeams(teamId !== null);
  const team = teamId ? teams.data?.find((t) => t.id === teamId) : undefined;
  const role: TTeamRole | undefined = teamId ? team?.role : 'owner';
  const teamPlan = team ? (isPlanId(team.plan) ? team.plan : 'free') : undefined;
  return { teamId, team, teamPlan, role, atLeast: (least) => role !== undefined && roleAtLeast(role, least) };
}
