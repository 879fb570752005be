import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ZApiError } from '../../../contract/errors.ts';
import { buildApp } from '../../app.ts';
import { NO_LOAD_SHEDDING } from '../../http/load-shedding.ts';
import { openDatabase, type TDatabase } from '../../db/client.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp, signUpVerified } from '../../test/test-app.ts';
import { SCRYPT_COST } from './password-hasher.ts';
import { clientNetwork, SIGN_IN_THROTTLE } from './sign-in-throttle.ts';
import { createThrottledTestApp } from './test/throttled-test-app.ts';

/*
 * Sign-in against a listening server, so the event loop, the thread pool and the sockets are real.
 * Linux routes all of 127.0.0.0/8 to loopback: each request leaves from the source address it is
 * given, and with TRUST_PROXY off that address is the client's IP.
 */

const ADMIN_EMAIL = 'admin@formwork.test';
const PASSWORD = 'correct horse battery';
let offsetMs = 0;
/**
 * The throttle's clock: it stands still unless moved forward (instead of sleeping through waits),
 * so a wait it announces does not shrink while a loaded machine takes its time between calls.
 */
const startedAt = Date.now();
const clock = () => new Date(startedAt + offsetMs);
const later = (seconds: number) => void (offsetMs += seconds * 1000);

let t: TTestApp;
let smtp: TSmtpStandIn;
beforeAll(async () => {
  ({ t, smtp } = await createThrottledTestApp(ADMIN_EMAIL, clock));
});
afterAll(() => t.close());

type TAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string; ms: number };

const ports = new WeakMap<FastifyInstance, Promise<number>>();
function portOf(app: FastifyInstance): Promise<number> {
  let port = ports.get(app);
  if (!port) {
    port = app.listen({ port: 0, host: '127.0.0.1' }).then(() => (app.server.address() as AddressInfo).port);
    ports.set(app, port);
  }
  return port;
}

/** One request on a fresh connection from `from` (an address in 127.0.0.0/8); `hangUp` closes it unanswered. */
async function send(app: FastifyInstance, from: string, method: 'GET' | 'POST', path: string, body?: unknown, hangUp?: AbortSignal): Promise<TAnswer> {
  const port = await portOf(app);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method,
        path,
        agent: false,
        signal: hangUp,
        headers: payload ? { origin: TEST_ORIGIN, 'content-type': 'application/json', 'content-length': payload.length } : {},
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const signIn = (from: string, email: string, password: string, app = t.app, hangUp?: AbortSignal) =>
  send(app, from, 'POST', '/api/auth/sign-in', { email, password }, hangUp);

function errorOf(answer: TAnswer) {
  return ZApiError.parse(JSON.parse(answer.body)).error;
}

async function newAccount(): Promise<string> {
  return (await signUpVerified(t, new TestClient(t.app), { password: PASSWORD }, smtp)).email;
}

/** Mail to `email` other than its verification email: the notices. */
const noticesTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email) && !/^Subject: Verify your email address/m.test(m.raw.toString()));

const ghost = () => `ghost-${randomBytes(6).toString('hex')}@example.com`;

