import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiKey, ZCreatedApiKey, ZGeneratedApiKey, type TCreatedApiKey } from '../../../contract/api-keys.ts';
import { apiKeys } from '../../db/schema.ts';
import { errorOf, createTestApp, TestClient, type TTestApp, signUpOnPlan } from '../../test/test-app.ts';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function member(plan: 'free' | 'premium' | 'enterprise') {
  const { client, user } = await signUpOnPlan(t, plan);
  return { client, userId: user.id };
}

describe('API keys', () => {
  it('are refused to plans without API access, with the plan named', async () => {
    for (const plan of ['free', 'premium'] as const) {
      const { client } = await member(plan);
      const created = await client.post('/api/user/api-keys', { name: 'CRM' });
      expect(created.statusCode).toBe(403);
      expect(errorOf(created)).toMatchObject({ code: 'plan_limit', message: expect.stringContaining('Enterprise') });
      expect((await client.post('/api/user/generate-api-key', {})).statusCode).toBe(403);
      expect((await client.get('/api/user/api-keys')).json()).toEqual([]);
    }
  });

  it('are shown once, stored only as a hash, then listed by their last 4 characters', async () => {
    const { client, userId } = await member('enterprise');
    const live = await client.post('/api/user/api-keys', { name: '  Billing system ' });
    expect(live.statusCode).toBe(201);
    const created = ZCreatedApiKey.parse(live.json());
    expect(created).toMatchObject({ name: 'Billing system', mode: 'live', lastUsedAt: null });
    expect(created.key).toMatch(/^fw_live_[A-Za-z0-9_-]{43}$/);
    expect(created.last4).toBe(created.key.slice(-4));
    const test = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Staging', mode: 'test' })).json());
    expect(test.key).toMatch(/^fw_test_/);

    const listed = await client.get('/api/user/api-keys');
    expect(listed.statusCode).toBe(200);
    const keys = listed.json() as unknown[];
    expect(keys.map((k) => ZApiKey.strict().parse(k).name)).toEqual(['Staging', 'Billing system']);
    expect(listed.body).not.toContain(created.key);

    const rows = await t.database.db.select().from(apiKeys).where(eq(apiKeys.ownerId, userId));
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(created.key.slice(8));
    expect(rows.find((r) => r.id === created.id)?.keyHash).toBe(createHash('sha256').update(created.key).digest('hex'));
  });

  it('answers the one-button call with a live key named Default', async () => {
    const { client } = await member('enterprise');
    const generated = await client.post('/api/user/generate-api-key', {});
    expect(generated.statusCode).toBe(200);
    const { id, key, last4 } = ZGeneratedApiKey.strict().parse(generated.json());
    expect(key.startsWith('fw_live_') && key.endsWith(last4)).toBe(true);
    expect((await client.get('/api/user/api-keys')).json()).toEqual([expect.objectContaining({ id, name: 'Default', mode: 'live' })]);
  });

  it('open the API until revoked, and record when they were last used', async () => {
    const { client } = await member('enterprise');
    const created = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Robot', mode: 'test' })).json()) as TCreatedApiKey;
    const call = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/documents', headers: { authorization: `Bearer ${key}` } });
    expect((await call(created.key)).statusCode).toBe(200);
    expect(((await client.get('/api/user/api-keys')).json() as { lastUsedAt: string | null }[])[0]?.lastUsedAt).not.toBeNull();
    expect((await call(`${created.key}x`)).statusCode).toBe(401);
    expect((await call('not-a-key')).statusCode).toBe(401);

    expect((await client.request('DELETE', `/api/user/api-keys/${created.id}`)).statusCode).toBe(204);
    const revoked = await call(created.key);
    expect(revoked.statusCode).toBe(401);
    expect(errorOf(revoked).message).toMatch(/revoked/);
    expect((await client.get('/api/user/api-keys')).json()).toEqual([]);
    expect((await client.request('DELETE', `/api/user/api-keys/${created.id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another user's key, and checks what it is given", async () => {
    const a = await member('enterprise');
    const b = await member('enterprise');
    const key = ZCreatedApiKey.parse((await a.client.post('/api/user/api-keys', { name: 'Mine' })).json());
    const stranger = await b.client.request('DELETE', `/api/user/api-keys/${key.id}`);
    expect(stranger.statusCode).toBe(404);
    expect(errorOf(stranger).code).toBe('not_found');
    expect((await a.client.get('/api/user/api-keys')).json()).toHaveLength(1);

    const blank = await a.client.post('/api/user/api-keys', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(errorOf(blank).fields?.name).toMatch(/Name the key/);
    expect((await a.client.post('/api/user/api-keys', { name: 'x', mode: 'prod' })).statusCode).toBe(400);
    expect((await new TestClient(t.app).get('/api/user/api-keys')).statusCode).toBe(401);
  });

  it('are limited to 20 at a time', async () => {
    const { client } = await member('enterprise');
    for (let i = 0; i < 20; i++) expect((await client.post('/api/user/api-keys', { name: `Key ${i}` })).statusCode).toBe(201);
    const more = await client.post('/api/user/api-keys', { name: 'One too many' });
    expect(more.statusCode).toBe(409);
    expect(errorOf(more).message).toMatch(/at most 20 keys/);
  });
});
