import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreatedApiKey } from '../../../contract/api-keys.ts';
import type { TAppConfig, TAuditEntry } from '../../../contract/admin.ts';
import { ZApiError } from '../../../contract/errors.ts';
import type { TInvitation } from '../../../contract/sign-ups.ts';
import { auditLog, invitations, sessions, users, workspaces } from '../../db/schema.ts';
import { createTestAppWithMail, NOTICES_ACCOUNT } from '../../test/mail-test-app.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { signUpVerified, TestClient, type TTestApp } from '../../test/test-app.ts';

const ADMIN_EMAIL = 'operator-admin@example.com';
const PASSWORD = 'correct horse battery';

let t: TTestApp;
let smtp: TSmtpStandIn;
let admin: TestClient;
let adminId: string;

beforeAll(async () => {
  ({ t, smtp, admin, adminId } = await createTestAppWithMail({
    adminEmail: ADMIN_EMAIL,
    mail: { ...NOTICES_ACCOUNT, fromAddress: 'accounts@formwork.test', fromName: 'Formwork' },
  }));
});
afterAll(() => t.close());

const address = (domain = 'example.com') => `person-${randomBytes(5).toString('hex')}@${domain}`;
const errorOf = (body: string) => ZApiError.parse(JSON.parse(body)).error;

async function setPolicy(mode: 'open' | 'invitation' | 'sso', allowedDomains: string[] = []) {
  const saved = await admin.request('PUT', '/api/admin/sign-up-policy', { mode, allowedDomains });
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json() as { mode: string; allowedDomains: string[] };
}

/** The mails `to` has received, oldest first, once there are `count` (verification emails left out). */
async function mailsTo(to: string, count: number): Promise<{ subject: string; text: string }[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const parsed = await Promise.all(
      smtp.messages
        .filter((m) => m.to.includes(to))
        .map(async (m) => {
          const mail = await smtp.parse(m);
          return { subject: mail.subject ?? '', text: mail.text ?? '' };
        }),
    );
    const received = parsed.filter((mail) => !mail.subject.startsWith('Verify your email address'));
    if (received.length >= count) return received;
    if (Date.now() > deadline) throw new Error(`${to} received ${received.length} of ${count} emails`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function invitationToken(text: string): string {
  const match = /http:\/\/localhost:5000\/sign-up\?invitation=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no invitation link in: ${text}`);
  return match[1]!;
}

async function invite(email: string): Promise<{ invitation: TInvitation; token: string }> {
  const before = smtp.messages.filter((m) => m.to.includes(email)).length;
  const created = await admin.post('/api/admin/invitations', { email });
  expect(created.statusCode, created.body).toBe(201);
  const mails = await mailsTo(email, before + 1);
  return { invitation: created.json() as TInvitation, token: invitationToken(mails[before]!.text) };
}

const signUp = (email: string, invitation?: string) =>
  new TestClient(t.app).post('/api/auth/sign-up', { firstName: 'Ivy', lastName: 'Invitee', email, password: PASSWORD, ...(invitation ? { invitation } : {}) });

const accountOf = async (email: string) => (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

async function auditOf(action: string, targetId: string): Promise<TAuditEntry[]> {
  const page = (await admin.get('/api/admin/audit?limit=200')).json() as { entries: TAuditEntry[] };
  return page.entries.filter((e) => e.action === action && e.targetId === targetId);
}

const pending = async () => (await admin.get('/api/admin/invitations')).json() as TInvitation[];

describe('sign-ups by invitation only', () => {
  beforeAll(() => setPolicy('invitation'));
  afterAll(() => setPolicy('open'));

  it('refuses a sign-up without an invitation, and tells the page the mode', async () => {
    const email = address();
    const refused = await signUp(email);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused.body).message).toMatch(/invitation only/);
    expect(errorOf(refused.body).fields?.email).toBeTruthy();
    expect(await accountOf(email)).toBeUndefined();
    const config = (await new TestClient(t.app).get('/api/app-config')).json() as TAppConfig;
    expect(config.signUps).toEqual({ mode: 'invitation', singleSignOn: null });
  });

  it('lets an invited address sign up once, with its own link, and lists the invitation until then', async () => {
    const email = address();
    const { invitation, token } = await invite(email);
    expect(invitation).toMatchObject({ email, invitedBy: ADMIN_EMAIL, expired: false });
    expect((await pending()).map((i) => i.id)).toContain(invitation.id);
    const [row] = await t.database.db.select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row!.tokenHash).not.toContain(token);

    // The sign-up page learns the address to fill in; any other token gets the same 400.
    const lookup = await new TestClient(t.app).post('/api/auth/invitation', { token });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ email });
    expect((await new TestClient(t.app).post('/api/auth/invitation', { token: token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) })).statusCode).toBe(400);

    // Another address cannot use it.
    const other = await signUp(address(), token);
    expect(other.statusCode).toBe(400);
    expect(errorOf(other.body).fields?.invitation).toMatch(/not valid/);

    const accepted = await signUp(email, token);
    expect(accepted.statusCode, accepted.body).toBe(202);
    expect(await accountOf(email)).toBeDefined();
    expect((await pending()).map((i) => i.id)).not.toContain(invitation.id);

    const again = await signUp(email, token);
    expect(again.statusCode).toBe(400);
    expect((await new TestClient(t.app).post('/api/auth/invitation', { token })).statusCode).toBe(400);
    expect((await auditOf('invitation.create', invitation.id))[0]?.details).toEqual({ email });
  });

  it('refuses an expired invitation', async () => {
    const email = address();
    const { invitation, token } = await invite(email);
    await t.database.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, invitation.id));
    expect((await pending()).find((i) => i.id === invitation.id)?.expired).toBe(true);
    const refused = await signUp(email, token);
    expect(refused.statusCode).toBe(400);
    expect(await accountOf(email)).toBeUndefined();
  });

  it('refuses a revoked invitation, and a resent one works only with the new link', async () => {
    const revokedEmail = address();
    const revoked = await invite(revokedEmail);
    expect((await admin.request('DELETE', `/api/admin/invitations/${revoked.invitation.id}`)).statusCode).toBe(204);
    expect((await signUp(revokedEmail, revoked.token)).statusCode).toBe(400);
    expect((await pending()).map((i) => i.id)).not.toContain(revoked.invitation.id);
    expect((await auditOf('invitation.revoke', revoked.invitation.id))[0]?.details).toEqual({ email: revokedEmail });

    const email = address();
    const first = await invite(email);
    const resent = await admin.post(`/api/admin/invitations/${first.invitation.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const mails = await mailsTo(email, 2);
    const second = invitationToken(mails[1]!.text);
    expect(second).not.toBe(first.token);
    expect((await signUp(email, first.token)).statusCode).toBe(400);
    expect((await signUp(email, second)).statusCode).toBe(202);
    const audit = await auditOf('invitation.resend', first.invitation.id);
    expect(audit[0]?.details).toEqual({ email });
    expect(JSON.stringify(audit)).not.toContain(second);
  });

  it('does not invite an address that already has an account', async () => {
    const refused = await admin.post('/api/admin/invitations', { email: ADMIN_EMAIL });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused.body).fields?.email).toMatch(/already has an account/);
  });
});

