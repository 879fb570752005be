import { monitorEventLoopDelay } from 'node:perf_hooks';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents.ts';
import { MAX_EXPANDED_TEXT_CHARS } from '../../../contract/expansion.ts';
import type { TFormat, TFormatInput } from '../../../contract/formats.ts';
import { workspaces } from '../../db/schema.ts';
import { errorOf, createTestApp, type TTestApp, signUpOnPlan, TestClient } from '../../test/test-app.ts';
import { sha256Hex } from '../pdf/pdf.service.ts';

/*
 * What a hostile but signed-in user could do with one request: a document whose placeholders
 * expand to megabytes, many heavy renders at once, downloads of one document again and again.
 * None of it may stall the server for anyone else.
 */

let t: TTestApp;
let slow: TTestApp;
beforeAll(async () => {
  // The main app's budget is generous, so a loaded machine slows its heavy renders down without
  // stopping them. The budget itself is tested on `slow`, with margins both ways: a small document
  // takes a few ms, so a busy machine's render threads (which run below the event loop's priority)
  // can be starved many times over and still finish; the heavy one, shaped Arabic text up to the
  // expansion bound, takes about 4 s on a 2-core machine, more than twice the budget on one far faster.
  [t, slow] = await Promise.all([createTestApp({}, { renderBudgetMs: 60_000 }), createTestApp({}, { renderBudgetMs: 1_500 })]);
});
afterAll(async () => {
  await Promise.all([t.close(), slow.close()]);
});

/** `uses` paragraphs each printing {{notes}}: with a 10,000-character value, uses x 10 KB of text. */
function repeatedNotes(uses: number): TFormatInput {
  return {
    name: 'Notes',
    content: { elements: Array.from({ length: uses }, (_, i) => ({ id: String(i), type: 'paragraph' as const, content: 'Note: {{notes}}' })) },
    placeholders: [{ name: 'notes', type: 'textarea', required: false }],
  };
}
const tenKb = 'lorem ipsum dolor sit amet '.repeat(370).slice(0, 10_000);
/** 10,000 characters of Arabic: joined forms shaped word by word, ten times the work of as much Latin text. */
const tenKbArabic = 'مرحبا بالعالم '.repeat(720).slice(0, 10_000);

async function signedIn(app: TTestApp, plan: 'free' | 'basic' = 'basic') {
  return signUpOnPlan(app, plan);
}

describe('the expansion bound', () => {
  it('refuses a document whose filled-in text would pass the bound, naming the placeholder, before any layout', async () => {
    const { client } = await signedIn(t);
    const uses = Math.ceil(MAX_EXPANDED_TEXT_CHARS / tenKb.length) + 5;
    const format = (await client.post('/api/formats', repeatedNotes(uses))).json() as TFormat;

    const generated = await client.post('/api/documents', { formatId: format.id, data: { notes: tenKb } });
    expect(generated.statusCode).toBe(422);
    const error = errorOf(generated);
    expect(error.code).toBe('document_too_large');
    expect(error.message).toContain('{{notes}}');
    expect(error.message).toContain(`used ${uses} times`);
    expect(error.fields).toHaveProperty('notes');

    // The same format with a short value is fine.
    expect((await client.post('/api/documents', { formatId: format.id, data: { notes: 'short' } })).statusCode).toBe(201);
  });

  it('checks the unsaved preview too, whose placeholders print their labels', async () => {
    const { client } = await signedIn(t);
    const label = 'A long label for the notes field, repeated in every cell'.padEnd(60, '.');
    const cells = Array.from({ length: 1_000 }, () => Array.from({ length: 20 }, () => '{{notes}}'));
    const preview = await client.post('/api/formats/preview', {
      name: 'Many cells',
      content: { elements: [1, 2, 3].map((i) => ({ id: String(i), type: 'table', rows: cells })) },
      placeholders: [{ name: 'notes', label, type: 'text', required: false }],
    });
    expect(preview.statusCode).toBe(422);
    expect(errorOf(preview).code).toBe('document_too_large');
    expect(errorOf(preview).message).toContain('{{notes}}, used 60,000 times');
  });
});

describe('quota before work', () => {
  it('refuses a user with no generations left before rendering anything', async () => {
    const { client, user } = await signedIn(t, 'free');
    await t.database.db.update(workspaces).set({ apiCallsLimit: 0 }).where(eq(workspaces.id, user.id));
    const uses = Math.ceil(MAX_EXPANDED_TEXT_CHARS / tenKb.length) + 5;
    const format = (await client.post('/api/formats', repeatedNotes(uses))).json() as TFormat;
    // Too large and over quota: the quota answers first, so no render was even considered.
    const refused = await client.post('/api/documents', { formatId: format.id, data: { notes: tenKb } });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe('quota_exceeded');
  });
});

