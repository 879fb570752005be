import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { roleAtLeast, TEAM_ROLES, type TTeamRole } from '../../../contract/team-roles.ts';
import type { TDb } from '../../db/client.ts';
import { teamInvitations, teamMembers, users, workspaces } from '../../db/schema.ts';

export type TTeamInvitationRow = typeof teamInvitations.$inferSelect;

const openInvitation = () => and(isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt));

/**
 * An invitation is an admin's grant: it can be taken only while the person who sent it (or last
 * resent it) is still one of the team's admins, so someone removed or demoted cannot come back
 * through an invitation they sent to another address of theirs.
 */
const inviterStillManages = () =>
  sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = ${teamInvitations.teamId} and ${teamMembers.userId} = ${teamInvitations.invitedBy}
    and ${teamMembers.role} in (${sql.join(
      TEAM_ROLES.filter((role) => roleAtLeast(role, 'admin')).map((role) => sql`${role}`),
      sql`, `,
    )}))`;

// Inside a select list drizzle names columns without their table; the outer team is named in full.
const teamId = () => sql.raw('"workspaces"."id"');
const memberCount = () => sql<number>`(select count(*)::int from ${teamMembers} m where m.team_id = ${teamId()})`;

/** Thrown inside a transaction that would leave a team without an owner; nothing is written. */
export class LastOwnerError extends Error {}

/** Teams and their members. */
function memberQueries(db: TDb) {
  /** Owners other than `userId` (the guard every demotion and removal asks inside its transaction). */
  async function otherOwners(tx: Pick<TDb, 'select'>, teamId: string, userId: string): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'owner'), ne(teamMembers.userId, userId)));
    return row?.n ?? 0;
  }

  async function roleIn(tx: Pick<TDb, 'select'>, teamId: string, userId: string): Promise<TTeamRole | undefined> {
    const [row] = await tx
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .limit(1);
    return row?.role;
  }

  return {
    /** A team with its maker as its first owner, in one transaction. */
    async create(name: string, ownerId: string): Promise<{ id: string; name: string }> {
      const id = randomUUID();
      await db.transaction(async (tx) => {
        await tx.insert(workspaces).values({ id, kind: 'team', name });
        await tx.insert(teamMembers).values({ teamId: id, userId: ownerId, role: 'owner' });
      });
      return { id, name };
    },

    /** The person's role in the team, or undefined when they are not in it (or it is no team). */
    roleOf: (teamId: string, userId: string): Promise<TTeamRole | undefined> => roleIn(db, teamId, userId),

    /** The teams a person belongs to, with their role and the team's size and plan, by name. */
    async listFor(userId: string) {
      return db
        .select({
          id: workspaces.id,
          name: workspaces.name,
          role: teamMembers.role,
          plan: workspaces.subscriptionPlan,
          memberCount: memberCount(),
          createdAt: workspaces.createdAt,
        })
        .from(teamMembers)
        .innerJoin(workspaces, eq(workspaces.id, teamMembers.teamId))
        .where(eq(teamMembers.userId, userId))
        .orderBy(asc(sql`lower(${workspaces.name})`), asc(workspaces.id));
    },

    async members(teamId: string) {
      return db
        .select({
          userId: teamMembers.userId,
          firstName: users.firstName,
          lastName: users.lastName,
          name: users.name,
          email: users.email,
          role: teamMembers.role,
          joinedAt: teamMembers.createdAt,
        })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .where(eq(teamMembers.teamId, teamId))
        .orderBy(asc(teamMembers.createdAt), asc(teamMembers.userId));
    },

    async rename(teamId: string, name: string): Promise<void> {
      await db
        .update(workspaces)
        .set({ name, updatedAt: new Date() })
        .where(and(eq(workspaces.id, teamId), eq(workspaces.kind, 'team')));
    },

    /** Deletes the team and, through its foreign keys, everything the team owns. */
    async delete(teamId: string): Promise<void> {
      await db.delete(workspaces).where(and(eq(workspaces.id, teamId), eq(workspaces.kind, 'team')));
    },

    /** Changes a member's role; refuses (LastOwnerError) to demote the last owner. False when they are not a member. */
    async setRole(teamId: string, userId: string, role: TTeamRole): Promise<boolean> {
      return db.transaction(async (tx) => {
        // Lock the team's member rows, so two demotions at once cannot both pass the owner count.
        await tx.execute(sql`select 1 from ${teamMembers} where ${teamMembers.teamId} = ${teamId} for update`);
        if (role !== 'owner' && (await otherOwners(tx, teamId, userId)) === 0 && (await roleIn(tx, teamId, userId)) === 'owner') {
          throw new LastOwnerError();
        }
        const updated = await tx
          .update(teamMembers)
          .set({ role })
          .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
          .returning({ userId: teamMembers.userId });
        return updated.length > 0;
      });
    },

    /** Takes a member out; refuses (LastOwnerError) to remove the last owner. False when they were not a member. */
    async removeMember(teamId: string, userId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${teamMembers} where ${teamMembers.teamId} = ${teamId} for update`);
        if ((await roleIn(tx, teamId, userId)) === 'owner' && (await otherOwners(tx, teamId, userId)) === 0) throw new LastOwnerError();
        const removed = await tx
          .delete(teamMembers)
          .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
          .returning({ userId: teamMembers.userId });
        return removed.length > 0;
      });
    },

    /** The teams in which the person is the only owner and others remain (they must hand over first). */
  };
}

