import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEmailSettings, ZSystemMailSettings, type TEmailSettings } from '../../../contract/mail.ts';
import { systemSettings, workspaces } from '../../db/schema.ts';
import { startSmtpStandIn, type TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { errorOf, createTestApp, TestClient, logInto, type TTestApp, signUpVerified } from '../../test/test-app.ts';
import { isAllowedAddress } from '../../net/address-rule.ts';
import { createMailer } from './mail-transport.ts';

/*
 * Outgoing mail against real SMTP servers on loopback: STARTTLS with a certificate made here and
 * trusted as the only authority, AUTH that only works after TLS, and the servers' own answers.
 */

const PASSWORD = 'correct-smtp-password';
let t: TTestApp;
let smtp: TSmtpStandIn;
let plainSmtp: TSmtpStandIn;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpStandIn({ accounts: { 'sales@acme.test': PASSWORD, 'relay-user': 'relay-pass' } });
  plainSmtp = await startSmtpStandIn({ tls: false });
  // Loopback is allowed only because the operator's list says so, as an intranet mail server would be.
  t = await createTestApp(
    { ADMIN_EMAILS: 'root@example.com', IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1', LOG_LEVEL: 'warn' },
    { mailTrustedCa: [smtp.ca] },
    { logStream: logInto(logLines) },
  );
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await plainSmtp.close();
});

const put = (client: TestClient, url: string, body: unknown) => client.request('PUT', url, body);
/** Saves `server` as the user's own mail server, signing in as sales@acme.test. */
const saveOwnServer = (client: TestClient, server: TSmtpStandIn, password = PASSWORD) =>
  put(client, '/api/user/email-settings', {
    enterpriseEmail: 'sales@acme.test',
    enterpriseEmailPassword: password,
    smtpHost: server.host,
    smtpPort: server.port,
  });

async function enterpriseUser() {
  const client = new TestClient(t.app);
  const { user, email } = await signUpVerified(t, client, {}, smtp);
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
  return { client, id: user.id, email };
}

