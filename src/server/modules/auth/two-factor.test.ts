import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { symmetricDecrypt } from 'better-auth/crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiError } from '../../../contract/errors.ts';
import { ADMIN_TWO_FACTOR_SETTING, ZRecoveryCodes, ZTwoFactorSetup } from '../../../contract/two-factor.ts';
import { ZUser } from '../../../contract/user.ts';
import { auditLog, twoFactors, users } from '../../db/schema.ts';
import { createServices } from '../../services.ts';
import { createTestApp, signUpVerified, TestClient, type TTestApp } from '../../test/test-app.ts';
import { createAuthService } from './auth.service.ts';

const ADMIN_EMAIL = 'two-factor-admin@example.com';
const PASSWORD = 'correct horse battery';

let offsetMs = 0;
/** The throttle's clock: moved past a wait instead of waiting for it. */
const clock = () => new Date(Date.now() + offsetMs);

let t: TTestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: ADMIN_EMAIL, TRUST_PROXY: 'false' }, { signInClock: clock });
  admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: ADMIN_EMAIL });
});
afterAll(async () => {
  await t.close();
});

const errorOf = (body: string) => ZApiError.parse(JSON.parse(body)).error;

/** The raw TOTP secret behind the base32 text an authenticator app is given. */
const rawSecret = (base32Secret: string) => new TextDecoder().decode(base32.decode(base32Secret));
/** The code an authenticator app shows now. */
const codeNow = (base32Secret: string) => createOTP(rawSecret(base32Secret)).totp();
/** A code of the right shape that is not valid now (twenty minutes ahead). */
const wrongCode = (base32Secret: string) => createOTP(rawSecret(base32Secret)).hotp(Math.floor(Date.now() / 30_000) + 40);

/** A verified account with two-factor on, signed in on `client`; answers its secret and recovery codes. */
async function withTwoFactor(client = new TestClient(t.app)) {
  const account = await signUpVerified(t, client);
  const setup = ZTwoFactorSetup.parse((await client.post('/api/user/two-factor/enable', { password: PASSWORD })).json());
  const verified = await client.post('/api/user/two-factor/verify', { code: await codeNow(setup.secret) });
  expect(verified.statusCode, verified.body).toBe(200);
  return { client, email: account.email, userId: account.user.id, secret: setup.secret, recoveryCodes: ZRecoveryCodes.parse(verified.json()).recoveryCodes };
}

