import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { ZSignUpBody } from '../../../contract/user.ts';
import type { TDb } from '../../db/client.ts';
import { accounts, auditLog, users } from '../../db/schema.ts';
import { createPasswordHasher } from './password-hasher.ts';

export type TAdminAccountInput = { email: string; password: string; firstName?: string; lastName?: string };

/** A mistake in what the operator typed: the message says what to change. */
export class AdminAccountInputError extends Error {}

/**
 * The operator's input as the account will hold it; an AdminAccountInputError names the flag to
 * change. The script checks it before it opens the database, so a typo is answered at once.
 */
export function parseAdminAccountInput(input: TAdminAccountInput) {
  const parsed = ZSignUpBody.safeParse({
    email: input.email,
    password: input.password,
    firstName: input.firstName?.trim() || 'Admin',
    lastName: input.lastName?.trim() || '-',
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = { email: '--email', password: '--password', firstName: '--first', lastName: '--last' }[String(issue.path[0])] ?? 'input';
    throw new AdminAccountInputError(`${flag}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * What `npm run admin:create` does: makes the account an admin with a verified address and this
 * password, creating it when the address has none. Running it again changes nothing more, so it
 * is safe to repeat (and it is also the way back into an installation whose admin lost the
 * password). It works on the database directly, so it needs no mail server and no running server.
 */
export async function createAdminAccount(db: TDb, input: TAdminAccountInput): Promise<{ userId: string; created: boolean }> {
  const { email, password, firstName, lastName } = parseAdminAccountInput(input);
  const hash = await createPasswordHasher().password.hash(password);
  const now = new Date();
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    const userId = existing?.id ?? randomUUID();
    if (existing) {
      await tx
        .update(users)
        .set({
          role: 'admin',
          emailVerified: true,
          ...(input.firstName?.trim() ? { firstName } : {}),
          ...(input.lastName?.trim() ? { lastName } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, userId));
    } else {
      const shownLast = input.lastName?.trim() ? lastName : null;
      await tx.insert(users).values({
        id: userId,
        email,
        name: [firstName, shownLast].filter(Boolean).join(' '),
        firstName,
        lastName: shownLast,
        emailVerified: true,
        role: 'admin',
        createdAt: now,
        updatedAt: now,
      });
    }
    const [credential] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
      .limit(1);
    if (credential) {
      await tx
        .update(accounts)
        .set({ password: hash, updatedAt: sql`now()` })
        .where(eq(accounts.id, credential.id));
    } else {
      await tx
        .insert(accounts)
        .values({ id: randomUUID(), accountId: userId, providerId: 'credential', userId, password: hash, createdAt: now, updatedAt: now });
    }
    // Whoever can run the command owns the machine, but the other admins still see that it ran.
    await tx.insert(auditLog).values({
      id: randomUUID(),
      actorId: userId,
      actorEmail: email,
      action: 'user.admin-command',
      targetType: 'user',
      targetId: userId,
      details: { email, created: !existing },
    });
    return { userId, created: !existing };
  });
}
