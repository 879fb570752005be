import { z } from 'zod';
import { ZEmailAddress } from './mail.ts';
import { TEAM_ROLES } from './team-roles.ts';

/** Teams: the team header, the roles and their order are in team-roles.ts. */
export const ZTeamRole = z.enum(TEAM_ROLES, { message: 'Choose a role: owner, admin, editor or member.' });

/** How long an invitation link works. */
export const TEAM_INVITATION_DAYS = 7;

export const ZTeamName = z
  .string()
  .trim()
  .min(1, 'Give the team a name.')
  .max(80, 'Keep the team’s name under 80 characters.')
  .refine((name) => !/[\p{Cc}]/u.test(name), { message: 'The team’s name cannot contain line breaks or control characters.' });

/** Making a team, and renaming one. */
export const ZTeamNameBody = z.object({ name: ZTeamName });
/** Deleting a team is confirmed by typing its name. */
export const ZDeleteTeamBody = z.object({ confirm: z.string().trim() });

export const ZCreatedTeam = z.object({ id: z.string(), name: z.string() });

/** A team as one of its members sees it in the switcher. */
export const ZTeam = z.object({
  id: z.string(),
  name: z.string(),
  role: ZTeamRole,
  memberCount: z.number().int(),
  plan: z.string(),
  createdAt: z.string(),
});
export type TTeam = z.infer<typeof ZTeam>;

export const ZTeamMember = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: ZTeamRole,
  joinedAt: z.string(),
});

/** An invitation not yet accepted or revoked (its token is never shown again). */
export const ZTeamInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role: ZTeamRole,
  invitedBy: z.string(),
  sentAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type TTeamInvitation = z.infer<typeof ZTeamInvitation>;

/** Settings → Team: the members, and the open invitations for those who may manage them. */
export const ZTeamDetail = ZTeam.extend({
  members: z.array(ZTeamMember),
  invitations: z.array(ZTeamInvitation),
});
export type TTeamDetail = z.infer<typeof ZTeamDetail>;

export const ZInviteBody = z.object({ email: ZEmailAddress, role: ZTeamRole });
export const ZMemberRoleBody = z.object({ role: ZTeamRole });

/** What the invitation page shows before it is accepted: the token is the permission to see it. */
export const ZTeamInvitationPreview = z.object({
  teamName: z.string(),
  invitedBy: z.string(),
  email: z.string(),
  role: ZTeamRole,
  expiresAt: z.string(),
  /** Whether an account with the invited address exists (then sign in; else sign up). */
  hasAccount: z.boolean(),
});
export type TTeamInvitationPreview = z.infer<typeof ZTeamInvitationPreview>;

export const ZTeamParams = z.object({ id: z.string().min(1).max(100) });
export const ZTeamMemberParams = ZTeamParams.extend({ userId: z.string().min(1).max(100) });
export const ZTeamInvitationParams = ZTeamParams.extend({ invitationId: z.string().min(1).max(100) });
export const ZInvitationTokenParams = z.object({ token: z.string().min(1).max(100) });

/** Copies a format of the current workspace into a team (a new format there, with its own history). */
export const ZCopyFormatToTeamBody = z.object({ teamId: z.string().trim().min(1, 'Choose a team.').max(100) });
