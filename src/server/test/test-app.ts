import { TEAM_HEADER } from '../../contract/team-roles.ts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { ZApiError } from '../../contract/errors.ts';
import { buildApp, type TBuildAppOptions } from '../app.ts';
import { loadConfig, type TConfig } from '../config.ts';
import { eq } from 'drizzle-orm';
import { openDatabase, type TDatabase } from '../db/client.ts';
import { leaseEmbeddedDatabase } from './embedded-databases.ts';
import { users, workspaces } from '../db/schema.ts';
import { NO_LOAD_SHEDDING } from '../http/load-shedding.ts';
import { createPasswordHasher, type TScryptCost } from '../modules/auth/password-hasher.ts';

export const TEST_ORIGIN = 'http://localhost:5000';

/** The error an API answer carries, checked against the contract's shape. */
export const errorOf = (response: { json(): unknown }) => ZApiError.parse(response.json()).error;

export type TTestApp = {
  app: FastifyInstance;
  config: TConfig;
  database: TDatabase;
  /** The PostgreSQL URL of this test file's database; undefined on PGlite. */
  databaseUrl: string | undefined;
  /** Stops the app as a deploy would (gracefully) and starts a new one on the same database. */
  restart(): Promise<void>;
  close(): Promise<void>;
};

/** A migrated database for one test file, empty: PGlite in memory (embedded-databases.ts), or a clone on PostgreSQL. */
async function freshDatabase(): Promise<{ database: TDatabase; url?: string; drop: () => Promise<void> }> {
  const templateDb = inject('postgresTemplateDb');
  const url = process.env.TEST_DATABASE_URL;
  if (url && templateDb) {
    const name = `formwork_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${name}" template "${templateDb}"`);
    await admin.end();
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const database = await openDatabase({ driver: 'postgres', url: dbUrl.toString(), poolSize: 20 });
    return {
      database,
      url: dbUrl.toString(),
      drop: async () => {
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`drop database if exists "${name}" with (force)`);
        await cleanup.end();
      },
    };
  }
  return { database: await leaseEmbeddedDatabase(), drop: async () => {} };
}

/**
 * The password hashes of test apps cost a thirty-second of a real one's (SCRYPT_COST): each test
 * signs up accounts of its own, and at full cost their hashes took a tenth of the run's processor
 * time. An app on a test app's database checks their passwords only at this cost too.
 */
export const TEST_PASSWORD_HASH_COST: TScryptCost = { N: 1024, r: 8 };

/** A hasher at the test apps' cost, for a test that writes a password hash itself. */
export const testPasswordHasher = () => createPasswordHasher(undefined, TEST_PASSWORD_HASH_COST);

/** The configuration of a test server on `dataDir`: quiet, at TEST_ORIGIN, with fresh secrets. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): TConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...env,
  });
}

export async function createTestApp(
  env: Record<string, string> = {},
  background: TBuildAppOptions['background'] = {},
  options: Pick<TBuildAppOptions, 'logStream'> = {},
): Promise<TTestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-test-'));
  const config = testConfig(dataDir, env);
  // Load shedding answers to this machine's load, which in a test run is every other test's too;
  // load-shedding.test.ts turns it on with limits of its own.
  background = { loadShedding: NO_LOAD_SHEDDING, passwordHashCost: TEST_PASSWORD_HASH_COST, ...background };
  const { database, url, drop } = await freshDatabase();
  const app = await buildApp({ config, database, background, ...options });
  await app.ready();
  const testApp: TTestApp = {
    app,
    config,
    database,
    databaseUrl: url,
    async restart() {
      await testApp.app.close();
      testApp.app = await buildApp({ config, database, background, ...options });
      await testApp.app.ready();
    },
    async close() {
      await testApp.app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/** A log stream for createTestApp's options that appends each write to `lines`, for tests that read the log. */
export function logInto(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
}

