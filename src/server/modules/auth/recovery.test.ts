import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiError } from '../../../contract/errors.ts';
import { FORGOT_PASSWORD_MESSAGE } from '../../../contract/user.ts';
import { accounts, verifications } from '../../db/schema.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { signUpVerified, TestClient, type TTestApp, testPasswordHasher } from '../../test/test-app.ts';
import { RECOVERY_LIMITS } from './sign-in-throttle.ts';
import { createThrottledTestApp } from './test/throttled-test-app.ts';

const ADMIN_EMAIL = 'recovery-admin@example.com';
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a fresh and long passphrase';

let offsetMs = 0;
/** The throttle's clock: moved on an hour instead of waiting for a window to end. */
const clock = () => new Date(Date.now() + offsetMs);
const nextHour = () => void (offsetMs += 61 * 60_000);

let t: TTestApp;
let smtp: TSmtpStandIn;
beforeAll(async () => {
  ({ t, smtp } = await createThrottledTestApp(ADMIN_EMAIL, clock));
});
afterAll(() => t.close());

const ghost = () => `ghost-${randomBytes(6).toString('hex')}@example.com`;
const errorOf = (body: string) => ZApiError.parse(JSON.parse(body)).error;

/**
 * The texts of the mail `address` has received, oldest first, once there are at least `count`;
 * the verification email every new account gets (email-verification.test.ts) is left out.
 */
