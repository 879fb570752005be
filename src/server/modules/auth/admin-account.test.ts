import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { openDatabase } from '../../db/client.ts';
import { lockDataDir } from '../../db/data-dir-lock.ts';
import { users } from '../../db/schema.ts';
import { TEST_ORIGIN, testConfig, TestClient } from '../../test/test-app.ts';

const script = path.resolve(import.meta.dirname, '../../../../scripts/admin-create.ts');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-admin-create-'));
const env = {
  ...process.env,
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: TEST_ORIGIN,
};

/** `npm run admin:create -- …`, as an operator types it. */
function adminCreate(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { env, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run admin:create', () => {
  // Six runs of the script, each a fresh Node process with a TypeScript loader: slow on a busy machine.
  it('makes a verified admin on an empty data directory, again without change, and explains bad input', async () => {
    const made = adminCreate('--email', 'Owner@Example.com', '--password', 'a long admin password', '--first', 'Olga', '--last', 'Owner');
    expect(made.status, made.err).toBe(0);
    expect(made.out).toMatch(/Created the admin account owner@example\.com/);

    const again = adminCreate('--email', 'owner@example.com', '--password', 'a long admin password');
    expect(again.status, again.err).toBe(0);
    expect(again.out).toMatch(/is an admin with a verified address/);

    const missing = adminCreate('--email', 'owner@example.com');
    expect(missing.status).toBe(1);
    expect(missing.err).toMatch(/--password/);
    const short = adminCreate('--email', 'x@example.com', '--password', 'short');
    expect(short.status).toBe(1);
    expect(short.err).toMatch(/--password: Use at least/);
    const notAnAddress = adminCreate('--email', 'nobody', '--password', 'a long admin password');
    expect(notAnAddress.status).toBe(1);
    expect(notAnAddress.err).toMatch(/--email: Enter a valid email address/);

    // While a server holds the data directory, the script says so and touches nothing.
    const release = lockDataDir(dataDir);
    try {
      const locked = adminCreate('--email', 'late@example.com', '--password', 'a long admin password');
      expect(locked.status).toBe(1);
      expect(locked.err).toMatch(/in use by a running Formwork server/);
    } finally {
      release();
    }

    // The server started on that directory lets the account into the Admin Panel.
    const database = await openDatabase({ driver: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    const app = await buildApp({ config: testConfig(dataDir), database });
    try {
      expect(await database.db.select({ email: users.email }).from(users)).toEqual([{ email: 'owner@example.com' }]);
      const client = new TestClient(app);
      expect(await client.signIn('owner@example.com', 'a long admin password')).toMatchObject({
        role: 'admin',
        emailVerified: true,
        firstName: 'Olga',
        lastName: 'Owner',
      });
      expect((await client.get('/api/admin/users')).statusCode).toBe(200);
      // Both runs are in the audit log, the first as the one that made the account.
      const audit = (await client.get('/api/admin/audit')).json<{ entries: { action: string; details: { created?: boolean } }[] }>();
      expect(audit.entries.filter((e) => e.action === 'user.admin-command').map((e) => e.details.created)).toEqual([false, true]);
    } finally {
      await app.close();
      await database.close();
    }
  }, 180_000);
});