/** Signs in with the password on a new client: the answer must be the two-factor challenge. */
async function passwordStep(email: string, client = new TestClient(t.app)) {
  const response = await client.post('/api/auth/sign-in', { email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({ status: 'two_factor_required' });
  return client;
}

describe('setting up two-factor', () => {
  it('asks for the password, shows a QR code and the secret, and turns on only with a right code', async () => {
    const client = new TestClient(t.app);
    const { user } = await signUpVerified(t, client);

    const wrong = await client.post('/api/user/two-factor/enable', { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong.body)).toMatchObject({ code: 'validation_failed', fields: { password: expect.any(String) } });

    const enabled = await client.post('/api/user/two-factor/enable', { password: PASSWORD });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.headers['cache-control']).toBe('no-store');
    const setup = ZTwoFactorSetup.parse(enabled.json());
    expect(setup.totpURI).toMatch(/^otpauth:\/\/totp\/Formwork:/);
    expect(new URL(setup.totpURI).searchParams.get('secret')).toBe(setup.secret);
    expect(setup.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup.qrCode.split(',')[1]!, 'base64').toString('utf8')).toContain('<svg');

    // Not on until the app has proven it has the secret.
    expect(ZUser.parse((await client.get('/api/auth/user')).json()).twoFactorEnabled).toBe(false);
    const mistyped = await client.post('/api/user/two-factor/verify', { code: await wrongCode(setup.secret) });
    expect(mistyped.statusCode).toBe(400);
    expect(errorOf(mistyped.body).fields).toHaveProperty('code');

    const verified = await client.post('/api/user/two-factor/verify', { code: await codeNow(setup.secret) });
    expect(verified.statusCode, verified.body).toBe(200);
    const { recoveryCodes } = ZRecoveryCodes.parse(verified.json());
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // The library gave this browser a new session; it is signed in with it.
    expect(ZUser.parse((await client.get('/api/auth/user')).json()).twoFactorEnabled).toBe(true);

    // At rest, the secret and the codes are ciphertext under the auth secret.
    const [row] = await t.database.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id));
    const raw = rawSecret(setup.secret);
    expect(row!.secret).not.toContain(raw);
    expect(await symmetricDecrypt({ key: t.config.sessionSecret, data: row!.secret })).toBe(raw);
    for (const code of recoveryCodes) expect(row!.backupCodes).not.toContain(code);
    expect(JSON.parse(await symmetricDecrypt({ key: t.config.sessionSecret, data: row!.backupCodes }))).toEqual(recoveryCodes);

    // A second setup over a working one is refused: it would lock the owner out of their app.
    expect((await client.post('/api/user/two-factor/enable', { password: PASSWORD })).statusCode).toBe(409);
  });

  it('turns off and makes new recovery codes only with the password', async () => {
    const { client, email, recoveryCodes } = await withTwoFactor();

    const wrongRegen = await client.post('/api/user/two-factor/recovery-codes', { password: 'not the password' });
    expect(wrongRegen.statusCode).toBe(400);
    expect(errorOf(wrongRegen.body).fields).toHaveProperty('password');
    const regenerated = await client.post('/api/user/two-factor/recovery-codes', { password: PASSWORD });
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    const fresh = ZRecoveryCodes.parse(regenerated.json()).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);

    // An old code no longer works; a new one does.
    const old = await (await passwordStep(email)).post('/api/auth/sign-in/two-factor', { recoveryCode: recoveryCodes[0] });
    expect(old.statusCode).toBe(400);
    expect((await (await passwordStep(email)).post('/api/auth/sign-in/two-factor', { recoveryCode: fresh[0] })).statusCode).toBe(200);

    const wrongOff = await client.post('/api/user/two-factor/disable', { password: 'not the password' });
    expect(wrongOff.statusCode).toBe(400);
    expect(errorOf(wrongOff.body).fields).toHaveProperty('password');
    expect(ZUser.parse((await client.get('/api/auth/user')).json()).twoFactorEnabled).toBe(true);

    const off = await client.post('/api/user/two-factor/disable', { password: PASSWORD });
    expect(off.statusCode, off.body).toBe(204);
    expect(ZUser.parse((await client.get('/api/auth/user')).json()).twoFactorEnabled).toBe(false);
    // The password alone signs in again.
    const signedIn = await new TestClient(t.app).post('/api/auth/sign-in', { email, password: PASSWORD });
    expect(ZUser.parse(signedIn.json()).email).toBe(email);
  });
});

describe('signing in with two-factor', () => {
  it('answers the password with a challenge and no session, then signs in with a code', async () => {
    const { email, secret } = await withTwoFactor();
    const client = new TestClient(t.app);
    const first = await client.post('/api/auth/sign-in', { email, password: PASSWORD });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'two_factor_required', message: expect.any(String) });
    const cookies = ([] as string[]).concat(first.headers['set-cookie'] ?? []);
    expect(cookies.some((c) => /formwork\.two_factor=[^;]+/.test(c))).toBe(true);
    expect(cookies.some((c) => /formwork\.session_token=[^;]+;/.test(c) && !/max-age=0/i.test(c))).toBe(false);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);

    const wrong = await client.post('/api/auth/sign-in/two-factor', { code: await wrongCode(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong.body).fields).toHaveProperty('code');
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);

    const done = await client.post('/api/auth/sign-in/two-factor', { code: await codeNow(secret) });
    expect(done.statusCode, done.body).toBe(200);
    expect(ZUser.parse(done.json())).toMatchObject({ email, twoFactorEnabled: true });
    expect(ZUser.parse((await client.get('/api/auth/user')).json()).email).toBe(email);
  });

  it('takes a recovery code once, and not twice', async () => {
    const { email, recoveryCodes } = await withTwoFactor();
    const code = recoveryCodes[3]!;
    const once = await (await passwordStep(email)).post('/api/auth/sign-in/two-factor', { recoveryCode: code });
    expect(once.statusCode, once.body).toBe(200);
    expect(ZUser.parse(once.json()).email).toBe(email);

    const twice = await (await passwordStep(email)).post('/api/auth/sign-in/two-factor', { recoveryCode: code });
    expect(twice.statusCode).toBe(400);
    expect(errorOf(twice.body)).toMatchObject({ code: 'validation_failed', fields: { recoveryCode: expect.any(String) } });
  });

  it('refuses the code step without a pending sign-in', async () => {
    const response = await new TestClient(t.app).post('/api/auth/sign-in/two-factor', { code: '123456' });
    expect(response.statusCode).toBe(401);
    expect(errorOf(response.body).message).toMatch(/expired/);
    expect((await new TestClient(t.app).post('/api/auth/sign-in/two-factor', {})).statusCode).toBe(400);
  });

  it('counts wrong codes with the sign-in throttle: guesses get the same 429 as passwords', async () => {
    const { email, secret } = await withTwoFactor();
    const client = await passwordStep(email);
    const statuses: number[] = [];
    let refused;
    for (let i = 0; i < 8 && !refused; i++) {
      const response = await client.post('/api/auth/sign-in/two-factor', { code: await wrongCode(secret) });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) refused = response;
    }
    // Three failures are free, as for passwords; then the client waits.
    expect(statuses.slice(0, 3)).toEqual([400, 400, 400]);
    expect(refused, statuses.join(',')).toBeDefined();
    expect(errorOf(refused!.body)).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/^Too many failed sign-in attempts\. Try again in/) });
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    // While it waits, even the right code is not checked, and the password step waits the same.
    expect((await client.post('/api/auth/sign-in/two-factor', { code: await codeNow(secret) })).statusCode).toBe(429);
    const password = await client.post('/api/auth/sign-in', { email, password: PASSWORD });
    expect(password.statusCode).toBe(429);
    expect(errorOf(password.body)).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/^Too many failed sign-in attempts\. Try again in/) });

    // A right password does not clear the record the codes built up: after the wait, one more
    // wrong code earns the next wait at once, not three free tries.
    offsetMs += 20 * 60_000;
    await passwordStep(email, client);
    expect((await client.post('/api/auth/sign-in/two-factor', { code: await wrongCode(secret) })).statusCode).toBe(400);
    expect((await client.post('/api/auth/sign-in/two-factor', { code: await wrongCode(secret) })).statusCode).toBe(429);
    offsetMs += 20 * 60_000;
    const done = await client.post('/api/auth/sign-in/two-factor', { code: await codeNow(secret) });
    expect(done.statusCode, done.body).toBe(200);
  });
});