async function mailsTo(address: string, count: number): Promise<{ subject: string; text: string }[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const parsed = await Promise.all(
      smtp.messages
        .filter((message) => message.to.includes(address))
        .map(async (message) => {
          const mail = await smtp.parse(message);
          return { subject: mail.subject ?? '', text: mail.text ?? '' };
        }),
    );
    const received = parsed.filter((mail) => !mail.subject.startsWith('Verify your email address'));
    if (received.length >= count) return received;
    if (Date.now() > deadline) throw new Error(`${address} received ${received.length} of ${count} emails`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function linkToken(text: string, path: string): string {
  const match = new RegExp(`http://localhost:5000${path}\\?token=(\\S+)`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return decodeURIComponent(match[1]!);
}

async function resetToken(email: string, mailsBefore: number): Promise<string> {
  const asked = await new TestClient(t.app).post('/api/auth/forgot-password', { email });
  expect(asked.statusCode, asked.body).toBe(202);
  const mails = await mailsTo(email, mailsBefore + 1);
  return linkToken(mails[mailsBefore]!.text, '/reset-password');
}

async function signedIn(email: string, password: string): Promise<TestClient> {
  const client = new TestClient(t.app);
  const answer = await client.post('/api/auth/sign-in', { email, password });
  expect(answer.statusCode, answer.body).toBe(200);
  return client;
}

describe('password reset through the installation’s mail server', () => {
  it('mails a link that works once, sets the password and signs out every session', async () => {
    const owner = new TestClient(t.app);
    const { email, user } = await signUpVerified(t, owner, { password: PASSWORD }, smtp);
    const otherDevice = await signedIn(email, PASSWORD);
    expect((await otherDevice.get('/api/user/stats')).statusCode).toBe(200);

    const token = await resetToken(email, 0);
    // 24 characters of 62: more than 128 bits.
    expect(token).toMatch(/^[A-Za-z0-9]{24,}$/);
    // The table keeps a digest of the token, not the token.
    const rows = await t.database.db.select().from(verifications).where(eq(verifications.value, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.identifier).not.toContain(token);

    const reset = await new TestClient(t.app).post('/api/auth/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(reset.statusCode, reset.body).toBe(204);

    // Every session ended, on the memoised path and the direct one alike.
    expect((await otherDevice.get('/api/user/stats')).statusCode).toBe(401);
    expect((await owner.get('/api/auth/user')).statusCode).toBe(401);

    const again = await new TestClient(t.app).post('/api/auth/reset-password', { token, newPassword: 'yet another long passphrase' });
    expect(again.statusCode).toBe(400);
    const unknown = await new TestClient(t.app).post('/api/auth/reset-password', { token: 'A'.repeat(24), newPassword: 'yet another long passphrase' });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(again.body)).toEqual(errorOf(unknown.body));

    expect((await new TestClient(t.app).post('/api/auth/sign-in', { email, password: PASSWORD })).statusCode).toBe(401);
    await signedIn(email, NEW_PASSWORD);
  });

  it('refuses a link after its hour, with the same error as an unknown one', async () => {
    const { email, user } = await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp);
    const token = await resetToken(email, 0);
    await t.database.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.value, user.id));
    const expired = await new TestClient(t.app).post('/api/auth/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(expired.statusCode).toBe(400);
    const unknown = await new TestClient(t.app).post('/api/auth/reset-password', { token: 'B'.repeat(24), newPassword: NEW_PASSWORD });
    expect(errorOf(expired.body)).toEqual(errorOf(unknown.body));
    await signedIn(email, PASSWORD);
  });

  it('answers a known and an unknown address alike: status, body and time', async () => {
    const { email } = await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp);
    const unknown = ghost();
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    const bodies = new Set<string>();
    for (let i = 0; i < 20; i++) {
      // Alternating, so a warming cache or a busy moment weighs on both alike.
      for (const [kind, address] of i % 2
        ? ([
            ['unknown', unknown],
            ['known', email],
          ] as const)
        : ([
            ['known', email],
            ['unknown', unknown],
          ] as const)) {
        const started = performance.now();
        const answer = await new TestClient(t.app).post('/api/auth/forgot-password', { email: address });
        times[kind].push(performance.now() - started);
        expect(answer.statusCode, answer.body).toBe(202);
        bodies.add(answer.body);
      }
      // A new hour each round: the per-address limit would otherwise answer 429 (to both alike).
      nextHour();
    }
    expect([...bodies]).toEqual([JSON.stringify({ message: FORGOT_PASSWORD_MESSAGE })]);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(50);
    // The known address did get its links.
    await mailsTo(email, 20);
    expect(smtp.messages.filter((message) => message.to.includes(unknown))).toHaveLength(0);
  });

  it('limits reset mails per address, known or not, and per network', async () => {
    nextHour();
    const { email } = await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp);
    for (const address of [email, ghost()]) {
      for (let i = 0; i < RECOVERY_LIMITS.resetMailsPerAddressPerHour; i++) {
        expect((await new TestClient(t.app).post('/api/auth/forgot-password', { email: address })).statusCode).toBe(202);
      }
      const refused = await new TestClient(t.app).post('/api/auth/forgot-password', { email: address });
      expect(refused.statusCode).toBe(429);
      expect(errorOf(refused.body).message).toMatch(/^Too many password reset emails were asked for this address\. Try again in \d+ minutes\.$/);
    }
    nextHour();
    const oneNetwork = new TestClient(t.app, '198.19.7.7');
    for (let i = 0; i < RECOVERY_LIMITS.resetRequestsPerNetworkPerHour; i++) {
      expect((await oneNetwork.post('/api/auth/forgot-password', { email: ghost() })).statusCode).toBe(202);
    }
    expect((await oneNetwork.post('/api/auth/forgot-password', { email: ghost() })).statusCode).toBe(429);
    nextHour();
  });

  it('limits the tries at reset tokens per network', async () => {
    nextHour();
    const guesser = new TestClient(t.app, '198.19.8.8');
    for (let i = 0; i < RECOVERY_LIMITS.resetTriesPerNetworkPerHour; i++) {
      expect((await guesser.post('/api/auth/reset-password', { token: randomBytes(18).toString('base64url'), newPassword: NEW_PASSWORD })).statusCode).toBe(
        400,
      );
    }
    expect((await guesser.post('/api/auth/reset-password', { token: randomBytes(18).toString('base64url'), newPassword: NEW_PASSWORD })).statusCode).toBe(429);
    nextHour();
  });
});

