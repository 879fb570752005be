import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { invitations, users } from '../../db/schema.ts';

export type TInvitationRow = typeof invitations.$inferSelect;

const open = () => and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/** Invitations to create an account: installation-wide, so no owner filter (admins manage them). */
export function createInvitationsRepository(db: TDb) {
  return {
    /** Not used and not revoked, oldest first, with the inviting admin's address. */
    async listOpen() {
      return db
        .select({ invitation: invitations, invitedByEmail: users.email })
        .from(invitations)
        .leftJoin(users, eq(users.id, invitations.invitedBy))
        .where(open())
        .orderBy(asc(invitations.sentAt), asc(invitations.id));
    },

    async findOpen(id: string): Promise<TInvitationRow | undefined> {
      const [row] = await db
        .select()
        .from(invitations)
        .where(and(eq(invitations.id, id), open()))
        .limit(1);
      return row;
    },

    async findUsable(tokenHash: string, at: Date): Promise<TInvitationRow | undefined> {
      const [row] = await db
        .select()
        .from(invitations)
        .where(and(eq(invitations.tokenHash, tokenHash), open(), gt(invitations.expiresAt, at)))
        .limit(1);
      return row;
    },

    /** A new invitation; any open one for the same address is revoked in the same transaction (one link per address). */
    async create(values: { email: string; tokenHash: string; invitedBy: string; sentAt: Date; expiresAt: Date }): Promise<TInvitationRow> {
      return db.transaction(async (tx) => {
        await tx
          .update(invitations)
          .set({ revokedAt: values.sentAt })
          .where(and(eq(invitations.email, values.email), open()));
        const [row] = await tx
          .insert(invitations)
          .values({ id: randomUUID(), ...values })
          .returning();
        return row!;
      });
    },

    /** A resend: a new token and a new week; the old link stops working. */
    async renew(id: string, tokenHash: string, sentAt: Date, expiresAt: Date): Promise<TInvitationRow | undefined> {
      const [row] = await db
        .update(invitations)
        .set({ tokenHash, sentAt, expiresAt })
        .where(and(eq(invitations.id, id), open()))
        .returning();
      return row;
    },

    async revoke(id: string, at: Date): Promise<TInvitationRow | undefined> {
      const [row] = await db
        .update(invitations)
        .set({ revokedAt: at })
        .where(and(eq(invitations.id, id), open()))
        .returning();
      return row;
    },

    /** Uses the invitation behind a token for this address, once: one conditional UPDATE, so two sign-ups cannot both take it. */
    async takeByToken(tokenHash: string, email: string, at: Date): Promise<TInvitationRow | undefined> {
      const [row] = await db
        .update(invitations)
        .set({ acceptedAt: at })
        .where(and(eq(invitations.tokenHash, tokenHash), eq(invitations.email, email), open(), gt(invitations.expiresAt, at)))
        .returning();
      return row;
    },

    /** Uses the open, unexpired invitation of an address, if it has one (a sign-up through single sign-on carries no token). */
    async takeByEmail(email: string, at: Date): Promise<TInvitationRow | undefined> {
      const [row] = await db
        .update(invitations)
        .set({ acceptedAt: at })
        .where(and(eq(invitations.email, email), open(), gt(invitations.expiresAt, at)))
        .returning();
      return row;
    },

    /** Gives a taken invitation back, when the account it was taken for could not be made after all. */
    async release(id: string): Promise<void> {
      await db.update(invitations).set({ acceptedAt: null }).where(eq(invitations.id, id));
    },
  };
}
export type TInvitationsRepository = ReturnType<typeof createInvitationsRepository>;
