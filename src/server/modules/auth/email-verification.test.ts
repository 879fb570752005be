import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSignUpPending, ZUser } from '../../../contract/user.ts';
import { workspaces } from '../../db/schema.ts';
import { createOfferLetterDocument } from '../../test/offer-letter-document.ts';
import { createTestAppWithMail } from '../../test/mail-test-app.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { errorOf, createTestApp, TEST_ORIGIN, TestClient, logInto, type TTestApp } from '../../test/test-app.ts';

const ROOT = 'root@example.com';
const BOSS = 'boss@example.com';
const RELAY = { user: 'relay-user', password: 'relay-pass' };
const PASSWORD = 'correct horse battery';
const LINK_RE = /\/verify-email\?token=([A-Za-z0-9_-]{43})/;

const setCookiesOf = (response: { headers: Record<string, unknown> }) => {
  const header = response.headers['set-cookie'];
  return Array.isArray(header) ? header : header ? [header] : [];
};

/** A format and a document of it, made by `client`: building and generating need no verified address. */
async function makeDocument(client: TestClient): Promise<string> {
  return (await createOfferLetterDocument(client)).id;
}

describe('verified email, with the installation’s mail server', () => {
  let t: TTestApp;
  let smtp: TSmtpStandIn;
  let root: TestClient;
  let clockOffsetMs = 0;
  const log: string[] = [];
  /** Every token a test read out of an email: none may reach the log. */
  const seenTokens: string[] = [];
  /** Where the log stood once the mail server was set up (before it, the admin's link is logged on purpose). */
  let logFrom = 0;

  /** The messages that reached `to` so far, parsed. */
  async function mailTo(to: string) {
    const found = [];
    for (const message of smtp.messages.filter((m) => m.to.includes(to))) found.push(await smtp.parse(message));
    return found;
  }
  /** Waits for the `count`-th message to `to` and returns it. */
  async function nthMailTo(to: string, count: number) {
    for (let i = 0; i < 400; i++) {
      const found = await mailTo(to);
      if (found.length >= count) return found[count - 1]!;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no message ${count} to ${to}`);
  }
  const tokenIn = (text: string | undefined) => {
    const match = LINK_RE.exec(text ?? '');
    if (!match) throw new Error(`no verification link in: ${text}`);
    seenTokens.push(match[1]!);
    return match[1]!;
  };

  beforeAll(async () => {
    ({
      t,
      smtp,
      admin: root,
    } = await createTestAppWithMail({
      adminEmail: ROOT,
      mail: { ...RELAY, fromAddress: 'accounts@formwork.test' },
      env: { ADMIN_EMAILS: `${ROOT},${BOSS}`, LOG_LEVEL: 'info' },
      background: { signInClock: () => new Date(Date.now() + clockOffsetMs) },
      logStream: logInto(log),
    }));
    logFrom = log.length;
  });
  afterAll(() => t.close());

  it('answers a new address and a taken one alike, signs neither in, and tells the owner of the taken one', async () => {
    const fresh = await new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'Nia', lastName: 'New', email: 'nia@example.com', password: PASSWORD });
    const taken = await new TestClient(t.app).post('/api/auth/sign-up', {
      firstName: 'Ivy',
      lastName: 'Intruder',
      email: ROOT,
      password: 'another password here',
    });
    expect(fresh.statusCode).toBe(202);
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(ZSignUpPending.parse(fresh.json()).message).toMatch(/check your email/i);
    expect(setCookiesOf(fresh)).toEqual([]);
    expect(setCookiesOf(taken)).toEqual([]);

    const verification = await nthMailTo('nia@example.com', 1);
    expect(verification.subject).toMatch(/verify your email/i);
    expect(verification.text).toContain(`${TEST_ORIGIN}/verify-email?token=`);
    const notice = await nthMailTo(ROOT, 1);
    expect(notice.subject).toMatch(/tried to create a Formwork account with your address/);
    expect(notice.text).not.toMatch(LINK_RE);
    // The owner's account is as it was: their password still works, the intruder's does not.
    expect((await new TestClient(t.app).post('/api/auth/sign-in', { email: ROOT, password: PASSWORD })).statusCode).toBe(200);
    expect((await new TestClient(t.app).post('/api/auth/sign-in', { email: ROOT, password: 'another password here' })).statusCode).toBe(401);
  });

  it('lets an unverified account build and generate, but refuses email, share links and API keys with email_unverified', async () => {
    const email = 'una@example.com';
    expect((await new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'Una', lastName: 'Verified', email, password: PASSWORD })).statusCode).toBe(202);
    const client = new TestClient(t.app);
    const me = await client.signIn(email, PASSWORD);
    expect(ZUser.parse(me)).toMatchObject({ emailVerified: false, verificationRequired: true });
    // API keys come with Enterprise: the plan is not what stops this account.
    await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, me.id));
    const documentId = await makeDocument(client);

    const refusals = [
      await client.post(`/api/documents/${documentId}/email`, { to: ['jane@example.com'] }),
      await client.post(`/api/documents/${documentId}/share`, { expiresInDays: 7 }),
      await client.post('/api/user/api-keys', { name: 'CI', mode: 'live' }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(403);
      expect(errorOf(refused).code).toBe('email_unverified');
      expect(errorOf(refused).message).toMatch(/Verify your email address/);
    }
    const emailSettings = (await client.get('/api/user/email-settings')).json() as { ownWords: boolean; ownWordsNote: string | null };
    expect(emailSettings).toMatchObject({ ownWords: false, ownWordsNote: expect.stringMatching(/Verify your email address/) });

    // The link in the first email makes it all work.
    await client.post('/api/auth/verify-email', { token: tokenIn((await nthMailTo(email, 1)).text) });
    expect((await client.get('/api/auth/user')).json() as { emailVerified: boolean; verificationRequired: boolean }).toMatchObject({
      emailVerified: true,
      verificationRequired: false,
    });
    expect((await client.post(`/api/documents/${documentId}/share`, { expiresInDays: 7 })).statusCode).toBe(201);
    expect((await client.post('/api/user/api-keys', { name: 'CI', mode: 'live' })).statusCode).toBe(201);
  });

  it('grants ADMIN_EMAILS only after verification; the link works once, and unknown, used and expired links get one answer', async () => {
    expect((await new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'Bo', lastName: 'Boss', email: BOSS, password: PASSWORD })).statusCode).toBe(
      202,
    );
    const boss = new TestClient(t.app);
    expect((await boss.signIn(BOSS, PASSWORD)).role).toBe('user');
    expect((await boss.get('/api/admin/users')).statusCode).toBe(403);

    const unknown = await new TestClient(t.app).post('/api/auth/verify-email', { token: 'A'.repeat(43) });
    expect(unknown.statusCode).toBe(400);

    const token = tokenIn((await nthMailTo(BOSS, 1)).text);
    const used = await new TestClient(t.app).post('/api/auth/verify-email', { token });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json()).toEqual({ status: 'verified' });
    // The session that was open becomes an admin's at once; nobody was signed in by the link.
    expect(setCookiesOf(used)).toEqual([]);
    expect((await boss.get('/api/admin/users')).statusCode).toBe(200);

    const again = await new TestClient(t.app).post('/api/auth/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe(unknown.body);
    expect(errorOf(again).message).toMatch(/not valid any more/);

    // A link asked for again, then left past its 24 hours.
    const late = 'late@example.com';
    expect((await new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'La', lastName: 'Te', email: late, password: PASSWORD })).statusCode).toBe(202);
    const lateClient = new TestClient(t.app);
    await lateClient.signIn(late, PASSWORD);
    const first = tokenIn((await nthMailTo(late, 1)).text);
    const resent = await lateClient.post('/api/auth/resend-verification');
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'sent' });
    const second = tokenIn((await nthMailTo(late, 2)).text);
    expect(second).not.toBe(first);
    // Only the newest link works.
    expect((await new TestClient(t.app).post('/api/auth/verify-email', { token: first })).body).toBe(unknown.body);
    clockOffsetMs = 24 * 60 * 60_000 + 1_000;
    try {
      const expired = await new TestClient(t.app).post('/api/auth/verify-email', { token: second });
      expect(expired.statusCode).toBe(400);
      expect(expired.body).toBe(unknown.body);
    } finally {
      clockOffsetMs = 0;
    }
    expect(((await lateClient.get('/api/auth/user')).json() as { emailVerified: boolean }).emailVerified).toBe(false);
  });

  it('limits how often a link is asked for again, and says so for a verified address', async () => {
    const email = 'often@example.com';
    expect((await new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'Of', lastName: 'Ten', email, password: PASSWORD })).statusCode).toBe(202);
    const client = new TestClient(t.app);
    await client.signIn(email, PASSWORD);
    for (let i = 0; i < 5; i++) expect((await client.post('/api/auth/resend-verification')).statusCode).toBe(200);
    const refused = await client.post('/api/auth/resend-verification');
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await new TestClient(t.app).post('/api/auth/resend-verification')).statusCode).toBe(401);
    expect((await root.post('/api/auth/resend-verification')).json()).toMatchObject({ status: 'already_verified' });
  });

  it('writes no verification token to the log, with a mail server', async () => {
    expect(seenTokens.length).toBeGreaterThan(3);
    const whole = log.slice(logFrom).join('');
    expect(whole).toContain('/api/auth/verify-email');
    for (const token of seenTokens) expect(whole).not.toContain(token);
    expect(whole).not.toMatch(LINK_RE);
  });

  it('lets an admin mark an address verified, in the audit log', async () => {
    const email = 'vouched@example.com';
    expect((await new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'Vo', lastName: 'Uched', email, password: PASSWORD })).statusCode).toBe(202);
    const client = new TestClient(t.app);
    const me = await client.signIn(email, PASSWORD);
    expect((await client.post(`/api/admin/users/${me.id}/verify-email`)).statusCode).toBe(403);

    const marked = await root.post(`/api/admin/users/${me.id}/verify-email`);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ id: me.id, emailVerified: true });
    const audit = (await root.get('/api/admin/audit?limit=5')).json() as { entries: { action: string; targetId: string; actorEmail: string }[] };
    expect(audit.entries[0]).toMatchObject({ action: 'user.email_verified', targetId: me.id, actorEmail: ROOT });
    expect((await client.post(`/api/documents/${await makeDocument(client)}/share`, { expiresInDays: 7 })).statusCode).toBe(201);
    expect((await root.post('/api/admin/users/no-such-user/verify-email')).statusCode).toBe(404);
  });
});

describe('verified email, with no mail server', () => {
  let t: TTestApp;
  const log: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: BOSS, LOG_LEVEL: 'warn' }, {}, { logStream: logInto(log) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('holds nobody back, and writes the link for an ADMIN_EMAILS address to the log at warn', async () => {
    const someone = new TestClient(t.app);
    const { user } = await someone.signUp({ email: 'someone@example.com' });
    expect(user).toMatchObject({ role: 'user', emailVerified: false, verificationRequired: false });
    expect((await someone.post(`/api/documents/${await makeDocument(someone)}/share`, { expiresInDays: 7 })).statusCode).toBe(201);
    expect(log.join('')).not.toMatch(LINK_RE);

    const boss = new TestClient(t.app);
    expect((await boss.signUp({ email: BOSS })).user.role).toBe('user');
    expect((await boss.get('/api/admin/users')).statusCode).toBe(403);
    const line = log
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .find((l) => LINK_RE.test(l.msg));
    expect(line?.level).toBe(40);
    expect(line?.msg).toContain(BOSS);
    const verified = await new TestClient(t.app).post('/api/auth/verify-email', { token: LINK_RE.exec(line!.msg)![1] });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await boss.get('/api/admin/users')).statusCode).toBe(200);
  });
});
