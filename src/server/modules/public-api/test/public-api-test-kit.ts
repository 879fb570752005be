import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { ZCreatedApiKey } from '../../../../contract/api-keys.ts';
import { usageCounters, workspaces } from '../../../db/schema.ts';
import { createTestApp, TestClient, type TTestApp, signUpVerified } from '../../../test/test-app.ts';

/*
 * What the public API test files share: an app with a signed-in root admin, a client that holds
 * only a key, an Enterprise member with a key and a format, and data that fills the format.
 */

export { errorOf } from '../../../test/test-app.ts';

export const OFFER = {
  name: 'Offer letter',
  content: {
    elements: [
      { id: 'h', type: 'heading', level: 1, content: 'Offer for {{client_name}}' },
      { id: 'p', type: 'paragraph', content: 'Salary {{salary}}, starting {{start}}. Team: {{team}}.' },
    ],
  },
  placeholders: [
    { name: 'client_name', type: 'text', required: true, label: 'Candidate' },
    { name: 'salary', type: 'number', required: true },
    { name: 'start', type: 'date' },
    { name: 'team', type: 'select', options: ['Sales', 'Support'] },
  ],
};

/** The request log is written in batches within a quarter second of the answers. */
export const requestLogWritten = () => new Promise((resolve) => setTimeout(resolve, 600));

export const goodData = { client_name: 'Jane Doe', salary: 85000, start: '2027-01-04', team: 'Sales' };

/**
 * Starts the app before the file's tests and closes it after; `onReady` hands the file the app and
 * its root admin, so test bodies read them as plain variables.
 */
export function publicApiTestKit(onReady: (t: TTestApp, admin: TestClient) => void) {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'root@example.com' });
    const admin = new TestClient(t.app);
    await signUpVerified(t, admin, { email: 'root@example.com' });
    onReady(t, admin);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A client that holds only an API key, as an integrator's server does: no cookie, no Origin. */
  function keyed(key: string, style: 'bearer' | 'header' = 'bearer') {
    const auth = style === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
    return async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: method as 'GET',
        url,
        headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
  }

  async function enterpriseMember(mode: 'live' | 'test' = 'live') {
    const client = new TestClient(t.app);
    const { user } = await client.signUp();
    await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
    const created = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Server', mode })).json());
    const format = await client.post('/api/formats', OFFER);
    expect(format.statusCode).toBe(201);
    return { client, userId: user.id, key: created.key, keyId: created.id, call: keyed(created.key), formatId: (format.json() as { id: string }).id };
  }

  async function generations(userId: string) {
    const rows = await t.database.db.select().from(usageCounters).where(eq(usageCounters.ownerId, userId));
    return rows.reduce((sum, r) => sum + r.generations, 0);
  }

  return { keyed, enterpriseMember, generations };
}
