import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../api-keys/index.ts';
import type { TTestApp } from '../../test/test-app.ts';
import { countingStatements } from '../../test/counting-db.ts';
import { createPublicApiRepository } from './public-api.repository.ts';
import { publicApiTestKit } from './test/public-api-test-kit.ts';

/*
 * The door of the public API groups the key checks that arrive while one runs into one statement
 * (group commit). These call the repository directly, all at once, so every call after the first
 * is checked by a grouped statement, which must number each request in its key's rate window
 * exactly as one statement per request does.
 */

let t: TTestApp;
const { enterpriseMember } = publicApiTestKit((app) => {
  t = app;
});

/** The repository on a handle that counts its statements. */
function countingRepository() {
  const { db, statements } = countingStatements(t.database.db);
  return { repository: createPublicApiRepository(db), statements };
}

describe('grouped key checks', () => {
  it('numbers each request in its key and minute, in arrival order, and counts nothing for an unknown key', async () => {
    const { repository, statements } = countingRepository();
    const a = await enterpriseMember();
    const b = await enterpriseMember();
    const minute = new Date('2026-11-27T10:00:00Z');
    const next = new Date('2026-11-27T10:01:00Z');
    const asks = [
      [a.key, minute],
      [a.key, minute],
      [b.key, minute],
      ['fw_live_no_such_key', minute],
      [a.key, minute],
      [a.key, next],
      [b.key, minute],
    ] as const;
    const admitted = await Promise.all(asks.map(([key, window]) => repository.admit(hashApiKey(key), window)));
    // The first went alone; the six that came while it ran, together.
    expect(statements.count).toBe(2);
    expect(admitted.map((found) => (found ? `${found.ownerId === a.userId ? 'a' : 'b'}${found.used}` : 'unknown'))).toEqual([
      'a1',
      'a2',
      'b1',
      'unknown',
      'a3',
      'a1',
      'b2',
    ]);
    expect(admitted[0]).toMatchObject({ keyId: a.keyId, ownerId: a.userId, mode: 'live', plan: 'enterprise', suspended: false });

    // Alone again, the count goes on from where the group left it.
    expect((await repository.admit(hashApiKey(a.key), minute))?.used).toBe(4);
  });

  it('answers nothing for a revoked key in a group, and counts the others', async () => {
    const { repository } = countingRepository();
    const a = await enterpriseMember();
    const revoked = await enterpriseMember();
    expect((await revoked.client.request('DELETE', `/api/user/api-keys/${revoked.keyId}`)).statusCode).toBe(204);
    const minute = new Date('2026-11-27T11:00:00Z');
    const admitted = await Promise.all([a.key, revoked.key, a.key].map((key) => repository.admit(hashApiKey(key), minute)));
    expect(admitted.map((found) => found?.used)).toEqual([1, undefined, 2]);
  });
});
