import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { TTeamRole } from '../../contract/team-roles';
import { and, eq } from 'drizzle-orm';
import { teamInvitations, teamMembers } from '../../server/db/schema';
import { api } from '../lib/api';
import type { TSignedIn, TWebServer } from './render-app';

/** Makes a team as whoever is signed in; returns its id. */
export async function makeTeam(name: string): Promise<string> {
  return (await api.post<{ id: string }>('/api/teams', { name })).id;
}

/** Runs `work` with the window in the team's workspace, as the app would be. */
export async function inTeam<T>(teamId: string, work: () => Promise<T>): Promise<T> {
  window.history.replaceState(null, '', `/?team=${teamId}`);
  try {
    return await work();
  } finally {
    window.history.replaceState(null, '', '/');
  }
}

/** Puts the window's session cookie in this person's name. */
export const signIn = (person: TSignedIn) => api.post('/api/auth/sign-in', { email: person.email, password: person.password });

/**
 * An open team invitation whose link token the test knows. The test server has no mail server, so
 * none is ever mailed: the row is stored as the server stores one (the token's SHA-256), and the
 * token is what the link would carry.
 */
export async function teamInvitation(server: TWebServer, invite: { teamId: string; invitedBy: string; email: string; role: TTeamRole }): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await server.t.database.db.insert(teamInvitations).values({
    id: randomUUID(),
    ...invite,
    tokenHash: createHash('sha256').update(token, 'utf8').digest('hex'),
    sentAt: new Date(now),
    expiresAt: new Date(now + 7 * 24 * 3600_000),
  });
  return token;
}

/** `member` joins the team as `role` through an invitation from `owner`; `member` is left signed in. */
export async function joinTeam(server: TWebServer, teamId: string, owner: TSignedIn, member: TSignedIn, role: TTeamRole = 'member'): Promise<void> {
  const token = await teamInvitation(server, { teamId, invitedBy: owner.user.id, email: member.email, role });
  await signIn(member);
  await api.post(`/api/invitations/${token}/accept`);
}

/** Takes `userId` out of the team behind the app's back, as another owner would from elsewhere. */
export async function removeFromTeam(server: TWebServer, teamId: string, userId: string): Promise<void> {
  await server.t.database.db.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
}
