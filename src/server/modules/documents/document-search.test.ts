import { eq, inArray } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBulkJob } from '../../../contract/bulk.ts';
import type { TDocument } from '../../../contract/documents.ts';
import { documents, teamMembers, workspaces } from '../../db/schema.ts';
import { finishedBatchOf } from '../../test/finished-batch.ts';
import { createTestApp, errorOf, signUpVerified, TestClient, type TTestApp } from '../../test/test-app.ts';

/*
 * Finding documents: `q` and the filters of GET /api/documents and GET /api/v1/documents, always
 * within the caller's workspace; and names that tell documents apart without a client name.
 */

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const enterprise = (id: string) => t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, id));

async function person() {
  const client = new TestClient(t.app);
  const { user } = await signUpVerified(t, client);
  await enterprise(user.id);
  return { client, id: user.id };
}

async function formatOf(client: TestClient, name: string, field: string): Promise<string> {
  const created = await client.post('/api/formats', {
    name,
    content: { elements: [{ id: 'p', type: 'paragraph', content: `For {{${field}}}.` }] },
    placeholders: [
      { name: 'amount', type: 'number' },
      { name: field, type: 'text' },
    ],
  });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { id: string }).id;
}

async function make(client: TestClient, formatId: string, data: Record<string, string>, createdAt?: string): Promise<TDocument> {
  const made = await client.post('/api/documents', { formatId, data });
  expect(made.statusCode, made.body).toBe(201);
  const document = made.json() as TDocument;
  if (createdAt)
    await t.database.db
      .update(documents)
      .set({ createdAt: new Date(createdAt) })
      .where(eq(documents.id, document.id));
  return document;
}