describe('a crowd of failing sign-ins', () => {
  let crowded: FastifyInstance;
  beforeAll(async () => {
    // At the real hash cost: the crowd's sign-ins must each cost what a real one does, or a real
    // sign-in's place in the queue would gain it nothing measurable.
    crowded = await buildApp({
      config: t.config,
      database: t.database,
      background: { signInClock: clock, passwordHashCost: SCRYPT_COST, loadShedding: NO_LOAD_SHEDDING, mailTrustedCa: [smtp.ca] },
    });
    await crowded.ready();
  });
  afterAll(async () => {
    await crowded.close();
  });

  it('does not stall a real sign-in or the health check', { timeout: 300_000 }, async () => {
    // Made on the same app, since a hash checks only at the cost it was made with.
    const { email } = await signUpVerified(t, new TestClient(crowded), { password: PASSWORD });
    let stop = false;
    const hangUp = new AbortController();
    // Should the test fail or time out, its crowd must not go on hammering the next tests' server.
    onTestFinished(() => {
      stop = true;
      hangUp.abort();
    });
    const flood: number[] = [];
    const floodStarted = performance.now();
    // 60 addresses, each sending wrong passwords for made-up accounts, one after another, as
    // fast as it is answered: every one of them costs a full hash.
    const attackers = Array.from({ length: 60 }, async (_, i) => {
      while (!stop) {
        const answer = await signIn(`127.0.10.${i + 1}`, ghost(), 'not the password', crowded, hangUp.signal).catch((error: unknown) => {
          if (hangUp.signal.aborted) return undefined;
          throw error;
        });
        if (answer) flood.push(answer.status);
      }
    });

    const health: number[] = [];
    const prober = (async () => {
      while (!stop) {
        const answer = await send(crowded, '127.0.11.1', 'GET', '/healthz');
        expect(answer.status).toBe(200);
        health.push(answer.ms);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();

    // The flood's first wave looks like any 60 people signing in; once each address has failed it
    // waits behind clients that have not, and a real sign-in goes ahead of it.
    while (flood.length < 60) await new Promise((resolve) => setTimeout(resolve, 20));
    const real: TAnswer[] = [];
    for (let i = 0; i < 3; i++) {
      real.push(await signIn(`127.0.12.${i + 1}`, email, PASSWORD, crowded));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The probes ran through the real sign-ins; a few more after them suffice. More would only
    // prolong a flood that holds both cores, and the test files beside this one with them.
    const probesSoFar = health.length;
    while (health.length < probesSoFar + 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const floodSoFar = flood.length;
    // How long the server took to answer sixty of the flood's sign-ins, measured under the same
    // load: a real sign-in that queued behind every attacker would have taken about that long.
    const roundOfTheFloodMs = ((performance.now() - floodStarted) * 60) / floodSoFar;
    stop = true;
    // The crowd hangs up on its guesses still waiting for a hash.
    hangUp.abort();
    await Promise.all([...attackers, prober]);

    expect(real.map((answer) => answer.status)).toEqual([200, 200, 200]);
    // Ahead of the queue, not behind it: a fixed number of milliseconds would be a speed target,
    // which belongs to the benchmarks and fails on a loaded machine.
    for (const answer of real) expect(answer.ms, `a round of the flood took ${Math.round(roundOfTheFloodMs)} ms`).toBeLessThan(roundOfTheFloodMs);
    // The server kept answering through the flood (every probe above answered 200); how fast it
    // answered is a speed figure, measured by the benchmarks, not here. This only catches a stall.
    expect(Math.max(...health)).toBeLessThan(5_000);
    // It was a flood: many failed sign-ins, every one of them answered.
    expect(floodSoFar).toBeGreaterThan(60);
    expect(flood.every((status) => status === 401)).toBe(true);

    // Their clients gone, those guesses left the queue unhashed: another from one of the crowd's
    // addresses, which waits behind everyone else, is answered in about a hash's time, not after
    // the queue the crowd had filled.
    const afterTheCrowd = await signIn('127.0.10.1', ghost(), 'not the password', crowded);
    expect(afterTheCrowd.status).toBe(401);
    expect(afterTheCrowd.ms, `a round of the flood took ${Math.round(roundOfTheFloodMs)} ms`).toBeLessThan(roundOfTheFloodMs / 4);
  });
});

describe('guessing one account from many addresses', () => {
  it('refuses every attempt past the ceiling, tells the owner once, and lets one attempt through per wait', async () => {
    const email = await newAccount();
    const ceiling = SIGN_IN_THROTTLE.accountCeiling;
    const answers: TAnswer[] = [];
    for (let round = 0; round < 3; round++) {
      answers.push(...(await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(`127.0.20.${i + 1}`, email, `guess ${round}-${i}`)))));
    }
    // Every attempt is counted before its password is checked, so a parallel crowd gets exactly
    // the ceiling's worth of guesses.
    expect(answers.filter((a) => a.status === 401)).toHaveLength(ceiling);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(120 - ceiling);
    for (const answer of refused) {
      const error = errorOf(answer);
      expect(error.code).toBe('rate_limited');
      expect(error.message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/);
      const retryAfter = Number(answer.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_THROTTLE.firstAccountDelaySeconds);
    }

    // The wait is account-wide: the owner, from an address that never failed, waits too.
    const owner = await signIn('127.0.21.1', email, PASSWORD);
    expect(owner.status).toBe(429);
    expect(errorOf(owner).message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/);

    // The owner hears of it once, through the installation's mail server.
    await expect.poll(() => noticesTo(email).length).toBe(1);
    const notices = noticesTo(email);
    const notice = await smtp.parse(notices[0]!);
    expect(notice.subject).toBe('Someone is trying to sign in to your Formwork account');
    expect(notice.text).toContain(email);

    // Each time the wait has passed, one attempt is let through; its failure doubles the wait, up
    // to the cap: never a lock.
    later(SIGN_IN_THROTTLE.firstAccountDelaySeconds);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      expect((await signIn(`127.0.20.${200 + i}`, email, `late guess ${i}`)).status).toBe(401);
      const refused = await signIn(`127.0.20.${220 + i}`, email, `refused guess ${i}`);
      expect(refused.status).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      later(waits.at(-1)!);
    }
    const first = SIGN_IN_THROTTLE.firstAccountDelaySeconds;
    const cap = SIGN_IN_THROTTLE.maxAccountDelaySeconds;
    expect(waits).toEqual([2 * first, 4 * first, 8 * first, 16 * first, cap, cap]);
    expect((await signIn('127.0.20.229', email, 'at the cap')).status).toBe(401);
    const capped = await signIn('127.0.20.230', email, PASSWORD);
    expect(errorOf(capped).message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    later(cap);
    expect((await signIn('127.0.21.1', email, PASSWORD)).status).toBe(200);

    // Shutting down waits for notices on their way: still exactly one.
    await t.restart();
    expect(noticesTo(email)).toHaveLength(1);
  });

  it('sends no notice when no mail server is set up, and still refuses past the ceiling', async () => {
    const bare = await createTestApp({ TRUST_PROXY: 'false' }, { signInClock: clock });
    try {
      const { email } = await new TestClient(bare.app).signUp({ password: PASSWORD });
      const before = smtp.messages.length;
      const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => signIn(`127.0.22.${i + 1}`, email, `guess ${i}`, bare.app)));
      expect(answers.filter((a) => a.status === 401)).toHaveLength(SIGN_IN_THROTTLE.accountCeiling);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(15 - SIGN_IN_THROTTLE.accountCeiling);
      await bare.restart();
      expect(smtp.messages.length).toBe(before);
    } finally {
      await bare.close();
    }
  });
});

describe('one address', () => {
  it('slows its own guesses at an account with doubling waits, and a right password clears its record', async () => {
    const email = await newAccount();
    const guesser = '127.0.30.1';
    const free = SIGN_IN_THROTTLE.freeFailuresPerClient;
    const statuses: number[] = [];
    for (let i = 0; i < free + 3; i++) statuses.push((await signIn(guesser, email, `wrong ${i}`)).status);
    expect(statuses).toEqual([...Array<number>(free + 1).fill(401), 429, 429]);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const refused = await signIn(guesser, email, 'wrong again');
      expect(refused.status).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      later(waits.at(-1)!);
      expect((await signIn(guesser, email, 'wrong after the wait')).status).toBe(401);
    }
    expect(waits).toEqual([2, 4, 8]);

    // Another client that has not failed signs in at once.
    expect((await signIn('127.0.30.2', email, PASSWORD)).status).toBe(200);
    // The guesser's own right password, after its wait, clears its record: its next slip is free.
    const refused = await signIn(guesser, email, PASSWORD);
    expect(refused.status).toBe(429);
    later(Number(refused.headers['retry-after']));
    expect((await signIn(guesser, email, PASSWORD)).status).toBe(200);
    expect((await signIn(guesser, email, 'a slip')).status).toBe(401);
    expect((await signIn(guesser, email, PASSWORD)).status).toBe(200);
  });

  it("failing at many accounts does not keep another account's owner at that address out", async () => {
    const sprayer = '127.0.31.1';
    const accounts = await Promise.all(Array.from({ length: 5 }, () => newAccount()));
    for (let i = 0; i < 60; i++) {
      const target = i < 50 ? ghost() : accounts[i % accounts.length]!;
      expect((await signIn(sprayer, target, 'spring2024')).status).toBe(401);
    }
    // The owner of a sixth account, behind the same address (a shared office, a proxy).
    const email = await newAccount();
    expect((await signIn(sprayer, email, PASSWORD)).status).toBe(200);
  });
});

