import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_REQUESTS_PER_MINUTE } from '../../../contract/demo.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';
import { documents, formats, usageCounters } from '../../db/schema.ts';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const body = { client_name: 'Priya Sharma', position: 'Designer', start_date: '2026-01-05', salary: '85000' };

describe('landing-page live demo', () => {
  it('returns a real PDF for a signed-out visitor and stores nothing', async () => {
    const response = await new TestClient(t.app, '10.9.0.1').post('/api/demo/render', body);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'formwork-demo-')), 'demo.pdf');
    writeFileSync(file, response.rawPayload);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Dear Priya Sharma');
    expect(text).toContain('January 5, 2026');
    expect(text).toContain('$85,000');
    for (const table of [formats, documents, usageCounters]) {
      expect(await t.database.db.select().from(table)).toEqual([]);
    }
  });

  it('validates the form and caps the body size', async () => {
    const client = new TestClient(t.app, '10.9.0.2');
    const bad = await client.post('/api/demo/render', { ...body, salary: 'a lot' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { fields: { salary: expect.stringMatching(/number/) } } });
    const big = await client.post('/api/demo/render', { ...body, position: 'x'.repeat(5_000) });
    expect(big.statusCode).toBe(413);
  });

  it('is rate-limited per IP with a readable 429', async () => {
    const client = new TestClient(t.app, '10.9.0.3');
    for (let i = 0; i < DEMO_REQUESTS_PER_MINUTE; i++) {
      expect((await client.post('/api/demo/render', body)).statusCode).toBe(200);
    }
    const limited = await client.post('/api/demo/render', body);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: { code: 'rate_limited', message: expect.stringMatching(/Try again in/) } });
    expect((await new TestClient(t.app, '10.9.0.4').post('/api/demo/render', body)).statusCode).toBe(200);
  });
});