describe('admins and two-factor', () => {
  it('when the setting is on, admins without two-factor get 403 two_factor_required until they set it up', async () => {
    // The admin turning it on must have it first, or they would be shut out at once.
    const early = await admin.post('/api/admin/settings', { key: ADMIN_TWO_FACTOR_SETTING, value: 'true' });
    expect(early.statusCode).toBe(409);
    expect((await admin.post('/api/admin/settings', { key: ADMIN_TWO_FACTOR_SETTING, value: 'yes' })).statusCode).toBe(400);

    const setup = ZTwoFactorSetup.parse((await admin.post('/api/user/two-factor/enable', { password: PASSWORD })).json());
    expect((await admin.post('/api/user/two-factor/verify', { code: await codeNow(setup.secret) })).statusCode).toBe(200);
    const on = await admin.post('/api/admin/settings', { key: ADMIN_TWO_FACTOR_SETTING, value: 'true' });
    expect(on.statusCode, on.body).toBe(200);

    // Another admin, without two-factor.
    const other = new TestClient(t.app);
    const { user } = await signUpVerified(t, other);
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
    for (const [method, url, body] of [
      ['GET', '/api/admin/access'],
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/settings'],
      ['GET', '/api/admin/audit'],
      ['POST', `/api/admin/users/${user.id}/two-factor/reset`, {}],
    ] as const) {
      const refused = await other.request(method, url, body);
      expect(refused.statusCode, url).toBe(403);
      expect(errorOf(refused.body)).toMatchObject({ code: 'two_factor_required', message: expect.stringMatching(/Settings → Profile/) });
    }
    // Their own account settings still work: that is where they set it up.
    const otherSetup = ZTwoFactorSetup.parse((await other.post('/api/user/two-factor/enable', { password: PASSWORD })).json());
    expect((await other.post('/api/user/two-factor/verify', { code: await codeNow(otherSetup.secret) })).statusCode).toBe(200);
    expect((await other.get('/api/admin/users')).statusCode).toBe(200);
    expect((await other.get('/api/admin/access')).statusCode).toBe(204);

    const off = await admin.post('/api/admin/settings', { key: ADMIN_TWO_FACTOR_SETTING, value: 'false' });
    expect(off.statusCode, off.body).toBe(200);
  });

  it('lets an admin reset a user’s two-factor: password alone signs in after, and the audit log says who', async () => {
    const { email, userId } = await withTwoFactor();
    const listed = (await admin.get('/api/admin/users')).json() as { id: string; twoFactorEnabled: boolean }[];
    expect(listed.find((u) => u.id === userId)?.twoFactorEnabled).toBe(true);

    const stranger = new TestClient(t.app);
    await signUpVerified(t, stranger);
    expect((await stranger.post(`/api/admin/users/${userId}/two-factor/reset`)).statusCode).toBe(403);

    const reset = await admin.post(`/api/admin/users/${userId}/two-factor/reset`);
    expect(reset.statusCode, reset.body).toBe(204);
    const signedIn = await new TestClient(t.app).post('/api/auth/sign-in', { email, password: PASSWORD });
    expect(signedIn.statusCode).toBe(200);
    expect(ZUser.parse(signedIn.json())).toMatchObject({ email, twoFactorEnabled: false });
    expect(await t.database.db.select().from(twoFactors).where(eq(twoFactors.userId, userId))).toHaveLength(0);

    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.two_factor_reset'), eq(auditLog.targetId, userId)));
    expect(entry).toMatchObject({ actorEmail: ADMIN_EMAIL, targetType: 'user', details: { email } });

    expect((await admin.post(`/api/admin/users/${userId}/two-factor/reset`)).statusCode).toBe(409);
    expect((await admin.post('/api/admin/users/no-such-user/two-factor/reset')).statusCode).toBe(404);
  });
});

