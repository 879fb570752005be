import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZCreatedApiKey } from '../../../contract/api-keys.ts';
import { ZApiUsage } from '../../../contract/api-usage.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { apiRequests, apiUsageDaily, workspaces } from '../../db/schema.ts';
import { TestClient, type TTestApp } from '../../test/test-app.ts';
import { errorOf, goodData, publicApiTestKit, requestLogWritten } from './test/public-api-test-kit.ts';

let t: TTestApp;
let admin: TestClient;
const { keyed, enterpriseMember } = publicApiTestKit((app, root) => {
  t = app;
  admin = root;
});

describe('rate limits, quota and usage', () => {
  it('counts each key per minute, with RateLimit headers on every answer and Retry-After on a 429', async () => {
    const catalogue = DEFAULT_PLAN_CATALOGUE.map((p) => (p.id === 'enterprise' ? { ...p, apiRequestsPerMinute: 5 } : p));
    expect((await admin.post('/api/admin/settings', { key: 'plans.catalogue', value: JSON.stringify(catalogue) })).statusCode).toBe(200);
    try {
      const { call, client } = await enterpriseMember();
      const second = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Other' })).json());
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await call('GET', '/api/v1/formats'));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
      for (const a of answers) {
        expect(a.headers['ratelimit-limit']).toBe('5');
        expect(Number(a.headers['ratelimit-reset'])).toBeGreaterThan(0);
      }
      const limited = answers[5]!;
      expect(errorOf(limited).code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Limits are per key.
      expect((await keyed(second.key)('GET', '/api/v1/formats')).statusCode).toBe(200);
    } finally {
      await admin.request('DELETE', '/api/admin/settings/plans.catalogue');
    }
  });

  it('refuses past the monthly quota with its own code, the same quota the app uses', async () => {
    const { userId, call, formatId, client } = await enterpriseMember();
    await t.database.db.update(workspaces).set({ apiCallsLimit: 2 }).where(eq(workspaces.id, userId));
    expect((await client.post('/api/documents', { formatId, data: goodData })).statusCode).toBe(201);
    expect((await call('POST', '/api/v1/documents', { formatId, data: goodData })).statusCode).toBe(201);
    const refused = await call('POST', '/api/v1/documents', { formatId, data: goodData });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe('quota_exceeded');
    expect(refused.headers['retry-after']).toBeUndefined();
  });

  it('logs each request by route pattern, and rolls finished days up', async () => {
    const { userId, keyId, call, formatId } = await enterpriseMember();
    await call('POST', '/api/v1/documents', { formatId, data: goodData });
    await call('GET', '/api/v1/documents/nope');
    await call('GET', '/api/v1/formats');
    // The log is written after the answer.
    await requestLogWritten();
    const logged = await t.database.db.select().from(apiRequests).where(eq(apiRequests.ownerId, userId));
    expect(logged.map((r) => [r.method, r.route, r.status, r.documents]).sort()).toEqual(
      [
        ['GET', '/api/v1/documents/:id', 404, 0],
        ['GET', '/api/v1/formats', 200, 0],
        ['POST', '/api/v1/documents', 201, 1],
      ].sort(),
    );
    expect(logged.every((r) => r.keyId === keyId && r.latencyMs >= 0)).toBe(true);
  });
});

describe('usage analytics', () => {
  it('shows a call made a moment ago, before its batch of the request log was due', async () => {
    const { client, call, formatId } = await enterpriseMember();
    await call('POST', '/api/v1/documents', { formatId, data: goodData });
    const usage = ZApiUsage.parse((await client.get('/api/user/api-usage')).json());
    expect(usage.totals).toMatchObject({ requests: 1, ok: 1, documents: 1 });
  });

  it('shows 30 days by status class and documents, per key, with latency and a CSV; admins see it too', async () => {
    const { client, userId, call, formatId } = await enterpriseMember();
    const other = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Other' })).json());
    await call('POST', '/api/v1/documents', { formatId, data: goodData });
    await call('POST', '/api/v1/documents', { formatId, data: {} });
    await keyed(other.key)('GET', '/api/v1/formats');
    await requestLogWritten();

    const all = ZApiUsage.parse((await client.get('/api/user/api-usage')).json());
    expect(all.days).toHaveLength(30);
    expect(all.days.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), ok: 2, clientErrors: 1, serverErrors: 0, documents: 1 });
    expect(all.days.slice(0, -1).every((d) => d.ok + d.clientErrors + d.serverErrors === 0 && d.p50Ms === null)).toBe(true);
    expect(all.totals).toEqual({ requests: 3, ok: 2, clientErrors: 1, serverErrors: 0, documents: 1 });
    expect(all.latency.p95Ms).toEqual(expect.any(Number));
    expect(all.keys.map((k) => k.name).sort()).toEqual(['Other', 'Server']);

    const one = ZApiUsage.parse((await client.get(`/api/user/api-usage?keyId=${other.id}`)).json());
    expect(one.totals).toEqual({ requests: 1, ok: 1, clientErrors: 0, serverErrors: 0, documents: 0 });
    const stranger = await enterpriseMember();
    expect((await stranger.client.get(`/api/user/api-usage?keyId=${other.id}`)).statusCode).toBe(404);
    expect(ZApiUsage.parse((await stranger.client.get('/api/user/api-usage')).json()).totals.requests).toBe(0);

    const csv = await client.get('/api/user/api-usage.csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Date,2xx/3xx requests,4xx requests,5xx requests,Documents generated,p50 latency (ms),p95 latency (ms)');
    expect(lines).toHaveLength(31);
    expect(lines.at(-1)).toMatch(new RegExp(`^${new Date().toISOString().slice(0, 10)},2,1,0,1,\\d+,\\d+$`));

    expect(ZApiUsage.parse((await admin.get(`/api/admin/users/${userId}/api-usage`)).json()).totals.requests).toBe(3);
    expect((await admin.get('/api/admin/users/nobody/api-usage')).statusCode).toBe(404);
    expect((await admin.get(`/api/admin/users/${userId}/api-usage.csv`)).body.trim().split('\r\n')).toHaveLength(31);
    expect((await admin.get('/api/admin/users/nobody/api-usage.csv')).statusCode).toBe(404);
    expect((await client.get(`/api/admin/users/${userId}/api-usage`)).statusCode).toBe(403);
  });
});

// Kept at the end: it rolls the log up as if a day had passed.
describe('usage roll-up', () => {
  it('keeps one row per key and day after the retention period', async () => {
    const { userId, call } = await enterpriseMember();
    await call('GET', '/api/v1/formats');
    await requestLogWritten();
    const { createPublicApiRepository } = await import('./public-api.repository.ts');
    const repository = createPublicApiRepository(t.database.db);
    const inTenDays = new Date(Date.now() + 10 * 24 * 60 * 60_000);
    await repository.sweep(inTenDays, new Date(inTenDays.getTime() - 7 * 24 * 60 * 60_000), inTenDays);
    expect(await t.database.db.select().from(apiRequests).where(eq(apiRequests.ownerId, userId))).toEqual([]);
    const [day] = await t.database.db.select().from(apiUsageDaily).where(eq(apiUsageDaily.ownerId, userId));
    expect(day).toMatchObject({ ok: 1, clientErrors: 0, serverErrors: 0, documents: 0, day: new Date().toISOString().slice(0, 10) });
  });
});
