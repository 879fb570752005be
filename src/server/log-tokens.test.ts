import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreatedApiKey } from '../contract/api-keys.ts';
import type { TDocument } from '../contract/documents.ts';
import { ZShareLink } from '../contract/delivery.ts';
import { apiRequests, workspaces } from './db/schema.ts';
import { maskTokens, pathForLog } from './log-tokens.ts';
import { createTestApp, TestClient, logInto, type TTestApp } from './test/test-app.ts';

/*
 * Whoever reads a log must not be able to open what a token opens. This run makes one token of
 * each kind, uses each the ways a browser, an API client and an attacker would (right, wrong,
 * revoked, with a query string, on a route that fails), and then looks for every one of them in
 * everything the server logged and in the API's request log.
 */

let t: TTestApp;
const logged: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'trace' }, {}, { logStream: logInto(logged) });
});
afterAll(async () => {
  await t.close();
});

describe('tokens in logs', () => {
  it('masks the token of every token-bearing address and drops query strings', () => {
    expect(pathForLog('/s/AbC-123_xyz')).toBe('/s/[token]');
    expect(pathForLog('/api/share/AbC-123_xyz/pdf?download=1')).toBe('/api/share/[token]/pdf');
    expect(pathForLog('/sign/tok1')).toBe('/sign/[token]');
    expect(pathForLog('/api/sign/tok1/decline')).toBe('/api/sign/[token]/decline');
    expect(pathForLog('/invite/tok2')).toBe('/invite/[token]');
    expect(pathForLog('/api/invitations/tok2/accept')).toBe('/api/invitations/[token]/accept');
    expect(pathForLog('/verify-email?token=tok3')).toBe('/verify-email');
    expect(pathForLog('/api/documents/0b7e0c1e-2d1f-4a43-9d0b-1f6f7c1a2b3c')).toBe('/api/documents/0b7e0c1e-2d1f-4a43-9d0b-1f6f7c1a2b3c');
    expect(pathForLog('/api/share-links/abc')).toBe('/api/share-links/abc');
    expect(maskTokens('Route GET:/api/share/secret-value/pdf not found')).toBe('Route GET:/api/share/[token]/pdf not found');
    expect(maskTokens('fetch http://x.test/reset-password?token=abc failed')).toBe('fetch http://x.test/reset-password failed');
  });

  it('leaves no share token and no API key in a run’s log or the API request log', async () => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp();
    await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
    const format = await client.post('/api/formats', {
      name: 'Letter',
      content: { elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{name}}' }] },
      placeholders: [{ name: 'name', type: 'text', required: true }],
    });
    const formatId = (format.json() as { id: string }).id;
    const document = (await client.post('/api/documents', { formatId, data: { name: 'Jo' } })).json() as TDocument;

    const secrets: string[] = [];
    const links = [];
    for (let i = 0; i < 2; i++) {
      const created = await client.post(`/api/documents/${document.id}/share`, { expiresInDays: 7 });
      expect(created.statusCode).toBe(201);
      const link = ZShareLink.parse(created.json());
      links.push(link);
      secrets.push(new URL(link.url).pathname.split('/').pop()!);
    }
    const [open, revoked] = secrets as [string, string];
    expect((await client.request('DELETE', `/api/share-links/${links[1]!.id}`)).statusCode).toBe(200);

    const visitor = new TestClient(t.app);
    for (const token of [open, revoked]) {
      await visitor.get(`/s/${token}`);
      await visitor.get(`/s/${token}?utm_source=mail`);
      await visitor.get(`/api/share/${token}`);
      await visitor.get(`/api/share/${token}/pdf`);
      await visitor.get(`/api/share/${token}/nothing-here`);
      await visitor.post(`/api/share/${token}/pdf`, {});
    }
    // A guessed token looks like a real one to the log.
    await visitor.get(`/api/share/${open.slice(0, -4)}zzzz`);

    for (const mode of ['live', 'test'] as const) {
      const key = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: `Server ${mode}`, mode })).json()).key;
      secrets.push(key);
      for (const headers of [{ authorization: `Bearer ${key}` }, { 'x-api-key': key }]) {
        await t.app.inject({ method: 'GET', url: '/api/v1/formats', headers });
        await t.app.inject({ method: 'POST', url: '/api/v1/documents', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"formatId":' });
        await t.app.inject({ method: 'GET', url: `/api/v1/documents/${document.id}/nothing`, headers });
      }
      // A key pasted into the address by mistake.
      await t.app.inject({ method: 'GET', url: `/api/v1/formats?api_key=${key}` });
    }

    // The request log is written in batches within a quarter second of the answers.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const log = logged.join('');
    expect(log).toContain('/api/share/[token]');
    expect(log).toContain('/s/[token]');
    const requestLog = JSON.stringify(await t.database.db.select().from(apiRequests));
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
      expect(requestLog).not.toContain(secret);
    }
  });
});
