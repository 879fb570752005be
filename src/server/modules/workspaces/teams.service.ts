import { createHash, randomBytes } from 'node:crypto';
import { TEAM_INVITATION_DAYS, type TTeam, type TTeamDetail, type TTeamInvitation, type TTeamInvitationPreview } from '../../../contract/teams.ts';
import { roleAtLeast, TEAM_ROLE_LABELS, type TTeamRole } from '../../../contract/team-roles.ts';
import type { TWebhookEvent } from '../../../contract/webhooks.ts';
import { AppError, forbidden, notFound } from '../../http/app-error.ts';
import { LastOwnerError, type TTeamInvitationRow, type TTeamsRepository } from './teams.repository.ts';

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 24 * 60 * 60_000;
const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const LAST_OWNER = 'A team always keeps at least one owner. Make another member an owner first.';

type TPerson = { id: string; email: string; name: string };

function invitationNotice(link: string, inviter: string, teamName: string, role: TTeamRole): { subject: string; text: string } {
  return {
    subject: `${inviter} invited you to ${teamName} on Formwork`,
    text: [
      'Hello,',
      '',
      `${inviter} invited you to join the team “${teamName}” on Formwork as ${/^[AEIOU]/.test(TEAM_ROLE_LABELS[role]) ? 'an' : 'a'} ${TEAM_ROLE_LABELS[role].toLowerCase()}. The team shares its document formats, documents and plan.`,
      '',
      'Accept the invitation here:',
      '',
      link,
      '',
      `The link works once, for this email address, within ${TEAM_INVITATION_DAYS} days. If you have no Formwork account yet, you can create one from the link.`,
      '',
      'If you do not know why you got this, ignore it: nothing happens until the link is used.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

type TTeamsDeps = {
  teams: TTeamsRepository;
  findUserByEmail: (email: string) => Promise<{ id: string } | undefined>;
  publicUrl: string;
  mailServer: () => Promise<boolean>;
  /** Sends through the installation's mail server; false when it could not. */
  mailTo: (address: string, notice: { subject: string; text: string }) => Promise<boolean>;
  emit: (ownerId: string, event: TWebhookEvent, data: unknown) => Promise<void>;
  now?: () => Date;
};

/** What the team use cases share: the rules' helpers. */
function teamsContext(deps: TTeamsDeps) {
  const now = deps.now ?? (() => new Date());
  const r = deps.teams;

  /** The caller's role in the team: 404 outside it, 403 when it is below `least`. */
  async function requireRole(teamId: string, userId: string, least: TTeamRole): Promise<TTeamRole> {
    const role = await r.roleOf(teamId, userId);
    if (!role) throw notFound('Team');
    if (!roleAtLeast(role, least)) throw forbidden(`Your role in this team (${TEAM_ROLE_LABELS[role].toLowerCase()}) cannot do this. Ask a team ${least}.`);
    return role;
  }

  function toInvitation(row: TTeamInvitationRow, invitedBy: string | null, at: Date): TTeamInvitation {
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      invitedBy: invitedBy ?? 'a former member',
      sentAt: row.sentAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      expired: row.expiresAt <= at,
    };
  }

  async function mailInvitation(email: string, token: string, inviter: TPerson, teamName: string, role: TTeamRole) {
    const link = `${deps.publicUrl}/invite/${token}`;
    if (!(await deps.mailTo(email, invitationNotice(link, inviter.name || inviter.email, teamName, role)))) {
      throw new AppError('unavailable', `The invitation to ${email} is saved, but the mail server did not take the email. Try “Resend” in a moment.`);
    }
  }

  async function assertCanMail() {
    if (!(await deps.mailServer())) {
      throw new AppError('conflict', 'Invitations go by email, and this installation has no mail server. Ask your administrator to set one up.');
    }
  }

  async function teamOf(teamId: string, userId: string): Promise<TTeam> {
    const team = (await r.listFor(userId)).find((t) => t.id === teamId);
    if (!team) throw notFound('Team');
    return { ...team, name: team.name ?? '', createdAt: team.createdAt.toISOString() };
  }

  /** Only an owner gives or takes the owner role. */
  function assertMayGrant(actorRole: TTeamRole, role: TTeamRole) {
    if (role === 'owner' && actorRole !== 'owner') throw forbidden('Only an owner can make someone an owner.');
  }

  const freshToken = () => randomBytes(32).toString('base64url');
  const expiry = (at: Date) => new Date(at.getTime() + TEAM_INVITATION_DAYS * DAY_MS);

  return { deps, now, r, requireRole, toInvitation, mailInvitation, assertCanMail, teamOf, assertMayGrant, freshToken, expiry };
}
type TTeamsContext = ReturnType<typeof teamsContext>;

/** Making a team, its name, its members and their roles. */
function memberUseCases({ deps, r, now, requireRole, toInvitation, teamOf, assertMayGrant }: TTeamsContext) {
  const members = {
    async create(user: TPerson, name: string): Promise<{ id: string; name: string }> {
      return r.create(name, user.id);
    },

    async list(userId: string): Promise<TTeam[]> {
      return (await r.listFor(userId)).map((t) => ({ ...t, name: t.name ?? '', createdAt: t.createdAt.toISOString() }));
    },

    async detail(teamId: string, userId: string): Promise<TTeamDetail> {
      const team = await teamOf(teamId, userId);
      const at = now();
      const [members, invitations] = await Promise.all([r.members(teamId), roleAtLeast(team.role, 'admin') ? r.openInvitations(teamId) : Promise.resolve([])]);
      return {
        ...team,
        members: members.map((m) => ({
          userId: m.userId,
          name: [m.firstName, m.lastName].filter(Boolean).join(' ') || m.name,
          email: m.email,
          role: m.role,
          joinedAt: m.joinedAt.toISOString(),
        })),
        invitations: invitations.map((i) => toInvitation(i.invitation, i.invitedByName || i.invitedByEmail, at)),
      };
    },

    async rename(teamId: string, userId: string, name: string): Promise<TTeam> {
      await requireRole(teamId, userId, 'owner');
      await r.rename(teamId, name);
      return teamOf(teamId, userId);
    },

    async delete(teamId: string, userId: string, confirm: string): Promise<void> {
      const team = await teamOf(teamId, userId);
      await requireRole(teamId, userId, 'owner');
      if (confirm !== team.name) {
        throw new AppError('bad_request', `Type the team’s name, ${team.name}, to delete it.`, { confirm: `Type ${team.name} exactly.` });
      }
      await r.delete(teamId);
    },

    async setRole(teamId: string, actorId: string, userId: string, role: TTeamRole): Promise<TTeamDetail> {
      const actorRole = await requireRole(teamId, actorId, 'admin');
      const current = await r.roleOf(teamId, userId);
      if (!current) throw notFound('Member');
      // Admins manage members, editors and admins; owners are an owner's to change.
      assertMayGrant(actorRole, role);
      if (current === 'owner' && actorRole !== 'owner') throw forbidden('Only an owner can change another owner’s role.');
      try {
        await r.setRole(teamId, userId, role);
      } catch (error) {
        if (error instanceof LastOwnerError) throw new AppError('conflict', LAST_OWNER);
        throw error;
      }
      return members.detail(teamId, actorId);
    },

    async removeMember(teamId: string, actorId: string, userId: string): Promise<void> {
      const leaving = actorId === userId;
      const actorRole = await requireRole(teamId, actorId, leaving ? 'member' : 'admin');
      const current = await r.roleOf(teamId, userId);
      if (!current) throw notFound('Member');
      if (!leaving && current === 'owner' && actorRole !== 'owner') throw forbidden('Only an owner can remove another owner.');
      try {
        if (!(await r.removeMember(teamId, userId))) throw notFound('Member');
      } catch (error) {
        if (error instanceof LastOwnerError) throw new AppError('conflict', leaving ? `You are this team’s only owner. ${LAST_OWNER}` : LAST_OWNER);
        throw error;
      }
      await deps.emit(teamId, 'team.member_removed', { teamId, userId, role: current, left: leaving });
    },
  };
  return members;
}

/** Invitations by email: made, resent, revoked, shown and accepted. */
function invitationUseCases({
  deps,
  r,
  now,
  requireRole,
  toInvitation,
  mailInvitation,
  assertCanMail,
  teamOf,
  assertMayGrant,
  freshToken,
  expiry,
}: TTeamsContext) {
  const invitations = {
    async invite(teamId: string, actor: TPerson, input: { email: string; role: TTeamRole }): Promise<TTeamInvitation> {
      const actorRole = await requireRole(teamId, actor.id, 'admin');
      assertMayGrant(actorRole, input.role);
      await assertCanMail();
      const existing = await deps.findUserByEmail(input.email);
      if (existing && (await r.roleOf(teamId, existing.id))) {
        throw new AppError('conflict', `${input.email} is already in this team.`, { email: 'This person is already in the team.' });
      }
      const team = await teamOf(teamId, actor.id);
      const token = freshToken();
      const at = now();
      const row = await r.invite({
        teamId,
        email: input.email,
        role: input.role,
        tokenHash: digest(token),
        invitedBy: actor.id,
        sentAt: at,
        expiresAt: expiry(at),
      });
      await mailInvitation(input.email, token, actor, team.name, input.role);
      return toInvitation(row, actor.name || actor.email, at);
    },

    async resendInvitation(teamId: string, actor: TPerson, invitationId: string): Promise<TTeamInvitation> {
      await requireRole(teamId, actor.id, 'admin');
      await assertCanMail();
      const team = await teamOf(teamId, actor.id);
      const token = freshToken();
      const at = now();
      const row = await r.renewInvitation(teamId, invitationId, { tokenHash: digest(token), invitedBy: actor.id, sentAt: at, expiresAt: expiry(at) });
      if (!row) throw notFound('Invitation');
      await mailInvitation(row.email, token, actor, team.name, row.role);
      return toInvitation(row, actor.name || actor.email, at);
    },

    async revokeInvitation(teamId: string, userId: string, invitationId: string): Promise<void> {
      await requireRole(teamId, userId, 'admin');
      if (!(await r.revokeInvitation(teamId, invitationId, now()))) throw notFound('Invitation');
    },

    async preview(token: string): Promise<TTeamInvitationPreview | undefined> {
      if (!TOKEN_RE.test(token)) return undefined;
      const found = await r.usableInvitation(digest(token), now());
      if (!found) return undefined;
      return {
        teamName: found.teamName ?? '',
        invitedBy: found.invitedByName || found.invitedByEmail || 'a former member',
        email: found.invitation.email,
        role: found.invitation.role,
        expiresAt: found.invitation.expiresAt.toISOString(),
        hasAccount: (await deps.findUserByEmail(found.invitation.email)) !== undefined,
      };
    },

    async accept(token: string, user: TPerson): Promise<TTeam> {
      const preview = await invitations.preview(token);
      if (!preview) throw notFound('Invitation');
      if (preview.email !== user.email.toLowerCase()) {
        throw forbidden(`This invitation was sent to ${preview.email}, and you are signed in as ${user.email}. Sign in with ${preview.email} to accept it.`);
      }
      const row = await r.accept(digest(token), { id: user.id, email: user.email.toLowerCase() }, now());
      if (!row) throw notFound('Invitation');
      await deps.emit(row.teamId, 'team.member_added', { teamId: row.teamId, userId: user.id, email: user.email, role: row.role });
      return teamOf(row.teamId, user.id);
    },
  };
  return invitations;
}

/**
 * Teams: making one, its members and their roles, and invitations by email. The rules live here:
 * who may do what (roleAtLeast), that a team keeps an owner, that only an owner makes or unmakes
 * owners, and that an invitation works once, for its address, within a week.
 */
export function createTeamsService(deps: TTeamsDeps) {
  const ctx = teamsContext(deps);
  return {
    requireRole: ctx.requireRole,
    /** The person's role in the team, undefined outside it: what every workspace request asks. */
    roleOf: (teamId: string, userId: string) => ctx.r.roleOf(teamId, userId),
    ...memberUseCases(ctx),
    ...invitationUseCases(ctx),
  };
}
export type TTeamsService = ReturnType<typeof createTeamsService>;