describe('passwords', () => {
  it('refuses short and common new passwords with the reason, everywhere one is chosen', async () => {
    const short = await new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'A', lastName: 'B', email: ghost(), password: 'abcdefgh1' });
    expect(short.statusCode).toBe(400);
    expect(errorOf(short.body).fields?.password).toBe('Use at least 10 characters.');

    for (const password of ['1234567890', 'baseball12345', 'Password123!']) {
      const common = await new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'A', lastName: 'B', email: ghost(), password });
      expect(common.statusCode, password).toBe(400);
      expect(errorOf(common.body).fields?.password, password).toMatch(/common|guess/);
    }

    const { email } = await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp);
    const token = await resetToken(email, 0);
    const commonReset = await new TestClient(t.app).post('/api/auth/reset-password', { token, newPassword: 'qwertyuiop' });
    expect(commonReset.statusCode).toBe(400);
    expect(errorOf(commonReset.body).fields?.newPassword).toMatch(/guess/);
    // The refusal did not spend the link.
    expect((await new TestClient(t.app).post('/api/auth/reset-password', { token, newPassword: NEW_PASSWORD })).statusCode).toBe(204);

    const owner = await signedIn(email, NEW_PASSWORD);
    const commonChange = await owner.request('PUT', '/api/user/password', { currentPassword: NEW_PASSWORD, newPassword: 'michelle2024' });
    expect(commonChange.statusCode).toBe(400);
    expect(errorOf(commonChange.body).fields?.newPassword).toMatch(/common/);
    const shortChange = await owner.request('PUT', '/api/user/password', { currentPassword: NEW_PASSWORD, newPassword: 'short' });
    expect(errorOf(shortChange.body).fields?.newPassword).toBe('Use at least 10 characters.');
  });

  it('keeps signing in an account whose password is shorter than today’s minimum', async () => {
    const { email, user } = await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp);
    const hash = await testPasswordHasher().password.hash('old8char');
    await t.database.db.update(accounts).set({ password: hash }).where(eq(accounts.userId, user.id));
    await signedIn(email, 'old8char');
  });

  it('changes the password only with the current one, and signs out the other sessions', async () => {
    nextHour();
    const { email } = await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp);
    const here = await signedIn(email, PASSWORD);
    const elsewhere = await signedIn(email, PASSWORD);

    const wrong = await here.request('PUT', '/api/user/password', { currentPassword: 'not my password', newPassword: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong.body).fields?.currentPassword).toBe('This is not your current password.');
    expect((await elsewhere.get('/api/user/stats')).statusCode).toBe(200);

    const changed = await here.request('PUT', '/api/user/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await here.get('/api/user/stats')).statusCode).toBe(200);
    expect((await elsewhere.get('/api/user/stats')).statusCode).toBe(401);
    expect((await new TestClient(t.app).post('/api/auth/sign-in', { email, password: PASSWORD })).statusCode).toBe(401);
    await signedIn(email, NEW_PASSWORD);
  });

  it('counts wrong current passwords in the sign-in throttle', async () => {
    nextHour();
    const { email } = await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp);
    const here = await signedIn(email, PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await here.request('PUT', '/api/user/password', { currentPassword: `guess ${i}`, newPassword: NEW_PASSWORD })).statusCode);
    }
    // Three free failures from one client, then it waits: the same rule as the sign-in form.
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    nextHour();
  });
});