describe('what counts as one client', () => {
  it('is an IPv4 address, mapped or not, and a whole IPv6 /64', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe(clientNetwork('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    expect(clientNetwork('2001:db8:1:2::1')).not.toBe(clientNetwork('2001:db8:1:3::1'));
  });
});

describe('several app processes on one database', () => {
  let second: { app: FastifyInstance; database: TDatabase | undefined };
  beforeAll(async () => {
    // On PostgreSQL the second instance has its own pool, as a second process would.
    const database = t.databaseUrl ? await openDatabase({ driver: 'postgres', url: t.databaseUrl, poolSize: 4 }) : undefined;
    const app = await buildApp({ config: t.config, database: database ?? t.database, background: { signInClock: clock } });
    await app.ready();
    second = { app, database };
  });
  afterAll(async () => {
    await second.app.close();
    await second.database?.close();
  });

  it(`share every count on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`, async () => {
    const apps = () => [t.app, second.app];
    const either = (i: number) => apps()[i % 2]!;

    // One client's failures, spread over both.
    const email = await newAccount();
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_THROTTLE.freeFailuresPerClient + 2; i++) statuses.push((await signIn('127.0.40.1', email, 'wrong', either(i))).status);
    expect(statuses).toEqual([...Array<number>(SIGN_IN_THROTTLE.freeFailuresPerClient + 1).fill(401), 429]);

    // An account's ceiling, counted across both, in parallel.
    const target = await newAccount();
    const crowd = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(`127.0.41.${i + 1}`, target, `guess ${i}`, either(i))));
    expect(crowd.filter((a) => a.status === 401)).toHaveLength(SIGN_IN_THROTTLE.accountCeiling);
    expect(crowd.filter((a) => a.status === 429)).toHaveLength(30 - SIGN_IN_THROTTLE.accountCeiling);

    // The sign-up limit per address.
    const signUps: number[] = [];
    for (let i = 0; i <= t.config.signUpsPerIpPerHour; i++) {
      const answer = await send(either(i), '127.0.42.1', 'POST', '/api/auth/sign-up', {
        firstName: 'Many',
        lastName: 'Accounts',
        email: ghost(),
        password: PASSWORD,
      });
      signUps.push(answer.status);
      if (answer.status === 429) {
        expect(errorOf(answer).message).toMatch(/^Too many accounts were created from your network\. Try again in \d+ minutes\.$/);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    // A mail server is set up here, so a sign-up is a 202 "check your email".
    expect(signUps).toEqual([...Array<number>(t.config.signUpsPerIpPerHour).fill(202), 429]);
  });
});

