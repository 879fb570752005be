import type { TDb } from '../db/client.ts';

/** `db` on a handle that counts its raw statements (`execute`), to show how many some work took. */
export function countingStatements(db: TDb): { db: TDb; statements: { count: number } } {
  const statements = { count: 0 };
  const counting = new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'execute' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        statements.count++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: counting, statements };
}