describe('profile, email and sessions', () => {
  it('edits the first and last name', async () => {
    const client = new TestClient(t.app);
    await signUpVerified(t, client, { password: PASSWORD }, smtp);
    const saved = await client.request('PUT', '/api/user/profile', { firstName: ' Grace ', lastName: 'Hopper' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
    expect((await client.get('/api/auth/user')).json()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
    expect((await client.request('PUT', '/api/user/profile', { firstName: '', lastName: 'Hopper' })).statusCode).toBe(400);
  });

  it('changes the email only when the link sent to the new address is opened, and tells the old one', async () => {
    const owner = new TestClient(t.app);
    const { email } = await signUpVerified(t, owner, { password: PASSWORD }, smtp);
    const newEmail = `moved-${randomBytes(4).toString('hex')}@example.com`;
    const asked = await owner.post('/api/user/email', { newEmail });
    expect(asked.statusCode, asked.body).toBe(202);

    const [link] = await mailsTo(newEmail, 1);
    const token = linkToken(link!.text, '/confirm-email');
    const [notice] = await mailsTo(email, 1);
    expect(notice!.text).toContain(newEmail);
    // Nothing changed yet.
    expect((await owner.get('/api/auth/user')).json()).toMatchObject({ email });

    // Another account cannot use the link.
    const stranger = new TestClient(t.app);
    await signUpVerified(t, stranger, { password: PASSWORD }, smtp);
    const foreign = await stranger.post('/api/user/email/confirm', { token });
    expect(foreign.statusCode).toBe(400);

    const confirmed = await owner.post('/api/user/email/confirm', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ email: newEmail });
    const reused = await owner.post('/api/user/email/confirm', { token });
    expect(reused.statusCode).toBe(400);
    expect(errorOf(reused.body)).toEqual(errorOf(foreign.body));

    await signedIn(newEmail, PASSWORD);
    expect((await new TestClient(t.app).post('/api/auth/sign-in', { email, password: PASSWORD })).statusCode).toBe(401);
  });

  it('sends nothing to an address another account uses, and answers the same', async () => {
    const taken = await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp);
    const owner = new TestClient(t.app);
    const { email } = await signUpVerified(t, owner, { password: PASSWORD }, smtp);
    const toTaken = () => smtp.messages.filter((message) => message.to.includes(taken.email)).length;
    const before = toTaken();
    const asked = await owner.post('/api/user/email', { newEmail: taken.email });
    expect(asked.statusCode).toBe(202);
    await mailsTo(email, 1);
    expect(toTaken()).toBe(before);
    expect((await owner.get('/api/auth/user')).json()).toMatchObject({ email });
  });

  it('lists the sessions without their tokens and signs out everywhere else', async () => {
    const here = new TestClient(t.app, '198.19.9.1');
    const { email } = await signUpVerified(t, here, { password: PASSWORD }, smtp);
    // The address a session records is the one the server saw, whatever a client claims.
    const elsewhere = new TestClient(t.app, '198.19.9.2');
    const signIn = await elsewhere.post('/api/auth/sign-in', { email, password: PASSWORD }, { 'x-formwork-client-ip': '203.0.113.9' });
    expect(signIn.statusCode).toBe(200);
    const listed = await here.get('/api/user/sessions');
    expect(listed.statusCode).toBe(200);
    const { sessions } = listed.json() as { sessions: { current: boolean; id: string; ipAddress: string | null }[] };
    expect(sessions).toHaveLength(2);
    expect(sessions.map((session) => session.ipAddress)).toEqual(['198.19.9.1', '198.19.9.2']);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect(sessions[0]!.current).toBe(true);
    expect(listed.body).not.toMatch(/token/i);

    // The other session's list belongs to it too, and nobody else sees either.
    const stranger = new TestClient(t.app);
    await signUpVerified(t, stranger, { password: PASSWORD }, smtp);
    expect((await stranger.get('/api/user/sessions')).json().sessions).toHaveLength(1);

    expect((await here.post('/api/user/sessions/sign-out-others')).statusCode).toBe(204);
    expect((await elsewhere.get('/api/user/stats')).statusCode).toBe(401);
    expect((await here.get('/api/user/stats')).statusCode).toBe(200);
    expect((await here.get('/api/user/sessions')).json().sessions).toHaveLength(1);
  });
});