const namesOf = async (client: TestClient, query: string) => {
  const answer = await client.get(`/api/documents?${query}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as TDocument[]).map((d) => d.name).sort();
};

describe('GET /api/documents search and filters', () => {
  let me: Awaited<ReturnType<typeof person>>;
  let offerId = '';
  let receiptId = '';
  let otherOfferId = '';
  beforeAll(async () => {
    me = await person();
    offerId = await formatOf(me.client, 'Offer Letter', 'client_name');
    receiptId = await formatOf(me.client, 'Receipt', 'payer');
    await make(me.client, offerId, { client_name: 'Jane Doe' }, '2026-01-10T23:30:00Z');
    await make(me.client, offerId, { client_name: 'Ann Lee' }, '2026-01-11T00:10:00Z');
    await make(me.client, receiptId, { payer: 'Acme 100%' }, '2026-02-01T12:00:00Z');

    // Another user's and another team's documents that would match every search below.
    const other = await person();
    otherOfferId = await formatOf(other.client, 'Offer Letter', 'client_name');
    await make(other.client, otherOfferId, { client_name: 'Jane Doe' }, '2026-01-10T12:00:00Z');
    const teamId = ((await me.client.post('/api/teams', { name: 'Search Co' })).json() as { id: string }).id;
    await enterprise(teamId);
    me.client.team = teamId;
    const teamOffer = await formatOf(me.client, 'Offer Letter', 'client_name');
    await make(me.client, teamOffer, { client_name: 'Jane Doe' }, '2026-01-10T12:00:00Z');
    me.client.team = undefined;
  });

  it('matches q in the name, the client name and the format name, in any case, only in the caller’s workspace', async () => {
    expect(await namesOf(me.client, 'q=JANE')).toEqual([expect.stringMatching(/^Offer Letter - Jane Doe - /)]);
    expect(await namesOf(me.client, 'q=receipt')).toHaveLength(1);
    expect((await (await me.client.get('/api/documents?q=acme')).json()) as TDocument[]).toMatchObject([
      { clientName: 'Unknown Client', formatName: 'Receipt' },
    ]);
    expect(await namesOf(me.client, 'q=offer%20letter')).toHaveLength(2);
    // `%` and `_` are the characters typed, not wildcards.
    expect(await namesOf(me.client, `q=${encodeURIComponent('100%')}`)).toHaveLength(1);
    expect(await namesOf(me.client, `q=${encodeURIComponent('%')}`)).toHaveLength(1);
    expect(await namesOf(me.client, 'q=_')).toEqual([]);
    // An empty search is no search.
    expect(await namesOf(me.client, 'q=')).toHaveLength(3);
    expect(await namesOf(me.client, 'q=%20%20')).toHaveLength(3);
  });

  it('filters by format; another user’s format matches nothing here', async () => {
    expect(await namesOf(me.client, `formatId=${offerId}`)).toHaveLength(2);
    expect(await namesOf(me.client, `formatId=${receiptId}&q=jane`)).toEqual([]);
    expect(await namesOf(me.client, `formatId=${otherOfferId}`)).toEqual([]);
  });

  it('filters by day, both ends included, in UTC', async () => {
    expect(await namesOf(me.client, 'from=2026-01-11&to=2026-01-11')).toHaveLength(1);
    expect((await namesOf(me.client, 'to=2026-01-10'))[0]).toContain('Jane Doe');
    expect(await namesOf(me.client, 'from=2026-01-11')).toHaveLength(2);
    expect(await namesOf(me.client, 'from=2026-01-10&to=2026-02-01')).toHaveLength(3);
    expect(await namesOf(me.client, 'from=2026-02-02')).toEqual([]);
  });

  it('pages through filtered results', async () => {
    const page = async (offset: number) => (await me.client.get(`/api/documents?q=offer&limit=1&offset=${offset}`)).json() as TDocument[];
    const [first, second, third] = [await page(0), await page(1), await page(2)];
    expect(first.map((d) => d.clientName)).toEqual(['Ann Lee']);
    expect(second.map((d) => d.clientName)).toEqual(['Jane Doe']);
    expect(third).toEqual([]);
  });

  it('refuses invalid values with 400 in the one error shape', async () => {
    for (const query of ['from=2026-02-30', 'from=yesterday', 'to=2026-1-5', 'from=2026-02-02&to=2026-02-01', `q=${'x'.repeat(201)}`, 'formatId=', 'limit=0']) {
      const answer = await me.client.get(`/api/documents?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(errorOf(answer).code, query).toBe('validation_failed');
    }
  });

  // Days past these once reached PostgreSQL as times it cannot read (year 0, year 10000): a 500.
  it('takes days from 1970-01-01 to 9998-12-31 and refuses others with 400, in the app and the API', async () => {
    expect(await namesOf(me.client, 'from=1970-01-01&to=9998-12-31')).toHaveLength(3);
    const key = ((await me.client.post('/api/user/api-keys', { name: 'Days' })).json() as { key: string }).key;
    const v1 = (query: string) => t.app.inject({ method: 'GET', url: `/api/v1/documents?${query}`, headers: { authorization: `Bearer ${key}` } });
    expect(((await v1('from=1970-01-01&to=9998-12-31')).json() as { data: unknown[] }).data).toHaveLength(3);
    for (const query of ['to=9999-12-31', 'from=9999-01-01', 'from=0000-01-01', 'to=0001-01-01', 'from=1969-12-31', 'to=10000-01-01', 'from=-001-01-01']) {
      for (const answer of [await me.client.get(`/api/documents?${query}`), await v1(query)]) {
        expect(answer.statusCode, query).toBe(400);
        const field = query.split('=')[0]!;
        expect(errorOf(answer), query).toMatchObject({
          code: 'validation_failed',
          fields: { [field]: 'Use a date as YYYY-MM-DD, from 1970-01-01 to 9998-12-31.' },
        });
      }
    }
  });

  it('takes the same parameters in the API, with its cursor paging', async () => {
    const key = ((await me.client.post('/api/user/api-keys', { name: 'Search' })).json() as { key: string }).key;
    const v1 = async (query: string) => {
      const answer = await t.app.inject({ method: 'GET', url: `/api/v1/documents?${query}`, headers: { authorization: `Bearer ${key}` } });
      return { status: answer.statusCode, body: answer.json() as { data: { name: string; clientName: string }[]; nextCursor: string | null } };
    };
    expect((await v1('q=jane')).body.data.map((d) => d.clientName)).toEqual(['Jane Doe']);
    expect((await v1(`formatId=${receiptId}`)).body.data).toHaveLength(1);
    expect((await v1(`formatId=${otherOfferId}`)).body.data).toEqual([]);
    expect((await v1('from=2026-01-11&to=2026-01-11')).body.data.map((d) => d.clientName)).toEqual(['Ann Lee']);
    const first = await v1('q=offer&limit=1');
    expect(first.body.data.map((d) => d.clientName)).toEqual(['Ann Lee']);
    const second = await v1(`q=offer&limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((d) => d.clientName)).toEqual(['Jane Doe']);
    expect(second.body.nextCursor).toBeNull();
    const bad = await v1('to=2026-13-01');
    expect(bad.status).toBe(400);
    expect((bad.body as unknown as { error: { code: string } }).error.code).toBe('validation_failed');
  });
});

describe('a team’s documents and batches by member', () => {
  it('lists only the member’s documents and batches, and never another workspace’s', async () => {
    const owner = await person();
    const member = await person();
    const teamId = ((await owner.client.post('/api/teams', { name: 'Member Co' })).json() as { id: string }).id;
    await enterprise(teamId);
    await t.database.db.insert(teamMembers).values({ teamId, userId: member.id, role: 'member' });
    owner.client.team = teamId;
    member.client.team = teamId;
    const formatId = await formatOf(owner.client, 'Offer Letter', 'client_name');
    await make(owner.client, formatId, { client_name: 'Owner Made' });
    await make(member.client, formatId, { client_name: 'Member Made' });
    const batch = await finishedBatchOf(member.client, formatId, 'people.csv', Buffer.from('Client Name\nRow One\n'));
    // The owner's own workspace has one of the same name, never listed in the team.
    owner.client.team = undefined;
    const personal = await formatOf(owner.client, 'Offer Letter', 'client_name');
    await make(owner.client, personal, { client_name: 'Member Made' });
    owner.client.team = teamId;

    expect(await namesOf(owner.client, `kind=single&createdBy=${member.id}`)).toEqual([expect.stringContaining('Member Made')]);
    expect(await namesOf(owner.client, `kind=single&createdBy=${owner.id}&q=made`)).toEqual([expect.stringContaining('Owner Made')]);
    expect(await namesOf(owner.client, `q=member`)).toEqual([expect.stringContaining('Member Made')]);
    const jobs = async (by: string) => ((await owner.client.get(`/api/bulk-jobs?createdBy=${by}`)).json() as { jobs: TBulkJob[] }).jobs.map((j) => j.id);
    expect(await jobs(member.id)).toEqual([batch.id]);
    expect(await jobs(owner.id)).toEqual([]);
  });
});

/** The names of a ZIP's entries, in order. */
function zipNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('names without a client name', () => {
  it('names a document by the first text field filled in, and its download after it', async () => {
    const { client } = await person();
    const formatId = await formatOf(client, 'Offer letter', 'candidate');
    const jane = await make(client, formatId, { amount: '12', candidate: 'Jane Doe' });
    const ann = await make(client, formatId, { candidate: 'Ann Lee' });
    const today = new Date().toISOString().slice(0, 10);
    expect(jane.name).toBe(`Offer letter - Jane Doe - ${today}`);
    expect(ann.name).toBe(`Offer letter - Ann Lee - ${today}`);
    expect(jane.clientName).toBe('Unknown Client');
    const download = await client.get(`/api/documents/${jane.id}/download`);
    expect(download.headers['content-disposition']).toContain(`Offer letter - Jane Doe - ${today}.pdf`);
  });

  it('names a batch’s PDFs the same way, numbering only names that collide, never by row', async () => {
    const { client } = await person();
    const formatId = await formatOf(client, 'Receipt', 'payer');
    const job = await finishedBatchOf(client, formatId, 'payers.csv', Buffer.from('Payer\nAnn\nBo\nann\n'));
    expect(job.fileNamePattern).toBe('{{document}}');
    const made = await t.database.db
      .select()
      .from(documents)
      .where(inArray(documents.batchId, [job.id]));
    expect(made.map((d) => d.name).sort()).toEqual(['Receipt - Ann', 'Receipt - Bo', 'Receipt - ann']);
    const names = await zipNames((await client.get(`/api/bulk-jobs/${job.id}/documents.zip`)).rawPayload);
    expect(names).toEqual(['Receipt - Ann.pdf', 'Receipt - Bo.pdf', 'Receipt - ann (2).pdf']);
    expect(names.some((n) => /row/i.test(n))).toBe(false);
  });
});
