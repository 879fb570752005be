import { describe, expect, it } from 'vitest';
import { groupedStatements, groupedWrites } from './grouped-writes.ts';

/** A write the test finishes by hand, recording the groups it was given. */
function controlledWrite() {
  const groups: { items: number[]; finish: (error?: Error) => void }[] = [];
  const write = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      groups.push({ items, finish: (error) => (error ? reject(error) : resolve(items.map((i) => `stored ${i}`))) });
    });
  return { write, groups };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('groupedWrites', () => {
  it('writes alone at once, then groups what arrived meanwhile, in arrival order', async () => {
    const { write, groups } = controlledWrite();
    const store = groupedWrites(write);
    const first = store(1);
    const rest = [store(2), store(3), store(4)];
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1]]);
    groups[0]!.finish();
    expect(await first).toBe('stored 1');
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 3, 4]]);
    groups[1]!.finish();
    expect(await Promise.all(rest)).toEqual(['stored 2', 'stored 3', 'stored 4']);

    // Idle again: the next write goes at once.
    const later = store(5);
    await settle();
    expect(groups.at(-1)!.items).toEqual([5]);
    groups.at(-1)!.finish();
    expect(await later).toBe('stored 5');
  });

  it('carries at most maxItems a statement', async () => {
    const { write, groups } = controlledWrite();
    const store = groupedWrites(write, 2);
    const all = [1, 2, 3, 4, 5].map((i) => store(i));
    for (let i = 0; i < 3; i++) {
      await settle();
      groups.at(-1)!.finish();
    }
    expect(await Promise.all(all)).toHaveLength(5);
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('fails every item of a failed group, and goes on with the next', async () => {
    const { write, groups } = controlledWrite();
    const store = groupedWrites(write);
    const first = store(1);
    const failing = [store(2), store(3)];
    groups[0]!.finish();
    await first;
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 3]]);
    const after = store(4);
    await settle();
    groups[1]!.finish(new Error('deadlock detected'));
    for (const p of failing) await expect(p).rejects.toThrow('deadlock detected');
    await settle();
    groups[2]!.finish();
    expect(await after).toBe('stored 4');
  });

  it('fails a group whose write answers the wrong number of results', async () => {
    const store = groupedWrites(async (items: number[]) => items.slice(1));
    await expect(store(1)).rejects.toThrow('answered 0 results for 1 items');
  });
});

describe('groupedStatements', () => {
  /** A database error as both drivers report one: a SQLSTATE code on the error. */
  const databaseError = (code: string, message: string) => Object.assign(new Error(message), { code });

  it('tries a group one by one when one item was at fault, so only that item fails', async () => {
    const tried: string[] = [];
    const store = groupedStatements(
      async (item: number) => {
        tried.push(`one ${item}`);
        if (item === 3) throw databaseError('23503', 'no such snapshot');
        return `stored ${item}`;
      },
      async (items: number[]) => {
        tried.push(`many ${items.join(',')}`);
        throw databaseError('23503', 'no such snapshot');
      },
    );
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((i) => store(i)));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      'stored 1',
      'stored 2',
      'no such snapshot',
      'stored 4',
    ]);
    expect(tried).toEqual(['one 1', 'many 2,3,4', 'one 2', 'one 3', 'one 4']);
  });

  it('fails a group as it is when the database itself failed', async () => {
    const tried: string[] = [];
    const store = groupedStatements(
      async (item: number) => {
        tried.push(`one ${item}`);
        return `stored ${item}`;
      },
      async (items: number[]) => {
        tried.push(`many ${items.join(',')}`);
        throw databaseError('57P01', 'terminating connection due to administrator command');
      },
    );
    const outcomes = await Promise.allSettled([1, 2, 3].map((i) => store(i)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(tried).toEqual(['one 1', 'many 2,3']);
  });
});
