import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TTeam, TTeamDetail, TTeamInvitation, TTeamInvitationPreview } from '../../../contract/teams';
import type { TTeamRole } from '../../../contract/team-roles';
import { api, requestJson } from '../../lib/api';
import { teamKeys } from '../../lib/query-keys';

const seg = encodeURIComponent;

/** Settings → Team: the members, and the open invitations for admins and owners. */
export function useTeamDetail(teamId: string, enabled = true, { fresh = false }: { fresh?: boolean } = {}) {
  return useQuery({
    queryKey: teamKeys.detail(teamId),
    queryFn: () => api.get<TTeamDetail>(`/api/teams/${seg(teamId)}`),
    enabled,
    // Someone may have joined since it was read (the cache otherwise keeps it): a list naming makers reads it again.
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  });
}

/** A change to a team: its detail and the switcher's list (names, roles, member counts) are read again. */
function useTeamMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.all }) });
}

export function useInvite(teamId: string) {
  return useTeamMutation((body: { email: string; role: TTeamRole }) => api.post<TTeamInvitation>(`/api/teams/${seg(teamId)}/invitations`, body));
}

export function useResendInvitation(teamId: string) {
  return useTeamMutation((invitationId: string) => api.post<TTeamInvitation>(`/api/teams/${seg(teamId)}/invitations/${seg(invitationId)}/resend`));
}

export function useRevokeInvitation(teamId: string) {
  return useTeamMutation((invitationId: string) => api.delete(`/api/teams/${seg(teamId)}/invitations/${seg(invitationId)}`));
}

export function useSetRole(teamId: string) {
  return useTeamMutation(({ userId, role }: { userId: string; role: TTeamRole }) =>
    api.patch<TTeamDetail>(`/api/teams/${seg(teamId)}/members/${seg(userId)}`, { role }),
  );
}

/** Removes a member; removing oneself is leaving. */
export function useRemoveMember(teamId: string) {
  return useTeamMutation((userId: string) => api.delete(`/api/teams/${seg(teamId)}/members/${seg(userId)}`));
}

export function useRenameTeam(teamId: string) {
  return useTeamMutation((name: string) => api.patch<TTeam>(`/api/teams/${seg(teamId)}`, { name }));
}

/** Deleting is confirmed by the team's name, sent as the body (the typed client's delete sends none). */
export function useDeleteTeam(teamId: string) {
  return useTeamMutation((confirm: string) => requestJson<void>('DELETE', `/api/teams/${seg(teamId)}`, { json: { confirm } }));
}

/** An invitation as its link shows it (public: the token is the permission). */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: teamKeys.invitation(token),
    queryFn: () => api.get<TTeamInvitationPreview>(`/api/invitations/${seg(token)}`),
    meta: { skipUnauthorizedHandler: true },
  });
}

export function useAcceptInvitation(token: string) {
  return useTeamMutation(() => api.post<TTeam>(`/api/invitations/${seg(token)}/accept`));
}
