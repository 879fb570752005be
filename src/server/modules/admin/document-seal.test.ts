import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSealSettings, type TAuditEntry } from '../../../contract/admin.ts';
import { createTestApp, errorOf, TestClient, type TTestApp, signUpVerified } from '../../test/test-app.ts';

let t: TTestApp;
let admin: TestClient;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'root@example.com' });
  admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: 'root@example.com' });
  dir = mkdtempSync(path.join(tmpdir(), 'formwork-admin-seal-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

/** A self-signed RSA seal certificate in a PKCS #12 file, base64, as the Settings page sends it. */
function p12(password: string): string {
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '30', '-subj', '/CN=Acme seal/O=Acme'],
    {
      cwd: dir,
      stdio: 'pipe',
    },
  );
  execFileSync('openssl', ['pkcs12', '-export', '-inkey', 'k.pem', '-in', 'c.pem', '-out', 's.p12', '-passout', `pass:${password}`], {
    cwd: dir,
    stdio: 'pipe',
  });
  return readFileSync(path.join(dir, 's.p12')).toString('base64');
}

const put = (client: TestClient, url: string, body: unknown) => client.request('PUT', url, body);

describe('the document seal settings', () => {
  it('are for admins only', async () => {
    const user = new TestClient(t.app);
    await user.signUp();
    for (const [method, url, body] of [
      ['GET', '/api/admin/seal'],
      ['PUT', '/api/admin/seal/timestamp-url', { timestampUrl: null }],
      ['POST', '/api/admin/seal/certificate', { file: 'AAAA', password: '' }],
    ] as const) {
      expect((await new TestClient(t.app).request(method, url, body)).statusCode).toBe(401);
      expect((await user.request(method, url, body)).statusCode).toBe(403);
    }
  });

  it('set, check and clear the timestamp server, which is not a raw setting', async () => {
    const bad = await put(admin, '/api/admin/seal/timestamp-url', { timestampUrl: 'ftp://tsa.example' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toMatch(/http\(s\) address/);

    const saved = await put(admin, '/api/admin/seal/timestamp-url', { timestampUrl: ' http://tsa.example.test/tsr ' });
    expect(ZSealSettings.parse(saved.json())).toEqual({ certificate: null, timestampUrl: 'http://tsa.example.test/tsr' });
    expect(ZSealSettings.parse((await admin.get('/api/admin/seal')).json()).timestampUrl).toBe('http://tsa.example.test/tsr');

    const raw = await put(admin, '/api/admin/settings/signing.timestamp_url', { value: 'http://other.example' });
    expect(raw.statusCode).toBe(409);

    const cleared = await put(admin, '/api/admin/seal/timestamp-url', { timestampUrl: '' });
    expect(ZSealSettings.parse(cleared.json()).timestampUrl).toBeNull();
    const audit = (await admin.get('/api/admin/audit')).json() as { entries: TAuditEntry[] };
    expect(audit.entries.filter((e) => e.action === 'seal.timestamp_url').map((e) => e.details)).toEqual([
      { from: 'http://tsa.example.test/tsr', to: null },
      { from: null, to: 'http://tsa.example.test/tsr' },
    ]);
  });

  it('take an uploaded .p12, refusing a wrong password in words, and show the seal in use', async () => {
    const file = p12('s3cret');
    const wrong = await admin.post('/api/admin/seal/certificate', { file, password: 'guess' });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toMatchObject({ code: 'validation_failed', message: 'The password does not open this file.' });

    const done = await admin.post('/api/admin/seal/certificate', { file, password: 's3cret' });
    expect(done.statusCode).toBe(200);
    const settings = ZSealSettings.parse(done.json());
    expect(settings.certificate).toMatchObject({ subject: 'Acme seal', issuer: 'Acme seal', source: 'uploaded' });
    expect(new Date(settings.certificate!.validUntil).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(ZSealSettings.parse((await admin.get('/api/admin/seal')).json()).certificate).toEqual(settings.certificate);

    const audit = (await admin.get('/api/admin/audit')).json() as { entries: TAuditEntry[] };
    const entry = audit.entries.find((e) => e.action === 'seal.upload')!;
    expect(entry.details).toMatchObject({ subject: 'Acme seal', issuer: 'Acme seal' });
    expect(JSON.stringify(entry)).not.toContain('s3cret');
  });
});
