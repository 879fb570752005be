import { createWorkspacesRepository } from '../workspaces/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { createTestApp, TestClient, testPasswordHasher, type TTestApp } from '../../test/test-app.ts';
import { createUserAccounts, createUsersRepository } from '../users/index.ts';
import { createAuthRepository } from './auth.repository.ts';
import { createIdentityCheck } from './confirm-identity.ts';
import { createSignInThrottle } from './sign-in-throttle.ts';

/*
 * The identity check before an account is deleted: the password here; the second factor through
 * the app in two-factor.test.ts ("deleting an account with two-factor").
 */

const PASSWORD = 'correct horse battery';
let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function check() {
  const db = t.database.db;
  return createIdentityCheck({
    db,
    users: createUserAccounts(createUsersRepository(db), createWorkspacesRepository(db)),
    hasher: testPasswordHasher(),
    throttle: createSignInThrottle({ counters: createAuthRepository(db), now: () => new Date() }),
  });
}

async function refusal(work: Promise<void>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('confirmIdentity', () => {
  it('takes the right password, and refuses a wrong one naming the field', async () => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp({ password: PASSWORD });
    await expect(check().confirmIdentity(user.id, { password: PASSWORD }, { ip: '198.18.0.1', headers: {} })).resolves.toBeUndefined();
    const wrong = await refusal(check().confirmIdentity(user.id, { password: 'wrong password here' }, { ip: '198.18.0.1', headers: {} }));
    expect(wrong.code).toBe('validation_failed');
    expect(wrong.fields).toEqual({ password: 'This is not your password.' });
  });
});
