import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';
import { createUsersRepository } from '../users/users.repository.ts';
import { createAuthRepository } from './auth.repository.ts';
import { createIdentityCheck, type TSecondFactorCheck } from './confirm-identity.ts';
import { createPasswordHasher } from './password-hasher.ts';
import { createSignInThrottle } from './sign-in-throttle.ts';

/*
 * The identity check before an account is deleted: the password, then the second factor's hook
 * when one is wired in (two-factor sign-in provides it). The hook is only asked once the password
 * is right, and decides alone whether a code is needed.
 */

const PASSWORD = 'correct horse battery';
let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function check(secondFactor?: TSecondFactorCheck) {
  const db = t.database.db;
  return createIdentityCheck({
    db,
    users: createUsersRepository(db),
    hasher: createPasswordHasher(),
    throttle: createSignInThrottle({ counters: createAuthRepository(db), now: () => new Date() }),
    ...(secondFactor ? { secondFactor } : {}),
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
    await expect(check().confirmIdentity(user.id, { password: PASSWORD }, '198.18.0.1')).resolves.toBeUndefined();
    const wrong = await refusal(check().confirmIdentity(user.id, { password: 'wrong password here' }, '198.18.0.1'));
    expect(wrong.code).toBe('validation_failed');
    expect(wrong.fields).toEqual({ password: 'This is not your password.' });
  });

  it('asks the second factor once the password is right, and refuses a missing or wrong code', async () => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp({ password: PASSWORD });
    const asked: (string | undefined)[] = [];
    const twoFactor = check(async (userId, code) => {
      expect(userId).toBe(user.id);
      asked.push(code);
      return code === '123456';
    });
    await refusal(twoFactor.confirmIdentity(user.id, { password: 'wrong password here', code: '123456' }, '198.18.0.2'));
    expect(asked).toEqual([]);
    const missing = await refusal(twoFactor.confirmIdentity(user.id, { password: PASSWORD }, '198.18.0.2'));
    expect(missing.fields).toEqual({ code: 'Enter the code from your authenticator app.' });
    const wrong = await refusal(twoFactor.confirmIdentity(user.id, { password: PASSWORD, code: '654321' }, '198.18.0.2'));
    expect(wrong.fields).toEqual({ code: 'This code is not right, or it has expired.' });
    await expect(twoFactor.confirmIdentity(user.id, { password: PASSWORD, code: '123456' }, '198.18.0.2')).resolves.toBeUndefined();
    expect(asked).toEqual([undefined, '654321', '123456']);
  });
});