describe('sign-ups limited to domains', () => {
  afterAll(() => setPolicy('open'));

  it('refuses other domains with the email field named, accepts listed ones, and keeps the list off the public config', async () => {
    const saved = await setPolicy('open', ['@Corp.Example', 'corp.example', 'labs.example']);
    expect(saved.allowedDomains).toEqual(['corp.example', 'labs.example']);
    const refused = await signUp(address('example.com'));
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused.body).fields?.email).toMatch(/cannot sign up/);
    expect((await signUp(address('labs.example'))).statusCode).toBe(202);
    const config = await new TestClient(t.app).get('/api/app-config');
    expect(config.body).not.toContain('corp.example');
    // An admin's invitation names the address, so it passes the limit.
    const invited = address('example.com');
    const { token } = await invite(invited);
    expect((await signUp(invited, token)).statusCode).toBe(202);
    const entries = await auditOf('sign-ups.update', 'sign_ups.policy');
    expect(entries.some((e) => JSON.stringify(e.details).includes('labs.example'))).toBe(true);
  });

  it('refuses a domain that is not one', async () => {
    const bad = await admin.request('PUT', '/api/admin/sign-up-policy', { mode: 'open', allowedDomains: ['not a domain'] });
    expect(bad.statusCode).toBe(400);
  });

  it('keeps the raw setting out of the generic editor', async () => {
    const raw = await admin.post('/api/admin/settings', { key: 'sign_ups.policy', value: '{"mode":"open","allowedDomains":[]}' });
    expect(raw.statusCode).toBe(409);
  });
});

describe('single sign-on only without a provider', () => {
  it('cannot be chosen, since nobody could sign up', async () => {
    const refused = await admin.request('PUT', '/api/admin/sign-up-policy', { mode: 'sso', allowedDomains: [] });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused.body).fields?.mode).toMatch(/not set up/);
  });
});

async function enterpriseMember() {
  const client = new TestClient(t.app);
  const { user, email } = await signUpVerified(t, client, { email: address() }, smtp);
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
  const created = await client.post('/api/user/api-keys', { name: 'Server' });
  expect(created.statusCode, created.body).toBe(201);
  const key = ZCreatedApiKey.parse(created.json()).key;
  const callApi = () => t.app.inject({ method: 'GET', url: '/api/v1/documents', headers: { authorization: `Bearer ${key}` } });
  return { client, id: user.id, email, callApi };
}

