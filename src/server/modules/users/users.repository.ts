import { count, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { documents, formats, users } from '../../db/schema.ts';

export type TUserRow = typeof users.$inferSelect;

export function createUsersRepository(db: TDb) {
  return {
    async findById(id: string): Promise<TUserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async findByEmail(email: string): Promise<TUserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row;
    },

    async setName(id: string, firstName: string, lastName: string): Promise<void> {
      await db
        .update(users)
        .set({ firstName, lastName, name: `${firstName} ${lastName}`, updatedAt: new Date() })
        .where(eq(users.id, id));
    },

    async setRole(id: string, role: 'user' | 'admin'): Promise<void> {
      await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
    },

    async countFormats(ownerId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(formats).where(eq(formats.ownerId, ownerId));
      return row?.n ?? 0;
    },

    async countDocuments(ownerId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(documents).where(eq(documents.ownerId, ownerId));
      return row?.n ?? 0;
    },
  };
}
export type TUsersRepository = ReturnType<typeof createUsersRepository>;