/** Invitations into a team: one open link per address, taken once. */
function invitationQueries(db: TDb) {
  return {
    async openInvitations(teamId: string) {
      return db
        .select({ invitation: teamInvitations, invitedByName: users.name, invitedByEmail: users.email })
        .from(teamInvitations)
        .leftJoin(users, eq(users.id, teamInvitations.invitedBy))
        .where(and(eq(teamInvitations.teamId, teamId), openInvitation()))
        .orderBy(asc(teamInvitations.sentAt), asc(teamInvitations.id));
    },

    /** A new invitation; an open one for the same address in this team is revoked in the same transaction. */
    async invite(values: {
      teamId: string;
      email: string;
      role: TTeamRole;
      tokenHash: string;
      invitedBy: string;
      sentAt: Date;
      expiresAt: Date;
    }): Promise<TTeamInvitationRow> {
      return db.transaction(async (tx) => {
        await tx
          .update(teamInvitations)
          .set({ revokedAt: values.sentAt })
          .where(and(eq(teamInvitations.teamId, values.teamId), eq(teamInvitations.email, values.email), openInvitation()));
        const [row] = await tx
          .insert(teamInvitations)
          .values({ id: randomUUID(), ...values })
          .returning();
        return row!;
      });
    },

    /** A resend: a new token and a new week, sent now in the name of `invitedBy`; the old link stops working. */
    async renewInvitation(
      teamId: string,
      id: string,
      renewal: { tokenHash: string; invitedBy: string; sentAt: Date; expiresAt: Date },
    ): Promise<TTeamInvitationRow | undefined> {
      const [row] = await db
        .update(teamInvitations)
        .set(renewal)
        .where(and(eq(teamInvitations.teamId, teamId), eq(teamInvitations.id, id), openInvitation()))
        .returning();
      return row;
    },

    async revokeInvitation(teamId: string, id: string, at: Date): Promise<TTeamInvitationRow | undefined> {
      const [row] = await db
        .update(teamInvitations)
        .set({ revokedAt: at })
        .where(and(eq(teamInvitations.teamId, teamId), eq(teamInvitations.id, id), openInvitation()))
        .returning();
      return row;
    },

    /** An open, unexpired invitation behind a token, with its team's name and the inviter's. */
    async usableInvitation(tokenHash: string, at: Date) {
      const [row] = await db
        .select({ invitation: teamInvitations, teamName: workspaces.name, invitedByName: users.name, invitedByEmail: users.email })
        .from(teamInvitations)
        .innerJoin(workspaces, eq(workspaces.id, teamInvitations.teamId))
        .leftJoin(users, eq(users.id, teamInvitations.invitedBy))
        .where(and(eq(teamInvitations.tokenHash, tokenHash), openInvitation(), gt(teamInvitations.expiresAt, at), inviterStillManages()))
        .limit(1);
      return row;
    },

    /**
     * Accepts the invitation behind a token for this person, once: the conditional UPDATE takes it,
     * and the membership is added in the same transaction (a member already keeps their role).
     */
    async accept(tokenHash: string, user: { id: string; email: string }, at: Date): Promise<TTeamInvitationRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(teamInvitations)
          .set({ acceptedAt: at, acceptedBy: user.id })
          .where(
            and(
              eq(teamInvitations.tokenHash, tokenHash),
              eq(teamInvitations.email, user.email),
              openInvitation(),
              gt(teamInvitations.expiresAt, at),
              inviterStillManages(),
            ),
          )
          .returning();
        if (!row) return undefined;
        await tx.insert(teamMembers).values({ teamId: row.teamId, userId: user.id, role: row.role }).onConflictDoNothing();
        return row;
      });
    },
  };
}

/**
 * Teams, their members and invitations. Every read names the team and, where a person asks, the
 * person: a team someone does not belong to is indistinguishable from one that does not exist.
 */
export function createTeamsRepository(db: TDb) {
  return { ...memberQueries(db), ...invitationQueries(db) };
}
export type TTeamsRepository = ReturnType<typeof createTeamsRepository>;