describe('verifySecondFactor (for steps such as deleting the account)', () => {
  it('takes the current code or a recovery code once, refuses others, and is throttled', async () => {
    const services = createServices({ config: t.config, database: t.database, log: t.app.log, workBulkChunks: false, renderThreads: 1 });
    const auth = createAuthService({
      db: t.database.db,
      config: t.config,
      users: services.userAccounts,
      usersService: services.usersService,
      log: t.app.log,
      clock,
    });
    try {
      const { client, userId, secret, recoveryCodes } = await withTwoFactor();
      const headers = { cookie: client.cookieHeader };
      const check = (code: string | undefined, ip = '203.0.113.7') => auth.twoFactor.verifySecondFactor({ userId, code, ip, headers });

      await expect(check(await codeNow(secret))).resolves.toBeUndefined();
      await expect(check(recoveryCodes[0])).resolves.toBeUndefined();
      await expect(check(recoveryCodes[0])).rejects.toMatchObject({ code: 'validation_failed', fields: { code: expect.any(String) } });
      await expect(check(await wrongCode(secret))).rejects.toMatchObject({ code: 'validation_failed', fields: { code: expect.any(String) } });
      await expect(check(undefined)).rejects.toMatchObject({ code: 'validation_failed' });
      // Another user's session cannot answer for this user.
      const other = new TestClient(t.app);
      await signUpVerified(t, other);
      await expect(
        auth.twoFactor.verifySecondFactor({ userId, code: await codeNow(secret), ip: '203.0.113.8', headers: { cookie: other.cookieHeader } }),
      ).rejects.toMatchObject({
        code: 'unauthorized',
      });
      // The same throttle as sign-in: guesses from one client soon wait.
      let throttled;
      for (let i = 0; i < 8 && !throttled; i++) {
        throttled = await check(await wrongCode(secret), '203.0.113.9').then(
          () => undefined,
          (error: { code?: string }) => (error.code === 'rate_limited' ? error : undefined),
        );
      }
      expect(throttled).toMatchObject({ code: 'rate_limited' });

      // Without two-factor there is nothing to prove.
      const plain = new TestClient(t.app);
      const { user } = await signUpVerified(t, plain);
      await expect(
        auth.twoFactor.verifySecondFactor({ userId: user.id, code: undefined, ip: '203.0.113.10', headers: { cookie: plain.cookieHeader } }),
      ).resolves.toBeUndefined();
    } finally {
      await auth.stop();
      await services.background.stop();
    }
  });
});

describe('deleting an account with two-factor', () => {
  it('asks for the code after the password, refuses a wrong one, and deletes with a right one', async () => {
    const { client, secret } = await withTwoFactor();
    const passwordOnly = await client.request('DELETE', '/api/user', { password: PASSWORD });
    expect(passwordOnly.statusCode).toBe(400);
    expect(errorOf(passwordOnly.body).fields).toHaveProperty('code');
    const wrong = await client.request('DELETE', '/api/user', { password: PASSWORD, code: await wrongCode(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong.body).fields).toHaveProperty('code');
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);

    const deleted = await client.request('DELETE', '/api/user', { password: PASSWORD, code: await codeNow(secret) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
  });
});
