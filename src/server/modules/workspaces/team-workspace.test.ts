import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreatedApiKey } from '../../../contract/api-keys.ts';
import { ZCreatedWebhookEndpoint } from '../../../contract/webhooks.ts';
import { documents, teamMembers, usageCounters, users, workspaces } from '../../db/schema.ts';
import { finishedBatchOf } from '../../test/finished-batch.ts';
import { createTestAppWithMail, NOTICES_ACCOUNT } from '../../test/mail-test-app.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { signUpVerified, TestClient, type TTestApp } from '../../test/test-app.ts';
import { startWebhookReceiver } from '../../test/webhook-receiver.ts';

/*
 * What a team workspace does beyond sharing: one quota for all its members, bulk, email, share
 * links, webhooks and API keys, each acting for the team and recording who did it.
 */

let t: TTestApp;
let smtp: TSmtpStandIn;
const receiver = startWebhookReceiver();
let receiverUrl = '';
let people = 0;

beforeAll(async () => {
  ({ t, smtp } = await createTestAppWithMail({
    adminEmail: 'admin@workspace.example.com',
    mail: { ...NOTICES_ACCOUNT, fromAddress: 'notices@formwork.example.com', fromName: 'Formwork' },
    env: { IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1' },
    background: { webhookRetryDelaysMs: [150], webhookTimeoutMs: 2_000 },
  }));
  receiverUrl = await receiver.listen();
});
afterAll(async () => {
  await t?.close();
  await receiver.close();
});

async function person(name: string) {
  const client = new TestClient(t.app);
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${++people}@workspace.example.com`;
  const { user } = await signUpVerified(t, client, { email, firstName: name }, smtp);
  return { client, id: user.id, email };
}

/** A team with an owner and the given members (added straight into the table: invitations have their own tests). */
async function team(name: string, members: { role: 'admin' | 'editor' | 'member'; name: string }[], plan: 'free' | 'enterprise' = 'free') {
  const owner = await person(`${name}-owner`);
  const teamId = ((await owner.client.post('/api/teams', { name })).json() as { id: string }).id;
  await t.database.db.update(workspaces).set({ subscriptionPlan: plan }).where(eq(workspaces.id, teamId));
  owner.client.team = teamId;
  const others = [];
  for (const m of members) {
    const p = await person(m.name);
    await t.database.db.insert(teamMembers).values({ teamId, userId: p.id, role: m.role });
    p.client.team = teamId;
    others.push(p);
  }
  const format = await owner.client.post('/api/formats', {
    name: 'Offer Letter',
    content: { elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{client_name}}, welcome aboard.' }] },
    placeholders: [{ name: 'client_name', type: 'text', required: true }],
  });
  expect(format.statusCode, format.body).toBe(201);
  return { teamId, owner, members: others, formatId: (format.json() as { id: string }).id };
}

/** A call to the public API with `key` alone, as a program holding it makes one. */
const callWithKey = (key: string) => (method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });

describe('a team’s plan', () => {
  it('is one quota for every member: 50 generations at once by 5 members make exactly the plan’s 30', async () => {
    const { teamId, members, formatId } = await team(
      'Quota Co',
      ['one', 'two', 'three', 'four', 'five'].map((name) => ({ role: 'member' as const, name })),
    );
    const answers = await Promise.all(
      members.flatMap((m) => Array.from({ length: 10 }, (_, i) => m.client.post('/api/documents', { formatId, data: { client_name: `Row ${i}` } }))),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 403 || s === 429)).toBe(true);
    const made = await t.database.db.select().from(documents).where(eq(documents.ownerId, teamId));
    expect(made).toHaveLength(30);
    const [counter] = await t.database.db.select().from(usageCounters).where(eq(usageCounters.ownerId, teamId));
    expect(counter?.generations).toBe(30);
    // Each member's own workspace has its own quota, untouched.
    const first = members[0]!;
    first.client.team = undefined;
    const stats = (await first.client.get('/api/user/stats')).json() as { apiCallsUsed: number };
    expect(stats.apiCallsUsed).toBe(0);
    first.client.team = teamId;
    expect(((await first.client.get('/api/user/stats')).json() as { apiCallsUsed: number }).apiCallsUsed).toBe(30);
  });
});

describe('in a team workspace', () => {
  it('makes a batch whose documents are the team’s, made by the member who ran it', async () => {
    const { teamId, members, formatId } = await team('Bulk Co', [{ role: 'member', name: 'runner' }]);
    const runner = members[0]!;
    const job = await finishedBatchOf(runner.client, formatId, 'people.csv', Buffer.from('client_name\nAda\nGrace\n'));
    const made = await t.database.db.select().from(documents).where(eq(documents.batchId, job.id));
    expect(made.map((d) => [d.ownerId, d.createdBy])).toEqual([
      [teamId, runner.id],
      [teamId, runner.id],
    ]);
    const listed = (await runner.client.get(`/api/documents?createdBy=${runner.id}&kind=batch`)).json() as { createdBy: string }[];
    expect(listed).toHaveLength(2);
  });

  it('emails a document from the team, with replies to its owner, and shares one by link', async () => {
    const { owner, members, formatId } = await team('Mail Co', [{ role: 'member', name: 'sender' }]);
    const sender = members[0]!;
    const document = (await sender.client.post('/api/documents', { formatId, data: { client_name: 'Jane Doe' } })).json() as { id: string };
    const sent = await sender.client.post(`/api/documents/${document.id}/email`, { to: ['jane@client.example.com'] });
    expect(sent.statusCode, sent.body).toBe(202);
    for (let i = 0; !smtp.messages.some((m) => m.to.includes('jane@client.example.com')); i++) {
      if (i > 400) throw new Error('the email never came');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const mail = await smtp.parse(smtp.messages.find((m) => m.to.includes('jane@client.example.com'))!);
    expect(mail.from).toMatchObject({ name: 'Mail Co via Formwork', address: 'notices@formwork.example.com' });
    expect(mail.replyTo?.[0]?.address).toBe(owner.email);

    const link = await sender.client.post(`/api/documents/${document.id}/share`, {});
    expect(link.statusCode, link.body).toBe(201);
    const url = (link.json() as { url: string }).url;
    const shared = await new TestClient(t.app).get(`/api/share/${url.slice(url.lastIndexOf('/') + 1)}`);
    expect(shared.statusCode).toBe(200);
  });

  it('calls the team’s webhooks for its documents and its members', async () => {
    const { teamId, owner, members, formatId } = await team('Hook Co', [{ role: 'admin', name: 'integrator' }], 'enterprise');
    const integrator = members[0]!;
    const endpoint = ZCreatedWebhookEndpoint.parse(
      (await integrator.client.post('/api/user/webhooks', { url: receiverUrl, events: ['document.created', 'team.member_removed'] })).json(),
    );
    receiver.setSecret(endpoint.secret);
    const made = (await owner.client.post('/api/documents', { formatId, data: { client_name: 'Hooked' } })).json() as { id: string };
    const leaver = await person('leaver');
    await t.database.db.insert(teamMembers).values({ teamId, userId: leaver.id, role: 'member' });
    expect((await integrator.client.request('DELETE', `/api/teams/${teamId}/members/${leaver.id}`)).statusCode).toBe(204);
    for (let i = 0; receiver.received.filter((r) => JSON.parse(r.body).data?.teamId === teamId || JSON.parse(r.body).data?.id === made.id).length < 2; i++) {
      if (i > 200) throw new Error(`webhooks: ${receiver.received.map((r) => r.event).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const events = receiver.received.filter((r) => JSON.parse(r.body).data?.teamId === teamId || JSON.parse(r.body).data?.id === made.id);
    expect(events.map((e) => e.event).sort()).toEqual(['document.created', 'team.member_removed']);
    expect(events.every((e) => e.signatureValid)).toBe(true);
  });

  it('gives out API keys that act for the team, list only its documents, and record who made the key', async () => {
    const { teamId, owner, members, formatId } = await team('Key Co', [{ role: 'admin', name: 'keyholder' }], 'enterprise');
    const keyholder = members[0]!;
    // The owner's personal document, which the team's key must not see.
    owner.client.team = undefined;
    await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, owner.id));
    const personalFormat = (
      (
        await owner.client.post('/api/formats', {
          name: 'Private',
          content: { elements: [{ id: 'p', type: 'paragraph', content: '{{client_name}}' }] },
          placeholders: [{ name: 'client_name', type: 'text', required: true }],
        })
      ).json() as { id: string }
    ).id;
    expect((await owner.client.post('/api/documents', { formatId: personalFormat, data: { client_name: 'Mine' } })).statusCode).toBe(201);
    owner.client.team = teamId;
    expect((await owner.client.post('/api/documents', { formatId, data: { client_name: 'Ours' } })).statusCode).toBe(201);

    const created = await keyholder.client.post('/api/user/api-keys', { name: 'Team server', mode: 'live' });
    expect(created.statusCode, created.body).toBe(201);
    const key = ZCreatedApiKey.parse(created.json()).key;
    const call = callWithKey(key);
    const listed = (await call('GET', '/api/v1/documents')).json() as { data: { clientName: string }[] };
    expect(listed.data.map((d) => d.clientName)).toEqual(['Ours']);
    const made = await call('POST', '/api/v1/documents', { formatId, data: { client_name: 'By key' } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ clientName: 'By key', createdBy: keyholder.id });
    // A member below admin cannot see or make the team's keys.
    const member = await person('plain');
    await t.database.db.insert(teamMembers).values({ teamId, userId: member.id, role: 'member' });
    member.client.team = teamId;
    expect((await member.client.get('/api/user/api-keys')).statusCode).toBe(403);
  });

  it('stops a key while its maker is not one of the team’s admins or is suspended, and at once when they are removed', async () => {
    const { teamId, owner, members, formatId } = await team('Turnover Co', [{ role: 'admin', name: 'short-stay' }], 'enterprise');
    const maker = members[0]!;
    const created = await maker.client.post('/api/user/api-keys', { name: 'Integration', mode: 'live' });
    expect(created.statusCode, created.body).toBe(201);
    const key = ZCreatedApiKey.parse(created.json()).key;
    const call = callWithKey(key);
    const refusal = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const answer = await call(method, url, body);
      expect(answer.statusCode, answer.body).toBe(401);
      return (answer.json() as { error: { message: string } }).error.message;
    };
    expect((await call('GET', '/api/v1/documents')).statusCode).toBe(200);

    const setRole = async (role: string) =>
      expect((await owner.client.request('PATCH', `/api/teams/${teamId}/members/${maker.id}`, { role })).statusCode).toBe(200);
    await setRole('editor');
    expect(await refusal('GET', '/api/v1/documents')).toMatch(/no longer an admin of its team/);
    await setRole('admin');
    expect((await call('GET', '/api/v1/documents')).statusCode).toBe(200);

    await t.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, maker.id));
    expect(await refusal('GET', '/api/v1/documents')).toMatch(/suspended/);
    await t.database.db.update(users).set({ suspendedAt: null }).where(eq(users.id, maker.id));
    expect((await call('GET', '/api/v1/documents')).statusCode).toBe(200);

    expect((await owner.client.request('DELETE', `/api/teams/${teamId}/members/${maker.id}`)).statusCode).toBe(204);
    expect(await refusal('GET', '/api/v1/documents')).toMatch(/no longer an admin of its team/);
    expect(await refusal('GET', `/api/v1/formats/${formatId}`)).toMatch(/no longer an admin/);
    expect(await refusal('POST', '/api/v1/documents', { formatId, data: { client_name: 'After leaving' } })).toMatch(/no longer an admin/);
    const made = await t.database.db.select().from(documents).where(eq(documents.ownerId, teamId));
    expect(made.map((d) => d.clientName)).not.toContain('After leaving');
    // The owner's own key for the team goes on working.
    const ownersKey = await owner.client.post('/api/user/api-keys', { name: 'Owner', mode: 'live' });
    const ownerCall = await t.app.inject({
      method: 'GET',
      url: '/api/v1/documents',
      headers: { authorization: `Bearer ${ZCreatedApiKey.parse(ownersKey.json()).key}` },
    });
    expect(ownerCall.statusCode, ownerCall.body).toBe(200);
  });
});
