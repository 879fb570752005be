import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreatedWebhookEndpoint, ZWebhookDelivery, ZWebhookEndpoint, type TWebhookDelivery } from '../../../contract/webhooks.ts';
import { webhookEndpoints } from '../../db/schema.ts';
import { startWebhookReceiver } from '../../test/webhook-receiver.ts';
import { errorOf, createTestApp, TestClient, type TTestApp, signUpOnPlan } from '../../test/test-app.ts';

let t: TTestApp;
const receiver = startWebhookReceiver();
let receiverUrl = '';
beforeAll(async () => {
  // Loopback is allowed here only because the operator's list says so, as an intranet host would be.
  t = await createTestApp({ IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1' }, { webhookRetryDelaysMs: [150, 150], webhookTimeoutMs: 2_000 });
  receiverUrl = await receiver.listen();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function member(plan: 'premium' | 'enterprise' = 'enterprise') {
  const { client, user } = await signUpOnPlan(t, plan);
  return { client, userId: user.id };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const deliveriesOf = async (client: TestClient, endpointId: string) =>
  ((await client.get(`/api/user/webhooks/${endpointId}/deliveries`)).json() as unknown[]).map((d) => ZWebhookDelivery.parse(d));

describe('webhooks', () => {
  it('are for plans with API access, and refuse bad addresses and events', async () => {
    const { client } = await member('premium');
    const refused = await client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created'] });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('plan_limit');
    const { client: enterprise } = await member();
    const bad = await enterprise.post('/api/user/webhooks', { url: 'ftp://example.com/hook', events: [] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad).fields ?? {}).sort()).toEqual(['events', 'url']);
  });

  it('signs each delivery, sends document.created, and keeps a log; the secret is shown once and stored sealed', async () => {
    const { client, userId } = await member();
    const created = await client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created', 'batch.completed'] });
    expect(created.statusCode).toBe(201);
    const endpoint = ZCreatedWebhookEndpoint.parse(created.json());
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    receiver.setSecret(endpoint.secret);
    expect(JSON.stringify((await client.get('/api/user/webhooks')).json())).not.toContain(endpoint.secret);
    const [row] = await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row!.secretEnc).not.toContain(endpoint.secret.slice(6));

    const format = (
      await client.post('/api/formats', {
        name: 'Receipt',
        content: { elements: [{ id: 'p', type: 'paragraph', content: 'Paid by {{client_name}}' }] },
        placeholders: [{ name: 'client_name', type: 'text', required: true }],
      })
    ).json() as { id: string };
    const document = (await client.post('/api/documents', { formatId: format.id, data: { client_name: 'Acme' } })).json() as { id: string };
    const before = receiver.received.length;
    await until(
      async () => receiver.received.length,
      (n) => n > before,
      'the delivery',
    );
    const delivery = receiver.received.at(-1)!;
    expect(delivery.signatureValid).toBe(true);
    expect(Math.abs(delivery.timestamp - Date.now() / 1000)).toBeLessThan(30);
    const payload = JSON.parse(delivery.body) as { id: string; type: string; data: { id: string; clientName: string } };
    expect(payload).toMatchObject({ type: 'document.created', data: { id: document.id, clientName: 'Acme' } });

    const log = await until(
      () => deliveriesOf(client, endpoint.id),
      (d) => d[0]?.status === 'delivered',
      'the log',
    );
    expect(log[0]).toMatchObject({ id: payload.id, event: 'document.created', status: 'delivered', attempts: 1, responseStatus: 200, error: null });
    expect(userId).toBeTruthy();
  });

  it('retries after a 500, and sends a test event on request', async () => {
    const { client } = await member();
    const endpoint = ZCreatedWebhookEndpoint.parse((await client.post('/api/user/webhooks', { url: receiverUrl, events: ['batch.failed'] })).json());
    receiver.setSecret(endpoint.secret);
    receiver.answerNext(500);
    const queued = await client.post(`/api/user/webhooks/${endpoint.id}/test`);
    expect(queued.statusCode).toBe(202);
    const log = await until(
      () => deliveriesOf(client, endpoint.id),
      (d) => d[0]?.status === 'delivered',
      'the retry',
    );
    expect(log[0]).toMatchObject({ event: 'webhook.test', attempts: 2, status: 'delivered', responseStatus: 200 });
    const attempts = receiver.received.filter((r) => r.event === 'webhook.test').slice(-2);
    expect(attempts).toHaveLength(2);
    expect(attempts.every((a) => a.signatureValid)).toBe(true);
    // The same event both times: a receiver can tell a retry by its id.
    expect(JSON.parse(attempts[0]!.body).id).toBe(JSON.parse(attempts[1]!.body).id);
  });

  it('turns an endpoint off after its last retry fails, says why, and can turn it on again', async () => {
    const { client } = await member();
    const endpoint = ZCreatedWebhookEndpoint.parse((await client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created'] })).json());
    receiver.setSecret(endpoint.secret);
    receiver.answerNext(503, 503, 503);
    await client.post(`/api/user/webhooks/${endpoint.id}/test`);
    const log = await until(
      () => deliveriesOf(client, endpoint.id),
      (d) => d[0]?.status === 'failed',
      'the last retry',
    );
    expect(log[0]).toMatchObject({ attempts: 3, responseStatus: 503, error: 'The endpoint answered 503.', nextAttemptAt: null });
    const [off] = ((await client.get('/api/user/webhooks')).json() as unknown[]).map((e) => ZWebhookEndpoint.parse(e));
    expect(off!.disabledAt).not.toBeNull();
    expect(off!.disabledReason).toContain('3 failed attempts');
    const on = ZWebhookEndpoint.parse((await client.post(`/api/user/webhooks/${endpoint.id}/enable`)).json());
    expect(on.disabledAt).toBeNull();
  });

  it('refuses a private, local or metadata address when it is saved, in any spelling', async () => {
    const { client } = await member();
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.5/hooks',
      'http://127.0.0.2:8080/hooks',
      'http://[::1]/hooks',
      'http://[::ffff:127.0.0.2]/hooks',
      'http://[::127.0.0.2]/hooks',
      'http://[64:ff9b::a9fe:a9fe]/hooks',
    ]) {
      const refused = await client.post('/api/user/webhooks', { url, events: ['document.created'] });
      expect(refused.statusCode, url).toBe(400);
      expect(errorOf(refused), url).toMatchObject({
        code: 'validation_failed',
        fields: { url: 'This address is not allowed: it points to a private or local network. Give an address on the public internet.' },
      });
    }
    const unknown = await client.post('/api/user/webhooks', { url: 'https://no-such-host.invalid/hooks', events: ['document.created'] });
    expect(errorOf(unknown).fields).toEqual({ url: 'This address’s host could not be found. Check the spelling.' });
    expect((await client.get('/api/user/webhooks')).json()).toEqual([]);
  });

  it('never reaches a private or metadata address when sending, even one stored before it pointed there', async () => {
    const { client } = await member();
    const endpoint = ZCreatedWebhookEndpoint.parse((await client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created'] })).json());
    // As if the endpoint's name had since come to resolve inside our network.
    await t.database.db.update(webhookEndpoints).set({ url: 'http://169.254.169.254/latest/meta-data' }).where(eq(webhookEndpoints.id, endpoint.id));
    await client.post(`/api/user/webhooks/${endpoint.id}/test`);
    const [delivery] = await until(
      () => deliveriesOf(client, endpoint.id),
      (d) => (d[0]?.attempts ?? 0) >= 1 && d[0]?.status !== 'delivered' && d[0]?.error !== null,
      'the refusal',
    );
    expect((delivery as TWebhookDelivery).error).toBe('This address is not allowed: it points to a private or local network.');
    expect((delivery as TWebhookDelivery).responseStatus).toBeNull();
  });

  it('sends at most ten test events a minute per user, then answers 429 with Retry-After', async () => {
    const { client } = await member();
    const endpoint = ZCreatedWebhookEndpoint.parse((await client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created'] })).json());
    receiver.setSecret(endpoint.secret);
    for (let i = 0; i < 10; i++) expect((await client.post(`/api/user/webhooks/${endpoint.id}/test`)).statusCode, `test event ${i + 1}`).toBe(202);
    const refused = await client.post(`/api/user/webhooks/${endpoint.id}/test`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(errorOf(refused)).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^You can send 10 test events a minute\. Try again in \d+ s\.$/),
    });
    const queued = await deliveriesOf(client, endpoint.id);
    expect(queued).toHaveLength(10);
    // Another user's budget is their own.
    const other = await member();
    const theirs = ZCreatedWebhookEndpoint.parse((await other.client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created'] })).json());
    expect((await other.client.post(`/api/user/webhooks/${theirs.id}/test`)).statusCode).toBe(202);
  });

  it('tells how a batch ended: batch.completed when every row was made, batch.failed otherwise', async () => {
    const { client } = await member();
    const endpoint = ZCreatedWebhookEndpoint.parse(
      (await client.post('/api/user/webhooks', { url: receiverUrl, events: ['batch.completed', 'batch.failed'] })).json(),
    );
    receiver.setSecret(endpoint.secret);
    const { key } = (await client.post('/api/user/api-keys', { name: 'Batches' })).json() as { key: string };
    const format = (
      await client.post('/api/formats', {
        name: 'Letter',
        content: { elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{client_name}}' }] },
        placeholders: [{ name: 'client_name', type: 'text', required: true }],
      })
    ).json() as { id: string };
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/batches',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ formatId: format.id, rows: [{ client_name: 'Ann' }, { client_name: 'Bob' }] }),
    });
    expect(started.statusCode).toBe(202);
    const batchId = (started.json() as { id: string }).id;
    const delivered = await until(
      async () => receiver.received.find((r) => r.body.includes(batchId)),
      (r) => r !== undefined,
      'batch.completed',
    );
    expect(delivered!.event).toBe('batch.completed');
    expect(delivered!.signatureValid).toBe(true);
    expect(JSON.parse(delivered!.body).data).toMatchObject({ id: batchId, status: 'completed', done: 2, failed: 0 });
  });

  it('applies a new, turned-off, turned-on or deleted endpoint to the very next document', async () => {
    // The enabled endpoints are remembered between documents; every change must reach the next one.
    const { client } = await member();
    const format = (
      await client.post('/api/formats', {
        name: 'Note',
        content: { elements: [{ id: 'p', type: 'paragraph', content: 'For {{who}}' }] },
        placeholders: [{ name: 'who', type: 'text', required: true }],
      })
    ).json() as { id: string };
    const make = async (who: string) => expect((await client.post('/api/documents', { formatId: format.id, data: { who } })).statusCode).toBe(201);
    const createdFor = async (endpointId: string) => (await deliveriesOf(client, endpointId)).filter((d) => d.event === 'document.created').length;

    await make('before any endpoint');
    const endpoint = ZCreatedWebhookEndpoint.parse((await client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created'] })).json());
    receiver.setSecret(endpoint.secret);
    await make('after it was added');
    await until(
      () => deliveriesOf(client, endpoint.id),
      (d) => d.length === 1 && d[0]!.status === 'delivered',
      'the first delivery',
    );

    // Its last retry fails, which turns it off.
    receiver.answerNext(503, 503, 503);
    await client.post(`/api/user/webhooks/${endpoint.id}/test`);
    await until(
      () => deliveriesOf(client, endpoint.id),
      (d) => d[0]?.status === 'failed',
      'the last retry',
    );
    await make('while it is off');
    expect((await client.post(`/api/user/webhooks/${endpoint.id}/enable`)).statusCode).toBe(200);
    await make('once it is on again');
    await until(
      () => createdFor(endpoint.id),
      (n) => n === 2,
      'the second delivery',
    );
    // The one made while it was off was not queued.
    expect(await createdFor(endpoint.id)).toBe(2);

    // A delivery queued for a deleted endpoint would fail its foreign key, and take the other's with it.
    const other = ZCreatedWebhookEndpoint.parse((await client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created'] })).json());
    expect((await client.request('DELETE', `/api/user/webhooks/${endpoint.id}`)).statusCode).toBe(204);
    receiver.setSecret(other.secret);
    await make('after the first was deleted');
    await until(
      () => createdFor(other.id),
      (n) => n === 1,
      'the other endpoint’s delivery',
    );
  });

  it("answers 404 for another user's endpoint", async () => {
    const owner = await member();
    const stranger = await member();
    const endpoint = ZCreatedWebhookEndpoint.parse((await owner.client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created'] })).json());
    for (const [method, url] of [
      ['GET', `/api/user/webhooks/${endpoint.id}/deliveries`],
      ['POST', `/api/user/webhooks/${endpoint.id}/test`],
      ['POST', `/api/user/webhooks/${endpoint.id}/enable`],
      ['DELETE', `/api/user/webhooks/${endpoint.id}`],
    ] as const) {
      const response = await stranger.client.request(method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await stranger.client.get('/api/user/webhooks')).json()).toEqual([]);
    expect((await owner.client.request('DELETE', `/api/user/webhooks/${endpoint.id}`)).statusCode).toBe(204);
  });
});