describe('a user’s own mail server (Settings → Email)', () => {
  it('starts unset with the plan’s send rate, and is for plans with API access only', async () => {
    const client = new TestClient(t.app);
    await signUpVerified(t, client, {}, smtp);
    const settings = ZEmailSettings.parse((await client.get('/api/user/email-settings')).json());
    expect(settings).toEqual<TEmailSettings>({
      enterpriseEmail: null,
      smtpHost: null,
      smtpPort: 587,
      smtpSecure: true,
      passwordSet: false,
      ownServerAllowed: false,
      sendsWith: 'none',
      emailsPerHour: 20,
      ownWords: false,
      ownWordsNote:
        'On the Free plan, emails sent through this installation’s mail server use a standard subject and message that name the document and you. Upgrade your plan to write your own.',
      senderName: 'Ada Lovelace',
    });
    const refused = await put(client, '/api/user/email-settings', {
      enterpriseEmail: 'me@acme.test',
      enterpriseEmailPassword: 'x',
      smtpHost: 'smtp.acme.test',
    });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('plan_limit');
    expect((await new TestClient(t.app).get('/api/user/email-settings')).statusCode).toBe(401);
  });

  it('saves the fields, seals the password, never sends it back, and keeps it when left empty', async () => {
    const { client, id } = await enterpriseUser();
    const saved = await put(client, '/api/user/email-settings', {
      enterpriseEmail: 'Sales@Acme.test',
      enterpriseEmailPassword: PASSWORD,
      smtpHost: smtp.host,
      smtpPort: smtp.port,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(PASSWORD);
    expect(ZEmailSettings.parse(saved.json())).toMatchObject({
      enterpriseEmail: 'sales@acme.test',
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpSecure: true,
      passwordSet: true,
      ownServerAllowed: true,
      sendsWith: 'own',
      emailsPerHour: 5000,
    });
    const [row] = await t.database.db.select().from(workspaces).where(eq(workspaces.id, id));
    expect(row!.enterpriseEmailPasswordEnc).toMatch(/^v1\./);
    expect(row!.enterpriseEmailPasswordEnc).not.toContain(PASSWORD);

    const again = await put(client, '/api/user/email-settings', {
      enterpriseEmail: 'sales@acme.test',
      smtpHost: smtp.host,
      smtpPort: smtp.port,
      smtpSecure: true,
    });
    expect(again.statusCode).toBe(200);
    const [after] = await t.database.db.select().from(workspaces).where(eq(workspaces.id, id));
    expect(after!.enterpriseEmailPasswordEnc).toBe(row!.enterpriseEmailPasswordEnc);
  });

  it('refuses bad fields with their own messages', async () => {
    const { client } = await enterpriseUser();
    const bad = await put(client, '/api/user/email-settings', { enterpriseEmail: 'not an address', smtpHost: 'https://smtp.acme.test', smtpPort: 70000 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad).fields ?? {}).sort()).toEqual(['enterpriseEmail', 'smtpHost', 'smtpPort']);
    const noPassword = await put(client, '/api/user/email-settings', { enterpriseEmail: 'me@acme.test', smtpHost: 'smtp.acme.test' });
    expect(noPassword.statusCode).toBe(400);
    expect(errorOf(noPassword).fields).toEqual({ enterpriseEmailPassword: 'Enter the password.' });
  });

  it('refuses a server at a private, local or metadata address when it is saved, in any spelling', async () => {
    const { client } = await enterpriseUser();
    for (const smtpHost of ['127.0.0.2', '10.0.0.5', '169.254.169.254', '::1', '[::ffff:10.0.0.5]', '::ffff:7f00:2', '::7f00:2', '64:ff9b::a9fe:a9fe']) {
      const refused = await put(client, '/api/user/email-settings', { enterpriseEmail: 'me@acme.test', enterpriseEmailPassword: 'x', smtpHost, smtpPort: 587 });
      expect(refused.statusCode, smtpHost).toBe(400);
      expect(errorOf(refused).fields, smtpHost).toEqual({
        smtpHost: 'This mail server’s address is not allowed: it points to a private or local network. Give a server on the public internet.',
      });
    }
    const unknown = await put(client, '/api/user/email-settings', {
      enterpriseEmail: 'me@acme.test',
      enterpriseEmailPassword: 'x',
      smtpHost: 'smtp.no-such-host.invalid',
    });
    expect(errorOf(unknown).fields).toEqual({ smtpHost: 'smtp.no-such-host.invalid could not be found. Check the spelling.' });
    expect(ZEmailSettings.parse((await client.get('/api/user/email-settings')).json()).smtpHost).toBeNull();
  });

  it('sends a test email over STARTTLS with AUTH to the account’s own address', async () => {
    const { client, email } = await enterpriseUser();
    await saveOwnServer(client, smtp);
    const before = smtp.messages.length;
    const sent = await client.post('/api/user/email-settings/test', {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ to: email, response: expect.stringMatching(/^250/) });
    await smtp.waitFor(before + 1);
    const message = smtp.messages[before]!;
    expect(message).toMatchObject({ to: [email], user: 'sales@acme.test', secure: true, from: 'sales@acme.test' });
    const parsed = await smtp.parse(message);
    expect(parsed.subject).toBe('Formwork test email');
    expect(parsed.from).toMatchObject({ address: 'sales@acme.test', name: 'Ada Lovelace' });
  });

  it('shows the server’s own answer to a wrong password, in the answer and in the log, never the password', async () => {
    const { client, id } = await enterpriseUser();
    const wrong = 'Wrong-Password-123';
    await saveOwnServer(client, smtp, wrong);
    const failed = await client.post('/api/user/email-settings/test', {});
    expect(failed.statusCode).toBe(422);
    expect(errorOf(failed).message).toBe(`The mail server ${smtp.host} refused the user name or password: 535 5.7.8 Authentication credentials invalid`);
    const logged = logLines.filter((line) => line.includes(id));
    expect(logged.join('')).toContain('refused the user name or password');
    expect(logged.join('')).toContain('535 5.7.8');
    const everything = logLines.join('');
    expect(everything).not.toContain(wrong);
    expect(everything).not.toContain(Buffer.from(`\0sales@acme.test\0${wrong}`).toString('base64'));
    expect(everything).not.toContain(Buffer.from(wrong).toString('base64'));
  });

  it('will not sign in where the server offers no encryption while “secure” is on', async () => {
    const { client } = await enterpriseUser();
    await saveOwnServer(client, plainSmtp);
    const before = plainSmtp.messages.length;
    const failed = await client.post('/api/user/email-settings/test', {});
    expect(failed.statusCode).toBe(422);
    expect(errorOf(failed).message).toMatch(/could not start an encrypted connection/);
    expect(plainSmtp.messages.length).toBe(before);
  });

  it('says to save first, and limits test emails', async () => {
    const { client } = await enterpriseUser();
    const unsaved = await client.post('/api/user/email-settings/test', {});
    expect(unsaved.statusCode).toBe(409);
    expect(errorOf(unsaved).message).toBe('Save your mail server settings first, then send a test email.');
    await saveOwnServer(client, smtp);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.post('/api/user/email-settings/test', {})).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('the installation’s mail server (Admin Panel → Settings)', () => {
  let admin: TestClient;
  beforeAll(async () => {
    admin = new TestClient(t.app);
    await signUpVerified(t, admin, { email: 'root@example.com' });
  });

  it('is for admins, saves a sealed password, hides it from the raw settings, and sends a test email', async () => {
    const user = new TestClient(t.app);
    await signUpVerified(t, user, {}, smtp);
    expect((await user.get('/api/admin/mail-settings')).statusCode).toBe(403);
    expect(ZSystemMailSettings.parse((await admin.get('/api/admin/mail-settings')).json())).toMatchObject({ configured: false, port: 587, secure: true });

    const saved = await put(admin, '/api/admin/mail-settings', {
      host: smtp.host,
      port: smtp.port,
      user: 'relay-user',
      password: 'relay-pass',
      fromAddress: 'documents@formwork.test',
      fromName: 'Formwork',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain('relay-pass');
    expect(saved.json()).toMatchObject({ configured: true, user: 'relay-user', passwordSet: true, fromAddress: 'documents@formwork.test' });
    const [stored] = await t.database.db.select().from(systemSettings).where(eq(systemSettings.key, 'mail.smtp'));
    expect(stored!.value).not.toContain('relay-pass');
    // Who changed the installation's mail server is in the audit log, the password only as "replaced".
    const audit = (await admin.get('/api/admin/audit')).json() as { entries: { action: string; details: Record<string, unknown> }[] };
    expect(audit.entries[0]).toMatchObject({ action: 'mail.update', details: { host: smtp.host, user: 'relay-user', password: 'replaced' } });
    expect(JSON.stringify(audit)).not.toContain('relay-pass');

    const listed = (await admin.get('/api/admin/settings')).json() as { key: string }[];
    expect(listed.map((s) => s.key)).not.toContain('mail.smtp');
    const raw = await put(admin, '/api/admin/settings/mail.smtp', { value: '{}' });
    expect(raw.statusCode).toBe(409);

    const before = smtp.messages.length;
    const tested = await admin.post('/api/admin/mail-settings/test', { to: 'ops@formwork.test' });
    expect(tested.statusCode, tested.body).toBe(200);
    await smtp.waitFor(before + 1);
    expect(smtp.messages[before]).toMatchObject({ to: ['ops@formwork.test'], user: 'relay-user', secure: true, from: 'documents@formwork.test' });

    // Everyone without a server of their own now sends through it.
    expect(((await user.get('/api/user/email-settings')).json() as TEmailSettings).sendsWith).toBe('system');
  });

  it('needs the password again for another user name', async () => {
    const changed = await put(admin, '/api/admin/mail-settings', {
      host: smtp.host,
      port: smtp.port,
      user: 'someone-else',
      fromAddress: 'documents@formwork.test',
    });
    expect(changed.statusCode).toBe(400);
    expect(errorOf(changed).fields).toEqual({ password: 'Enter the password.' });
  });
});

describe('the address filter for users’ own servers', () => {
  it('refuses private, local and metadata addresses unless the operator lists them', () => {
    for (const address of ['127.0.0.1', '10.0.0.5', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1', '0.0.0.0', '::ffff:127.0.0.1']) {
      expect(isAllowedAddress(address, []), address).toBe(false);
    }
    expect(isAllowedAddress('93.184.216.34', [])).toBe(true);
    expect(isAllowedAddress('10.0.0.5', ['10.0.0.0/8'])).toBe(true);
    expect(isAllowedAddress('127.0.0.1', ['127.0.0.1'])).toBe(true);
  });

  it('never connects to a refused address, and says so without naming what it resolved to', async () => {
    const mailer = createMailer({ allowIps: [], clientName: 'formwork.test' });
    const before = smtp.messages.length;
    const outcome = await mailer.send(
      { host: 'localhost', port: smtp.port, secure: true, user: 'sales@acme.test', password: PASSWORD },
      { from: 'sales@acme.test', to: 'x@example.com', subject: 's', text: 't' },
      { checkAddress: true },
    );
    expect(outcome).toEqual({
      ok: false,
      temporary: false,
      response: null,
      message: 'This mail server’s address is not allowed: it points to a private or local network.',
    });
    expect(smtp.messages.length).toBe(before);
  });
});