export function multipartBody(field: string, fileName: string, bytes: Buffer, type = 'application/octet-stream') {
  const boundary = '----formwork-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

type TSignUpOverrides = Partial<{ firstName: string; lastName: string; email: string; password: string }>;

/** A sign-up form filled in for a new person, at an address no other test uses. */
function signUpBody(overrides: TSignUpOverrides) {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `user-${randomBytes(4).toString('hex')}@example.com`,
    password: 'correct horse battery',
    ...overrides,
  };
}

/** A browser-like client: keeps cookies and sends our Origin on writes, as the SPA does. */
export class TestClient {
  private cookies = new Map<string, string>();
  /** The team this client's calls act in (the TEAM_HEADER), or undefined: the person's own workspace. */
  team: string | undefined;
  /** Each client has its own address unless told, as separate users would: per-IP limits apply per client. */
  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = `198.18.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 254) + 1}`,
  ) {}

  private remember(response: LightMyRequestResponse) {
    const header = response.headers['set-cookie'];
    const list = Array.isArray(header) ? header : header ? [header] : [];
    for (const line of list) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      remoteAddress: this.ip,
      headers: {
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
        ...(method !== 'GET' ? { origin: TEST_ORIGIN } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.team ? { [TEAM_HEADER]: this.team } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    this.remember(response);
    return response;
  }

  /** A multipart upload of one file, as the browser's file input sends it. */
  async upload(url: string, field: string, fileName: string, bytes: Buffer, type = 'application/octet-stream') {
    const { payload, headers } = multipartBody(field, fileName, bytes, type);
    const response = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.ip,
      headers: {
        ...headers,
        origin: TEST_ORIGIN,
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
        ...(this.team ? { [TEAM_HEADER]: this.team } : {}),
      },
      payload,
    });
    this.remember(response);
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, undefined, headers);
  }
  post(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', url, body, headers);
  }

  async signUp(overrides: TSignUpOverrides = {}) {
    const body = signUpBody(overrides);
    const response = await this.post('/api/auth/sign-up', body);
    if (response.statusCode === 202) throw new Error('sign-up held the account for verification (a mail server is set up): use signUpVerified');
    if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
    return { ...body, user: response.json() as { id: string; email: string; role: string } };
  }

  async signIn(email: string, password: string) {
    const response = await this.post('/api/auth/sign-in', { email, password });
    if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
    return response.json() as { id: string; email: string; role: string; emailVerified: boolean };
  }
}

/** A new user, signed in on a client of `t`'s app, moved onto `plan` directly (paying for one is tested in billing). */
export async function signUpOnPlan(t: Pick<TTestApp, 'app' | 'database'>, plan: 'free' | 'basic' | 'premium' | 'enterprise') {
  const client = new TestClient(t.app);
  const { user } = await client.signUp();
  await t.database.db.update(workspaces).set({ subscriptionPlan: plan }).where(eq(workspaces.id, user.id));
  return { client, user };
}

/**
 * Signs up, marks the address verified as opening its link would (the links themselves are
 * tested in email-verification.test.ts), and signs in, so ADMIN_EMAILS applies as at any sign-in.
 * Works whether or not the installation has a mail server; with one, give `mail` (the SMTP
 * stand-in it sends to) and the verification email is waited for, so it cannot arrive in the
 * middle of what the test counts next.
 */
export async function signUpVerified(
  t: Pick<TTestApp, 'database'>,
  client: TestClient,
  overrides: TSignUpOverrides = {},
  mail?: { messages: { to: string[] }[] },
) {
  const body = signUpBody(overrides);
  const response = await client.post('/api/auth/sign-up', body);
  if (response.statusCode !== 200 && response.statusCode !== 202) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  if (response.statusCode === 202 && mail) {
    const address = body.email.toLowerCase();
    for (let i = 0; !mail.messages.some((m) => m.to.includes(address)); i++) {
      if (i > 400) throw new Error(`no verification email reached ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  await t.database.db.update(users).set({ emailVerified: true }).where(eq(users.email, body.email.toLowerCase()));
  return { ...body, user: await client.signIn(body.email, body.password) };
}
