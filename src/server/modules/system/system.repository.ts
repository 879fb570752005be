import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { systemSettings } from '../../db/schema.ts';

export function createSystemRepository(db: TDb) {
  return {
    async get(key: string): Promise<string | undefined> {
      const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, key)).limit(1);
      return row?.value;
    },
  };
}
export type TSystemRepository = ReturnType<typeof createSystemRepository>;
