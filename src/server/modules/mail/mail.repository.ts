import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { parseDailyLimit, SYSTEM_MAIL_DAILY_LIMIT_SETTING, SYSTEM_MAIL_SETTING } from '../../../contract/mail.ts';
import type { TPlanId } from '../../../contract/plans.ts';
import type { TDb } from '../../db/client.ts';
import { systemMailDays, systemSettings, teamMembers, users, workspaces } from '../../db/schema.ts';

export const ZStoredSystemMail = z.object({
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  user: z.string(),
  passwordEnc: z.string().nullable(),
  fromAddress: z.string(),
  fromName: z.string(),
});
export type TStoredSystemMail = z.infer<typeof ZStoredSystemMail>;

export type TUserMailRow = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  subscriptionPlan: TPlanId;
  enterpriseEmail: string | null;
  enterpriseEmailPasswordEnc: string | null;
  smtpHost: string | null;
  smtpPort: number | null;
  smtpSecure: boolean;
};

/** A user's own mail columns (read and written only for that user), and the installation's server. */
export function createMailRepository(db: TDb) {
  return {
    /**
     * Whose mail a workspace sends, and through which server. A person's own: their name, address
     * and standing. A team's: the team's name, replies to its first owner, and its standing is
     * that of the member who sends (checked when they do).
     */
    async userMail(ownerId: string): Promise<TUserMailRow | undefined> {
      const [row] = await db
        .select({ workspace: workspaces, user: users })
        .from(workspaces)
        .leftJoin(users, eq(users.id, workspaces.personalUserId))
        .where(eq(workspaces.id, ownerId))
        .limit(1);
      if (!row) return undefined;
      const { workspace, user } = row;
      const settings = {
        id: workspace.id,
        subscriptionPlan: workspace.subscriptionPlan,
        enterpriseEmail: workspace.enterpriseEmail,
        enterpriseEmailPasswordEnc: workspace.enterpriseEmailPasswordEnc,
        smtpHost: workspace.smtpHost,
        smtpPort: workspace.smtpPort,
        smtpSecure: workspace.smtpSecure,
      };
      if (user) return { ...settings, email: user.email, firstName: user.firstName, lastName: user.lastName, emailVerified: user.emailVerified };
      const [owner] = await db
        .select({ email: users.email })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .where(and(eq(teamMembers.teamId, ownerId), eq(teamMembers.role, 'owner')))
        .orderBy(asc(teamMembers.createdAt))
        .limit(1);
      if (!owner) return undefined;
      return { ...settings, email: owner.email, firstName: workspace.name, lastName: null, emailVerified: true };
    },

    async saveUserMail(
      userId: string,
      values: { enterpriseEmail: string; enterpriseEmailPasswordEnc?: string; smtpHost: string; smtpPort: number; smtpSecure: boolean },
    ): Promise<void> {
      await db
        .update(workspaces)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(workspaces.id, userId));
    },

    /** The stored server, or undefined when none is set (or the stored value is not one). */
    async systemMail(): Promise<TStoredSystemMail | undefined> {
      const [row] = await db.select({ value: systemSettings.value }).from(systemSettings).where(eq(systemSettings.key, SYSTEM_MAIL_SETTING)).limit(1);
      if (!row) return undefined;
      try {
        return ZStoredSystemMail.parse(JSON.parse(row.value));
      } catch {
        return undefined;
      }
    },

    async saveSystemMail(value: TStoredSystemMail): Promise<void> {
      const json = JSON.stringify(value);
      await db
        .insert(systemSettings)
        .values({ key: SYSTEM_MAIL_SETTING, value: json, description: 'The SMTP server every user’s mail goes through unless they have their own.' })
        .onConflictDoUpdate({ target: systemSettings.key, set: { value: json, updatedAt: new Date() } });
    },

    /** The admin's cap on users' emails a UTC day through the installation's server; null when none is set. */
    async systemDailyLimit(): Promise<number | null> {
      const [row] = await db
        .select({ value: systemSettings.value })
        .from(systemSettings)
        .where(eq(systemSettings.key, SYSTEM_MAIL_DAILY_LIMIT_SETTING))
        .limit(1);
      return row ? parseDailyLimit(row.value) : null;
    },

    /** Recipients users' emails had through the installation's server on `day` (YYYY-MM-DD, UTC). */
    async systemSentOn(day: string): Promise<number> {
      const [row] = await db.select({ recipients: systemMailDays.recipients }).from(systemMailDays).where(eq(systemMailDays.day, day));
      return row?.recipients ?? 0;
    },

    async deleteSystemMail(): Promise<boolean> {
      return (await db.delete(systemSettings).where(eq(systemSettings.key, SYSTEM_MAIL_SETTING)).returning({ key: systemSettings.key })).length > 0;
    },
  };
}
export type TMailRepository = ReturnType<typeof createMailRepository>;
