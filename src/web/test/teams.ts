import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { TTeamRole } from '../../contract/teams';
import { teamInvitations } from '../../server/db/schema';
import type { TWebServer } from './render-app';

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
