import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBatchSignatureProgress, ZBatchSignatureResult } from '../../../contract/signature-requests.ts';
import { workspaces } from '../../db/schema.ts';
import { finishedBatchOf } from '../../test/finished-batch.ts';
import { signingTestApp } from './test/signing-fixtures.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { errorOf, signUpVerified, TestClient, type TTestApp } from '../../test/test-app.ts';

/*
 * "Send each for signature" of a finished batch: one request per row, its signer read from the
 * spreadsheet, and each row sent once however often it is asked, across a restart too.
 */

const ROWS = 20;
let t: TTestApp;
let smtp: TSmtpStandIn;

beforeAll(async () => {
  ({ t, smtp } = await signingTestApp());
});
afterAll(async () => {
  await t?.close();
});

function spreadsheet(): Buffer {
  const lines = [['Tenant', 'Email']];
  for (let i = 1; i <= ROWS; i++) lines.push([`Tenant ${i}`, `tenant${i}@example.com`]);
  lines.push(['No Address', '']);
  return Buffer.from(lines.map((line) => line.join(',')).join('\n'));
}

async function finishedBatch() {
  const client = new TestClient(t.app);
  const { user } = await signUpVerified(t, client, { firstName: 'Bea', lastName: 'Batch' }, smtp);
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
  const format = (
    await client.post('/api/formats', {
      name: 'Lease',
      content: {
        elements: [
          { id: 'p', type: 'paragraph', content: 'Lease for {{tenant}}.' },
          { id: 's', type: 'paragraph', content: '{{tenant_signature}}' },
        ],
      },
      placeholders: [
        { name: 'tenant', type: 'text', required: true },
        { name: 'tenant_signature', type: 'signature', signer: 1 },
      ],
    })
  ).json() as { id: string };
  const job = await finishedBatchOf(client, format.id, 'tenants.csv', spreadsheet());
  return { client, jobId: job.id };
}

describe('sending a batch for signature', () => {
  it('makes one request per row, each signer emailed, and sends each row once across a restart', async () => {
    const { client, jobId } = await finishedBatch();
    const same = await client.post(`/api/bulk-jobs/${jobId}/signature-requests`, { nameColumn: 1, emailColumn: 1 });
    expect(errorOf(same).message).toMatch(/different columns/);

    const first = await client.post(`/api/bulk-jobs/${jobId}/signature-requests`, { nameColumn: 0, emailColumn: 1, message: 'Please sign your lease.' });
    expect(first.statusCode, first.body).toBe(200);
    expect(ZBatchSignatureResult.parse(first.json())).toEqual({
      total: ROWS + 1,
      created: ROWS,
      alreadySent: 0,
      failed: [{ row: ROWS + 2, problem: 'No email address in this row.' }],
    });
    for (let i = 1; i <= ROWS; i++) {
      for (let wait = 0; !smtp.messages.some((m) => m.to.includes(`tenant${i}@example.com`)); wait++) {
        if (wait > 400) throw new Error(`tenant${i} got no invitation`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    // A deploy in between: the new server finds the rows already sent.
    const cookie = client.cookieHeader;
    await t.restart();
    const after = new TestClient(t.app);
    const again = await after.post(`/api/bulk-jobs/${jobId}/signature-requests`, { nameColumn: 0, emailColumn: 1 }, { cookie });
    expect(again.statusCode, again.body).toBe(200);
    expect(ZBatchSignatureResult.parse(again.json())).toMatchObject({ total: ROWS + 1, created: 0, alreadySent: ROWS });
    const progress = ZBatchSignatureProgress.parse((await after.get(`/api/bulk-jobs/${jobId}/signature-requests`, { cookie })).json());
    expect(progress.requests).toBe(ROWS);
    expect(progress.byStatus.sent).toBe(ROWS);
    expect(smtp.messages.filter((m) => m.to.some((to) => to.startsWith('tenant1@')))).toHaveLength(1);
  });

  it('answers 404 for another user’s batch', async () => {
    const { jobId } = await finishedBatch();
    const other = new TestClient(t.app);
    await signUpVerified(t, other, {}, smtp);
    expect((await other.post(`/api/bulk-jobs/${jobId}/signature-requests`, { nameColumn: 0, emailColumn: 1 })).statusCode).toBe(404);
    expect((await other.get(`/api/bulk-jobs/${jobId}/signature-requests`)).statusCode).toBe(404);
  });
});
