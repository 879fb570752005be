import { readdirSync, readlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBulkJob, ZBulkUpload, type TBulkJob, type TBulkUpload } from '../../../contract/bulk.ts';
import { pdfText } from '../../../render/testdata/pdf-tools.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormat, TFormatInput } from '../../../contract/formats.ts';
import { bulkRows, documents, usageCounters, workspaces } from '../../db/schema.ts';
import { errorOf, createTestApp, TestClient, type TTestApp, signUpOnPlan } from '../../test/test-app.ts';
import { usagePeriod } from '../workspaces/index.ts';

let t: TTestApp;
beforeAll(async () => {
  // Downloads that stop being read are dropped after 3 s here (two minutes in production).
  t = await createTestApp({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', RENDER_THREADS: '2' }, { zipStallMs: 3_000 });
});
afterAll(async () => {
  await t.close();
});

/** Every entry of a ZIP: name and bytes. An entry whose bytes do not match its CRC-32 fails. */
function unzip(bytes: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: { name: string; bytes: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const data = Buffer.concat(chunks);
            if (zlib.crc32(data) !== entry.crc32) return reject(new Error(`${entry.fileName}: CRC-32 does not match its bytes`));
            entries.push({ name: entry.fileName, bytes: data });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const offerLetter: TFormatInput = {
  name: 'Offer letter',
  content: {
    elements: [
      { id: '1', type: 'heading', content: 'Offer for {{client_name}}' },
      { id: '2', type: 'paragraph', content: 'Email {{email}}. Start {{start_date}}. Salary {{salary}}.' },
    ],
  },
  placeholders: [
    { name: 'client_name', label: 'Client Name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: false },
    { name: 'start_date', label: 'Start date', type: 'date', required: false },
    { name: 'salary', label: 'Salary', type: 'number', required: false },
  ],
};

async function userWithFormat(plan: 'free' | 'basic' | 'premium' = 'basic') {
  const { client, user } = await signUpOnPlan(t, plan);
  const created = await client.post('/api/formats', offerLetter);
  expect(created.statusCode).toBe(201);
  return { client, user, format: created.json() as TFormat };
}

function csv(rows: string[][]): Buffer {
  return Buffer.from(rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',')).join('\n'));
}

function rowsOf(n: number, invalidEvery = 0): string[][] {
  return Array.from({ length: n }, (_, i) => [
    `Client ${i + 1}`,
    invalidEvery && (i + 1) % invalidEvery === 0 ? 'not-an-email' : `client${i + 1}@example.com`,
    '2026-03-01',
    String(1000 + i),
  ]);
}

const HEADER = ['Client Name', 'Email', 'Start date', 'Salary'];

async function uploadCsv(client: TestClient, formatId: string, rows: string[][], fileName = 'people.csv') {
  const response = await client.upload(`/api/formats/${formatId}/bulk`, 'file', fileName, csv(rows), 'text/csv');
  return response;
}

async function waitForJob(client: TestClient, id: string, until: (job: TBulkJob) => boolean, timeoutMs = 60_000): Promise<TBulkJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = ZBulkJob.parse((await client.get(`/api/bulk-jobs/${id}`)).json());
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} did not get there in time: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const finished = (job: TBulkJob) => ['completed', 'cancelled', 'failed'].includes(job.status);

async function usageOf(ownerId: string): Promise<number> {
  const [row] = await t.database.db
    .select()
    .from(usageCounters)
    .where(and(eq(usageCounters.ownerId, ownerId), eq(usageCounters.period, usagePeriod())));
  return row?.generations ?? 0;
}

describe('bulk generation', () => {
  it('maps matching headers, generates every row once, and serves the ZIP and the error CSV', async () => {
    const { client, user, format } = await userWithFormat();
    const uploaded = await uploadCsv(client, format.id, [HEADER, ...rowsOf(25, 10)]);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const draft: TBulkUpload = ZBulkUpload.parse(uploaded.json());
    expect(draft.mapping).toEqual({ client_name: 0, email: 1, start_date: 2, salary: 3 });
    expect(draft.unmappedPlaceholders).toEqual([]);
    expect(draft).toMatchObject({ totalRows: 25, validRows: 23, invalidRows: 2 });
    const invalid = draft.preview.filter((r) => Object.keys(r.errors).length > 0);
    expect(invalid.map((r) => r.row)).toEqual([11, 21]);
    expect(invalid[0]!.errors).toEqual({ email: 'Enter a valid email address.' });

    // "Fix first" refuses while rows are invalid.
    const refused = await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toBe('2 rows have invalid values. Fix the file and upload it again, or choose to skip invalid rows.');

    const started = await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: true });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ total: 23, skipped: 2, done: 0 });
    // A second start (double click) is refused, not run twice.
    expect((await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: true })).statusCode).toBe(409);

    const job = await waitForJob(client, draft.id, finished);
    expect(job).toMatchObject({ status: 'completed', total: 23, done: 23, failed: 0, skipped: 2 });
    expect(await usageOf(user.id)).toBe(23);

    const made = await t.database.db.select().from(documents).where(eq(documents.batchId, draft.id));
    expect(made).toHaveLength(23);
    expect(new Set(made.map((d) => d.batchRow)).size).toBe(23);

    const list = (await client.get('/api/bulk-jobs')).json() as { jobs: TBulkJob[] };
    expect(list.jobs.map((j) => j.id)).toContain(draft.id);

    const zip = await client.get(`/api/bulk-jobs/${draft.id}/documents.zip`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = await unzip(zip.rawPayload);
    expect(entries).toHaveLength(23);
    expect(entries[0]!.name).toBe('Offer letter - Client 1.pdf');
    expect(new Set(entries.map((e) => e.name)).size).toBe(23);
    const text = pdfText(entries[0]!.bytes, { layout: true });
    expect(text).toContain('Offer for Client 1');
    expect(text).toContain('client1@example.com');
    // The ZIP holds the very bytes the documents were generated with.
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(entries[0]!.bytes).digest('hex');
    expect(made.find((d) => d.batchRow === 2)?.pdfSha256).toBe(sha);
    // Without the spooled PDFs (another machine made them, or they were swept) the ZIP re-renders
    // the same bytes.
    rmSync(path.join(t.config.dataDir, 'spool', draft.id), { recursive: true, force: true });
    const again = await unzip((await client.get(`/api/bulk-jobs/${draft.id}/documents.zip`)).rawPayload);
    expect(again.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    again.forEach((e, i) => expect(e.bytes.equals(entries[i]!.bytes)).toBe(true));

    const merged = await client.get(`/api/bulk-jobs/${draft.id}/documents.pdf`);
    expect(merged.statusCode).toBe(200);
    expect(merged.headers['content-type']).toBe('application/pdf');
    const mergedText = pdfText(merged.rawPayload, { layout: true });
    expect(mergedText.match(/Offer for Client \d+/g)).toHaveLength(23);
    expect(mergedText.indexOf('Offer for Client 1\n')).toBeLessThan(mergedText.indexOf('Offer for Client 25'));

    const errors = await client.get(`/api/bulk-jobs/${draft.id}/errors.csv`);
    expect(errors.statusCode).toBe(200);
    expect(errors.headers['content-type']).toContain('text/csv');
    expect(errors.body).toBe('row,column,message\r\n11,Email,Enter a valid email address.\r\n21,Email,Enter a valid email address.\r\n');
  });

  it('names ZIP entries by pattern, sanitised and de-duplicated', async () => {
    const { client, format } = await userWithFormat();
    const rows = [HEADER, ['A/B: "x"', 'a@example.com', '', ''], ['A/B: "x"', 'b@example.com', '', ''], ['=cmd', 'c@example.com', '', '']];
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, rows)).json());
    const started = await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false, fileNamePattern: '{{client_name}}' });
    expect(started.statusCode, started.body).toBe(202);
    await waitForJob(client, draft.id, finished);
    const entries = await unzip((await client.get(`/api/bulk-jobs/${draft.id}/documents.zip`)).rawPayload);
    expect(entries.map((e) => e.name)).toEqual(['A B x.pdf', 'A B x (2).pdf', '=cmd.pdf']);
  });

  describe('a ZIP download whose client goes away', () => {
    // Each of these makes a batch of hundreds or thousands of PDFs and downloads its ZIP, some
    // twice: beside the browser journeys on PostgreSQL that alone has taken more than the default
    // 30 s. What they check waits on its own bounded deadlines (files closed, clients dropped).
    const HEAVY_TEST_TIMEOUT_MS = 120_000;
    let listening: Promise<string> | undefined;
    async function batchOf(rows: number) {
      const { client, format } = await userWithFormat('premium');
      const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, [HEADER, ...rowsOf(rows)])).json());
      expect((await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false })).statusCode).toBe(202);
      expect(await waitForJob(client, draft.id, finished)).toMatchObject({ status: 'completed', done: rows });
      const spoolDir = path.join(t.config.dataDir, 'spool', draft.id);
      const openSpoolFiles = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith(spoolDir);
          } catch {
            return false;
          }
        }).length;
      const filesClosed = async () => {
        const deadline = Date.now() + 10_000;
        while (openSpoolFiles() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        return openSpoolFiles() === 0;
      };
      const url = `${((listening ??= t.app.listen({ port: 0, host: '127.0.0.1' })), await listening)}/api/bulk-jobs/${draft.id}/documents.zip`;
      return { client, draft, url, openSpoolFiles, filesClosed };
    }

    /** A client that reads `readBytes` of the ZIP and then stops reading, without leaving. */
    async function stopReadingAfter(url: string, cookie: string, readBytes: number) {
      let received = 0;
      let ended = false;
      const request = http.get(url, { headers: { cookie } }, (response) => {
        response.on('data', (chunk: Buffer) => {
          received += chunk.byteLength;
          if (received >= readBytes) response.pause();
        });
        response.on('end', () => (ended = true));
      });
      request.on('error', () => undefined);
      await new Promise((resolve) => request.once('response', resolve));
      return { request, ended: () => ended };
    }

    /** Waits until the server holds no connection: a paused client cannot see its socket close. */
    async function serverDroppedEveryClient(): Promise<boolean> {
      const connections = () => new Promise<number>((resolve) => t.app.server.getConnections((_, n) => resolve(n)));
      const deadline = Date.now() + 20_000;
      while ((await connections()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return (await connections()) === 0;
    }

    it(
      'stops writing when the client leaves mid-way, closes its files, and serves the next download whole',
      async () => {
        const { client, draft, url, openSpoolFiles, filesClosed } = await batchOf(2500);
        // More than the writer buffers ahead of its client, so it is mid-way when the client goes.
        let received = 0;
        let openWhileSending = 0;
        await new Promise<void>((resolve, reject) => {
          const request = http.get(url, { headers: { cookie: client.cookieHeader } }, (response) => {
            expect(response.statusCode).toBe(200);
            response.on('data', (chunk: Buffer) => {
              received += chunk.byteLength;
              if (received > 64 * 1024) {
                openWhileSending = openSpoolFiles();
                request.destroy();
                resolve();
              }
            });
            response.on('end', () => reject(new Error('the whole ZIP arrived before the client left')));
          });
          request.on('error', () => undefined);
        });
        expect(openWhileSending).toBeGreaterThan(0);
        expect(await filesClosed()).toBe(true);

        const whole = await client.get(`/api/bulk-jobs/${draft.id}/documents.zip`);
        expect(whole.rawPayload.byteLength).toBeGreaterThan(16 * 1024 * 1024);
        const entries = await unzip(whole.rawPayload);
        expect(entries).toHaveLength(2500);
        expect(pdfText(entries[2499]!.bytes, { layout: true })).toContain('Offer for Client 2500');

        // A client that stays connected but stops reading is dropped after the stall time.
        const stuck = await stopReadingAfter(url, client.cookieHeader, 64 * 1024);
        expect(await serverDroppedEveryClient()).toBe(true);
        expect(stuck.ended()).toBe(false);
        stuck.request.destroy();
        expect(await filesClosed()).toBe(true);
      },
      HEAVY_TEST_TIMEOUT_MS,
    );

    it(
      'drops a client that reads nothing once the writer has appended every entry',
      async () => {
        // All of this ZIP fits in what the writer may buffer ahead: it is all appended at once.
        const { client, url, filesClosed } = await batchOf(700);
        const stuck = await stopReadingAfter(url, client.cookieHeader, 0);
        expect(await serverDroppedEveryClient()).toBe(true);
        expect(stuck.ended()).toBe(false);
        stuck.request.destroy();
        expect(await filesClosed()).toBe(true);
      },
      HEAVY_TEST_TIMEOUT_MS,
    );
  });

  it('lists documents made one at a time apart from batch documents, and batches a page at a time', async () => {
    const { client, format } = await userWithFormat();
    const single = await client.post('/api/documents', { formatId: format.id, data: { client_name: 'Solo' } });
    expect(single.statusCode, single.body).toBe(201);
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, [HEADER, ...rowsOf(3)])).json());
    expect((await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false })).statusCode).toBe(202);
    await waitForJob(client, draft.id, finished);

    const names = async (query: string) => ((await client.get(`/api/documents?${query}`)).json() as TDocument[]).map((d) => d.clientName);
    expect(await names('kind=single')).toEqual(['Solo']);
    expect((await names('kind=batch')).sort()).toEqual(['Client 1', 'Client 2', 'Client 3']);
    expect(await names('limit=10')).toHaveLength(4);
    expect((await client.get('/api/documents?kind=other')).statusCode).toBe(400);

    const jobsAt = async (offset: number) => ((await client.get(`/api/bulk-jobs?limit=1&offset=${offset}`)).json() as { jobs: TBulkJob[] }).jobs;
    expect((await jobsAt(0)).map((j) => j.id)).toEqual([draft.id]);
    expect(await jobsAt(1)).toEqual([]);
  });

  it('names a format’s files without a client name by its first text field, never by row', async () => {
    const { client } = await userWithFormat();
    const noClient = { ...JSON.parse(JSON.stringify(offerLetter).replaceAll('client_name', 'payer').replaceAll('Client Name', 'Payer')), name: 'Receipt' };
    const format = (await client.post('/api/formats', noClient)).json() as TFormat;
    const draft = ZBulkUpload.parse(
      (
        await uploadCsv(client, format.id, [
          ['Payer', 'Email'],
          ['Ann', 'a@example.com'],
          ['Bo', 'b@example.com'],
        ])
      ).json(),
    );
    expect((await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false })).statusCode).toBe(202);
    const job = await waitForJob(client, draft.id, finished);
    expect(job.fileNamePattern).toBe('{{document}}');
    const entries = await unzip((await client.get(`/api/bulk-jobs/${draft.id}/documents.zip`)).rawPayload);
    expect(entries.map((e) => e.name)).toEqual(['Receipt - Ann.pdf', 'Receipt - Bo.pdf']);
  });

  it('fails a row whose values would make a document too large to lay out, and makes the others', async () => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp();
    await t.database.db.update(workspaces).set({ subscriptionPlan: 'basic' }).where(eq(workspaces.id, user.id));
    const notes: TFormatInput = {
      name: 'Notes',
      content: { elements: Array.from({ length: 250 }, (_, i) => ({ id: String(i), type: 'paragraph' as const, content: 'Note: {{notes}}' })) },
      placeholders: [{ name: 'notes', type: 'textarea', required: false }],
    };
    const format = (await client.post('/api/formats', notes)).json() as TFormat;
    const long = 'lorem ipsum '.repeat(800).slice(0, 9_000);
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, [['Notes'], ['short'], [long], ['also short']])).json());
    await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false });
    const job = await waitForJob(client, draft.id, finished);
    expect({ status: job.status, done: job.done, failed: job.failed }).toEqual({ status: 'completed', done: 2, failed: 1 });
    const errors = (await client.get(`/api/bulk-jobs/${draft.id}/errors.csv`)).body;
    expect(errors).toMatch(/^row,column,message\r\n3,.*more than the 2 MB a document may hold\. Most of it comes from \{\{notes\}\}, used 250 times/);
    expect(await usageOf(user.id)).toBe(2);
  });

  it('escapes formula-like cells in the error CSV', async () => {
    const { client, format } = await userWithFormat();
    const rows = [
      ['Client Name', 'Email'],
      ['Ok', 'ok@example.com'],
      ['Bad', '=HYPERLINK("x")'],
    ];
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, rows)).json());
    await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: true });
    await waitForJob(client, draft.id, finished);
    const body = (await client.get(`/api/bulk-jobs/${draft.id}/errors.csv`)).body;
    expect(body).toBe('row,column,message\r\n3,Email,Enter a valid email address.\r\n');
    const { csvCell } = await import('../csv-cell.ts');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
  });

  it('lets the user map unmatched columns by hand, and checks the mapping', async () => {
    const { client, format } = await userWithFormat();
    const rows = [
      ['Full name', 'E-mail address', 'Notes'],
      ['Ann', 'ann@example.com', 'x'],
      ['Bob', 'bob@example.com', 'y'],
    ];
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, rows)).json());
    expect(draft.mapping).toEqual({ client_name: null, email: null, start_date: null, salary: null });
    expect(draft.unmappedPlaceholders).toEqual(['client_name', 'email', 'start_date', 'salary']);
    expect(draft.invalidRows).toBe(2); // the required client name is missing

    const clash = await client.request('PUT', `/api/bulk-jobs/${draft.id}/mapping`, { mapping: { client_name: 0, email: 0 } });
    expect(clash.statusCode).toBe(400);
    expect(errorOf(clash).message).toBe('The column "Full name" is mapped to both Client Name and Email. Map each column to one field.');
    const outOfRange = await client.request('PUT', `/api/bulk-jobs/${draft.id}/mapping`, { mapping: { client_name: 9 } });
    expect(errorOf(outOfRange).message).toBe('Column 10 does not exist in the file.');

    const mapped = await client.request('PUT', `/api/bulk-jobs/${draft.id}/mapping`, { mapping: { client_name: 0, email: 1 } });
    expect(mapped.statusCode, mapped.body).toBe(200);
    const view = ZBulkUpload.parse(mapped.json());
    expect(view).toMatchObject({ validRows: 2, invalidRows: 0, unusedColumns: [2] });
    expect(view.preview[0]!.values).toMatchObject({ client_name: 'Ann', email: 'ann@example.com' });
    // The draft keeps the mapping.
    expect(ZBulkUpload.parse((await client.get(`/api/bulk-jobs/${draft.id}/draft`)).json()).mapping.client_name).toBe(0);
  });

  it('checks the quota before starting and says how many documents can be made', async () => {
    const { client, user, format } = await userWithFormat('free');
    await t.database.db.insert(usageCounters).values({ ownerId: user.id, period: usagePeriod(), generations: 25 });
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, [HEADER, ...rowsOf(8)])).json());
    expect(draft.quota).toEqual({ remaining: 5, canMake: 5 });
    const refused = await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: true });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).message).toBe('Your plan can make 5 more documents this month, and this needs 8. Make fewer or upgrade your plan.');
    expect(await usageOf(user.id)).toBe(25);
  });

  it('counts the quota exactly when it runs out during a job', async () => {
    const { client, user, format } = await userWithFormat('free');
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, [HEADER, ...rowsOf(10)])).json());
    // Someone else spends the allowance between the check and the job.
    await t.database.db.insert(usageCounters).values({ ownerId: user.id, period: usagePeriod(), generations: 0 });
    const started = await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: true });
    expect(started.statusCode).toBe(202);
    await t.database.db
      .update(usageCounters)
      .set({ generations: 26 })
      .where(and(eq(usageCounters.ownerId, user.id), eq(usageCounters.period, usagePeriod())));
    const job = await waitForJob(client, draft.id, finished);
    expect(job).toMatchObject({ status: 'completed', done: 4, failed: 6 });
    expect(job.message).toContain('documents for this month were used up');
    expect(await usageOf(user.id)).toBe(30);
  });

  it('cancels a running job: no document after the cancel, the ones made are kept and counted', async () => {
    const { client, user, format } = await userWithFormat('premium');
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, [HEADER, ...rowsOf(3000)])).json());
    await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: true });
    // A batch's document cannot be deleted while the batch generates (it would be made again).
    await waitForJob(client, draft.id, (j) => j.done > 0 || finished(j));
    const [made] = (await client.get(`/api/documents?batchId=${draft.id}&limit=1`)).json() as TDocument[];
    const refused = await client.request('DELETE', `/api/documents/${made!.id}`);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toContain('still generating');
    const cancelled = await client.post(`/api/bulk-jobs/${draft.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect((await client.post(`/api/bulk-jobs/${draft.id}/cancel`)).statusCode).toBe(409);
    await new Promise((r) => setTimeout(r, 1500));
    const job = ZBulkJob.parse((await client.get(`/api/bulk-jobs/${draft.id}`)).json());
    expect(job.status).toBe('cancelled');
    const [count] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(documents)
      .where(eq(documents.batchId, draft.id));
    expect(count!.n).toBe(job.done);
    expect(job.done).toBeLessThan(3000);
    expect(await usageOf(user.id)).toBe(job.done);
    // Every row is settled: a document, or cancelled.
    const unsettled = await t.database.db
      .select()
      .from(bulkRows)
      .where(
        and(
          eq(bulkRows.jobId, draft.id),
          eq(bulkRows.status, 'pending'),
          sql`not exists (select 1 from ${documents} where ${documents.batchId} = ${draft.id} and ${documents.batchRow} = ${bulkRows.row})`,
        ),
      );
    expect(unsettled).toHaveLength(0);
    // Once the batch has stopped, its documents can be deleted.
    expect((await client.request('DELETE', `/api/documents/${made!.id}`)).statusCode).toBe(204);
  });

  it('refuses files over 10 MB with 413, and files that are not spreadsheets with a clear message', async () => {
    const { client, format } = await userWithFormat();
    const big = await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'big.csv', Buffer.alloc(10 * 1024 * 1024 + 10, 'a'));
    expect(big.statusCode).toBe(413);
    expect(errorOf(big).message).toBe('The file is larger than 10 MB. Split it into smaller files.');
    const png = await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'photo.png', Buffer.from('89504e470d0a1a0a', 'hex'));
    expect(png.statusCode).toBe(415);
    const empty = await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'empty.csv', Buffer.alloc(0));
    expect(empty.statusCode).toBeGreaterThanOrEqual(400);
    expect(empty.statusCode).toBeLessThan(500);
    expect(errorOf(empty).message).toMatch(/empty/i);
  });

  it("answers 404 for another user's upload, job, ZIP and errors", async () => {
    const { client, format } = await userWithFormat();
    const draft = ZBulkUpload.parse((await uploadCsv(client, format.id, [HEADER, ...rowsOf(2)])).json());
    await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: true });
    await waitForJob(client, draft.id, finished);
    const other = new TestClient(t.app);
    await other.signUp();
    for (const url of ['', '/draft', '/documents.zip', '/errors.csv', '/errors']) {
      expect((await other.get(`/api/bulk-jobs/${draft.id}${url}`)).statusCode, url).toBe(404);
    }
    expect((await other.post(`/api/bulk-jobs/${draft.id}/cancel`)).statusCode).toBe(404);
    expect((await other.upload(`/api/formats/${format.id}/bulk`, 'file', 'a.csv', csv([HEADER, ...rowsOf(1)]))).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(`/api/bulk-jobs/${draft.id}`)).statusCode).toBe(401);
  });
});
