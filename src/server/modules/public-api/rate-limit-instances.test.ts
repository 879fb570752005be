/**
 * Several app processes behind one load balancer share one database: each key's count is kept
 * there, so a client cannot get twice its limit by landing on two instances. On CI's PostgreSQL
 * pass the second instance has its own connection pool, as a second process would.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { buildApp } from '../../app.ts';
import { openDatabase, type TDatabase } from '../../db/client.ts';
import { systemSettings, workspaces } from '../../db/schema.ts';
import { createTestApp, TestClient, type TTestApp, TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';
import { PLAN_CATALOGUE_SETTING } from '../system/index.ts';

let t: TTestApp;
let second: { app: FastifyInstance; database: TDatabase | undefined };
beforeAll(async () => {
  t = await createTestApp();
  const catalogue = DEFAULT_PLAN_CATALOGUE.map((p) => (p.id === 'enterprise' ? { ...p, apiRequestsPerMinute: 6 } : p));
  await t.database.db.insert(systemSettings).values({ key: PLAN_CATALOGUE_SETTING, value: JSON.stringify(catalogue) });
  const database = t.databaseUrl ? await openDatabase({ driver: 'postgres', url: t.databaseUrl, poolSize: 4 }) : undefined;
  const app = await buildApp({ config: t.config, database: database ?? t.database, background: { passwordHashCost: TEST_PASSWORD_HASH_COST } });
  await app.ready();
  second = { app, database };
});
afterAll(async () => {
  await second.app.close();
  await second.database?.close();
  await t.close();
});

it(`shares each key's count between two app instances on one ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'} database`, async () => {
  const owner = new TestClient(t.app);
  const { user } = await owner.signUp();
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
  const newKey = async () => ((await owner.post('/api/user/api-keys', { name: 'Balanced' })).json() as { key: string }).key;
  const [key, burstKey] = [await newKey(), await newKey()];
  const call = (app: FastifyInstance, apiKey = key) => app.inject({ method: 'GET', url: '/api/v1/formats', headers: { authorization: `Bearer ${apiKey}` } });

  // The minute must not roll over mid-test: start early in a window.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
  const answers = [];
  for (let i = 0; i < 8; i++) answers.push(await call(i % 2 === 0 ? t.app : second.app));
  expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['5', '4', '3', '2', '1', '0', '0', '0']);
  // In parallel too: exactly the limit gets through across both.
  const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 === 0 ? t.app : second.app, burstKey)));
  expect(burst.filter((a) => a.statusCode === 200)).toHaveLength(6);
  expect(burst.filter((a) => a.statusCode === 429)).toHaveLength(14);
});