describe('when hashes are scarce', () => {
  let busy: FastifyInstance;
  beforeAll(async () => {
    // At the real cost, so that a hash is still running when the next request arrives.
    busy = await buildApp({
      config: t.config,
      database: t.database,
      background: { signInClock: clock, passwordHashLimits: { concurrency: 1, queueLimit: 1 } },
    });
    await busy.ready();
  });
  afterAll(async () => {
    await busy.close();
  });

  it('answers 503 with Retry-After past the queue, and does not count what it turned away', async () => {
    const email = await newAccount();
    const burst = await Promise.all(Array.from({ length: 3 }, (_, i) => signIn('127.0.50.1', email, `burst ${i}`, busy)));
    const busyAnswers = burst.filter((a) => a.status === 503);
    const checked = burst.filter((a) => a.status === 401).length;
    expect(busyAnswers.length).toBeGreaterThan(0);
    expect(checked + busyAnswers.length).toBe(3);
    for (const answer of busyAnswers) {
      const error = errorOf(answer);
      expect(error.code).toBe('unavailable');
      expect(error.message).toMatch(/^Sign-in is busy right now\. Try again in \d+ seconds\.$/);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Only the checked guesses count against the client's free failures.
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_THROTTLE.freeFailuresPerClient + 1 - checked; i++) {
      statuses.push((await signIn('127.0.50.1', email, `after ${i}`, busy)).status);
    }
    expect(statuses).toEqual([...Array<number>(SIGN_IN_THROTTLE.freeFailuresPerClient + 1 - checked).fill(401), 429]);

    // Sign-ups wait for the same hashes, and one turned away does not count against its address.
    const newUser = () => ({ firstName: 'A', lastName: 'B', email: ghost(), password: PASSWORD });
    const limit = t.config.signUpsPerIpPerHour;
    const signUps = await Promise.all(Array.from({ length: limit }, () => send(busy, '127.0.51.1', 'POST', '/api/auth/sign-up', newUser())));
    expect(signUps.some((a) => a.status === 503)).toBe(true);
    // A mail server is set up here, so a sign-up is a 202 "check your email".
    expect(signUps.every((a) => a.status === 202 || a.status === 503)).toBe(true);
    const made = signUps.filter((a) => a.status === 202).length;
    const after: number[] = [];
    for (let i = 0; i <= limit - made; i++) after.push((await send(busy, '127.0.51.1', 'POST', '/api/auth/sign-up', newUser())).status);
    expect(after).toEqual([...Array<number>(limit - made).fill(202), 429]);
  });
});