describe('suspending an account', () => {
  it('refuses its sessions and API keys with 401 at once, ends its sessions, and refuses sign-in while suspended', async () => {
    const member = await enterpriseMember();
    const second = new TestClient(t.app);
    await second.signIn(member.email, PASSWORD);
    expect((await member.callApi()).statusCode).toBe(200);
    expect((await member.client.get('/api/auth/user')).statusCode).toBe(200);

    const suspended = await admin.post(`/api/admin/users/${member.id}/suspend`);
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().suspendedAt).toEqual(expect.any(String));

    expect((await member.client.get('/api/auth/user')).statusCode).toBe(401);
    expect((await second.get('/api/formats')).statusCode).toBe(401);
    const api = await member.callApi();
    expect(api.statusCode).toBe(401);
    expect(errorOf(api.body).message).toMatch(/suspended/);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);

    const signIn = await new TestClient(t.app).post('/api/auth/sign-in', { email: member.email, password: PASSWORD });
    expect(signIn.statusCode).toBe(403);
    expect(errorOf(signIn.body).message).toMatch(/suspended/);
    // A wrong password learns nothing about the suspension.
    const guess = await new TestClient(t.app).post('/api/auth/sign-in', { email: member.email, password: 'not the password at all' });
    expect(guess.statusCode).toBe(401);
    expect(errorOf(guess.body).message).not.toMatch(/suspended/);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    // Nothing was deleted.
    expect((await t.database.db.select().from(workspaces).where(eq(workspaces.id, member.id)))[0]?.subscriptionPlan).toBe('enterprise');

    const restored = await admin.post(`/api/admin/users/${member.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().suspendedAt).toBeNull();
    expect((await member.callApi()).statusCode).toBe(200);
    const back = new TestClient(t.app);
    await back.signIn(member.email, PASSWORD);
    expect((await back.get('/api/auth/user')).statusCode).toBe(200);

    expect((await auditOf('user.suspend', member.id))[0]?.details).toEqual({ email: member.email });
    expect((await auditOf('user.restore', member.id))[0]?.details).toEqual({ email: member.email });
  });

  it('refuses a session of a suspended account where sessions are resolved, even one left in the table', async () => {
    const member = await enterpriseMember();
    const fresh = new TestClient(t.app);
    await fresh.signIn(member.email, PASSWORD);
    // As another process would see it: the flag is set, the session row is still there.
    await t.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, member.id));
    expect((await t.database.db.select().from(sessions).where(eq(sessions.userId, member.id))).length).toBeGreaterThan(0);
    expect((await fresh.get('/api/formats')).statusCode).toBe(401);
    expect((await fresh.get('/api/auth/user')).statusCode).toBe(401);
    await t.database.db.update(users).set({ suspendedAt: null }).where(eq(users.id, member.id));
    expect((await fresh.get('/api/formats')).statusCode).toBe(200);
  });

  it('does not let an admin suspend themself, nor a user suspend anyone', async () => {
    const self = await admin.post(`/api/admin/users/${adminId}/suspend`);
    expect(self.statusCode).toBe(409);
    expect(errorOf(self.body).message).toMatch(/your own account/);
    const member = await enterpriseMember();
    expect((await member.client.post(`/api/admin/users/${adminId}/suspend`)).statusCode).toBe(403);
    expect((await admin.post('/api/admin/users/no-such-user/suspend')).statusCode).toBe(404);
  });
});

describe('signing an account out everywhere', () => {
  it('ends every session of the account and nobody else’s', async () => {
    const member = await enterpriseMember();
    const phone = new TestClient(t.app);
    await phone.signIn(member.email, PASSWORD);
    const done = await admin.post(`/api/admin/users/${member.id}/sign-out`);
    expect(done.statusCode, done.body).toBe(204);
    expect((await member.client.get('/api/auth/user')).statusCode).toBe(401);
    expect((await phone.get('/api/auth/user')).statusCode).toBe(401);
    expect((await admin.get('/api/auth/user')).statusCode).toBe(200);
    // Not a suspension: the owner signs in again.
    await new TestClient(t.app).signIn(member.email, PASSWORD);
    expect((await auditOf('user.sign_out_everywhere', member.id))[0]?.details).toEqual({ email: member.email });
  });
});

describe('sending a password-reset link', () => {
  it('mails the forgot-password email, whose link sets a new password', async () => {
    const member = await enterpriseMember();
    const before = (await mailsTo(member.email, 0)).length;
    const sent = await admin.post(`/api/admin/users/${member.id}/password-reset`);
    expect(sent.statusCode, sent.body).toBe(202);
    const mails = await mailsTo(member.email, before + 1);
    expect(mails[before]!.subject).toBe('Choose a new Formwork password');
    const token = decodeURIComponent(/http:\/\/localhost:5000\/reset-password\?token=(\S+)/.exec(mails[before]!.text)![1]!);
    const reset = await new TestClient(t.app).post('/api/auth/reset-password', { token, newPassword: 'a brand new passphrase' });
    expect(reset.statusCode, reset.body).toBe(204);
    await new TestClient(t.app).signIn(member.email, 'a brand new passphrase');
    const audit = await auditOf('user.password_reset_link', member.id);
    expect(audit[0]?.details).toEqual({ email: member.email });
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.password_reset_link'), eq(auditLog.targetId, member.id)));
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
