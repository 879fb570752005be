import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { roleAtLeast, TEAM_ROLES } from '../../../contract/team-roles.ts';
import { apiKeys, teamMembers, users, workspaces } from '../../db/schema.ts';

/**
 * A key acts with its maker's standing, read whenever the key is used or listed, never stored: a
 * team's key stops while its maker is suspended or is not one of the team's admins (removed, left,
 * demoted, or their account deleted), since the key was shown to them alone, and works again once
 * they are restored. The statements using these join `workspaces` on the key's owner, `users` on
 * the workspace's person, and `keyMaker` on the key's maker.
 */
export const keyMaker = alias(users, 'maker');

const MANAGING_ROLES = TEAM_ROLES.filter((role) => roleAtLeast(role, 'admin'));

export const keyJoins = sql`join ${workspaces} on ${workspaces.id} = ${apiKeys.ownerId}
  left join ${users} on ${users.id} = ${workspaces.personalUserId}
  left join ${users} ${keyMaker} on ${keyMaker.id} = ${apiKeys.createdBy}`;

export const keySuspended = sql`(${users.suspendedAt} is not null or ${keyMaker.suspendedAt} is not null)`;

export const keyMakerAway = sql`(${workspaces.kind} = 'team' and not exists (
  select 1 from ${teamMembers} where ${teamMembers.teamId} = ${apiKeys.ownerId} and ${teamMembers.userId} = ${apiKeys.createdBy}
    and ${teamMembers.role} in (${sql.join(
      MANAGING_ROLES.map((role) => sql`${role}`),
      sql`, `,
    )})))`;