describe('renders off the event loop, within a budget', () => {
  it('keeps /healthz and another user answering while heavy documents render', async () => {
    const attacker = await signedIn(t);
    const uses = Math.floor(MAX_EXPANDED_TEXT_CHARS / tenKb.length) - 2;
    const format = (await attacker.client.post('/api/formats', repeatedNotes(uses))).json() as TFormat;
    const bystander = await signedIn(t);

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const began = performance.now();
    const heavy = Array.from({ length: 4 }, () => attacker.client.post('/api/documents', { formatId: format.id, data: { notes: tenKb } }));
    let settled = false;
    const all = Promise.all(heavy).finally(() => (settled = true));
    const healthz: number[] = [];
    const bystanderMs: number[] = [];
    while (!settled) {
      let started = performance.now();
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      healthz.push(performance.now() - started);
      started = performance.now();
      expect((await bystander.client.get('/api/formats')).statusCode).toBe(200);
      bystanderMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const answers = await all;
    const elapsedMs = performance.now() - began;
    loop.disable();
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    healthz.sort((a, b) => a - b);
    bystanderMs.sort((a, b) => a - b);
    const blockedMs = loop.max / 1e6;
    const figures = JSON.stringify({ elapsedMs, blockedMs, probes: healthz.length, healthzMs: healthz.at(-1), bystanderMs: bystanderMs.at(-1) });
    expect(healthz.length, figures).toBeGreaterThan(5);
    // A stall detector that scales with the machine's load, not a speed target. Rendered on the
    // event loop, each document would block it for a quarter of the run (four back to back);
    // rendered in the threads, the longest pause is a small part of it, however slow the machine.
    expect(blockedMs, figures).toBeLessThan(elapsedMs / 8);
    expect(bystanderMs.at(-1)!, figures).toBeLessThan(5_000);
  });

  it('stops a render that runs past its budget with a clear 422, and the next render works', async () => {
    const { client } = await signedIn(slow);
    const uses = Math.floor(MAX_EXPANDED_TEXT_CHARS / tenKb.length) - 2;
    const format = (await client.post('/api/formats', repeatedNotes(uses))).json() as TFormat;
    const stopped = await client.post('/api/documents', { formatId: format.id, data: { notes: tenKbArabic } });
    expect(stopped.statusCode).toBe(422);
    expect(errorOf(stopped).code).toBe('render_timeout');
    expect(errorOf(stopped).message).toMatch(/took longer than 1.5 seconds to render and was stopped/);
    // Nothing was stored or counted for it.
    expect((await client.get('/api/documents')).json()).toEqual([]);

    const small = (await client.post('/api/formats', repeatedNotes(1))).json() as TFormat;
    const fine = await client.post('/api/documents', { formatId: small.id, data: { notes: 'short' } });
    expect(fine.statusCode).toBe(201);
  });
});

describe('downloads', () => {
  it('serves a document just made from memory, renders it again once forgotten, and checks every read against its hash', async () => {
    const { client } = await signedIn(t);
    const format = (await client.post('/api/formats', repeatedNotes(3))).json() as TFormat;
    const document = (await client.post('/api/documents', { formatId: format.id, data: { notes: 'cached' } })).json() as TDocument;
    const cacheFile = path.join(t.config.dataDir, 'pdf-cache', document.id.slice(0, 2), `${document.id}.pdf`);
    const download = async (as = client, headers?: Record<string, string>) => {
      const response = await as.get(`/api/documents/${document.id}/download`, headers);
      expect(response.statusCode).toBe(200);
      return response.rawPayload;
    };

    // Had its render been slow enough to earn a file as well, the file goes, so this download can
    // only come from memory; a render again would have written the file.
    rmSync(cacheFile, { force: true });
    expect(sha256Hex(await download())).toBe(document.pdfSha256);
    expect(existsSync(cacheFile)).toBe(false);

    // A new process has forgotten it: rendered again, once for three downloads at once, and kept on disk.
    const cookie = client.cookieHeader;
    await t.restart();
    const after = new TestClient(t.app);
    const parallel = await Promise.all([download(after, { cookie }), download(after, { cookie }), download(after, { cookie })]);
    for (const bytes of parallel) expect(sha256Hex(bytes)).toBe(document.pdfSha256);
    expect(sha256Hex(readFileSync(cacheFile))).toBe(document.pdfSha256);

    // A damaged file is not served: rendered again, and the file repaired.
    await t.restart();
    const again = new TestClient(t.app);
    writeFileSync(cacheFile, 'not the document');
    expect(sha256Hex(await download(again, { cookie }))).toBe(document.pdfSha256);
    expect(sha256Hex(readFileSync(cacheFile))).toBe(document.pdfSha256);

    expect((await again.request('DELETE', `/api/documents/${document.id}`, undefined, { cookie })).statusCode).toBe(204);
    expect(existsSync(cacheFile)).toBe(false);
    expect((await again.get(`/api/documents/${document.id}/download`, { cookie })).statusCode).toBe(404);
  });

  it('keeps a document that was costly to make on disk as it is made', async () => {
    const { client } = await signedIn(t);
    // About 150 pages: far longer to render than a small document, and larger than the memory tier takes.
    const format = (await client.post('/api/formats', repeatedNotes(50))).json() as TFormat;
    const document = (await client.post('/api/documents', { formatId: format.id, data: { notes: tenKb } })).json() as TDocument;
    const cacheFile = path.join(t.config.dataDir, 'pdf-cache', document.id.slice(0, 2), `${document.id}.pdf`);
    expect(sha256Hex(readFileSync(cacheFile))).toBe(document.pdfSha256);
  });
});

describe('render warnings', () => {
  it('keeps what the renderer could not draw with the document and returns it', async () => {
    const { client } = await signedIn(t);
    const format = (await client.post('/api/formats', repeatedNotes(1))).json() as TFormat;
    const created = await client.post('/api/documents', { formatId: format.id, data: { notes: 'private use \uE000 here' } });
    expect(created.statusCode).toBe(201);
    const document = created.json() as TDocument;
    expect(document.warnings.map((w) => w.code)).toEqual(['missing_glyphs']);
    const listed = (await client.get('/api/documents')).json() as TDocument[];
    expect(listed.find((d) => d.id === document.id)?.warnings.map((w) => w.code)).toEqual(['missing_glyphs']);
  });
});
