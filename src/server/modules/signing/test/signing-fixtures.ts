import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { ZSignatureRequestDetail, type TSignatureRequestDetail } from '../../../../contract/signature-requests.ts';
import { STARTER_FORMATS } from '../../../../contract/starter-formats/index.ts';
import { renderPdf } from '../../../../render/index.ts';
import { workspaces } from '../../../db/schema.ts';
import type { TBuildAppOptions } from '../../../app.ts';
import { createTestAppWithMail } from '../../../test/mail-test-app.ts';
import type { TSmtpStandIn } from '../../../test/smtp-stand-in.ts';
import { signUpVerified, TestClient, type TTestApp } from '../../../test/test-app.ts';

/** A test app whose installation sends mail through an SMTP stand-in on loopback, as signing needs. */
export const signingTestApp = (background: TBuildAppOptions['background'] = {}, env: Record<string, string> = {}) =>
  createTestAppWithMail({
    adminEmail: 'root@example.com',
    mail: { user: 'relay', password: 'relay-pass', fromAddress: 'documents@formwork.test', fromName: 'Formwork' },
    background,
    env,
  });

/**
 * An agreement with a signature and a name for two signers, and a document of it, made by a new
 * user on a paid plan.
 */
export async function ownerWithAgreement(t: TTestApp, smtp: TSmtpStandIn, roles = 2, plan: 'basic' | 'enterprise' = 'basic') {
  const client = new TestClient(t.app);
  const { user } = await signUpVerified(t, client, { firstName: 'Olivia', lastName: 'Owner' }, smtp);
  await t.database.db.update(workspaces).set({ subscriptionPlan: plan }).where(eq(workspaces.id, user.id));
  const signing = Array.from({ length: roles }, (_, i) => [
    { name: `signature_${i + 1}`, type: 'signature', signer: i + 1 },
    { name: `name_${i + 1}`, type: 'signer_name', signer: i + 1 },
  ]).flat();
  const format = await client.post('/api/formats', {
    name: 'Tenancy Agreement',
    content: {
      elements: [
        { id: 'p', type: 'paragraph', content: 'This agreement is made with {{tenant}}.' },
        ...signing.map((p) => ({ id: `e-${p.name}`, type: 'paragraph', content: `{{${p.name}}}` })),
      ],
    },
    placeholders: [{ name: 'tenant', type: 'text', required: true }, ...signing],
  });
  expect(format.statusCode, format.body).toBe(201);
  const document = await client.post('/api/documents', { formatId: (format.json() as { id: string }).id, data: { tenant: 'Jane Doe' } });
  expect(document.statusCode, document.body).toBe(201);
  return { client, userId: user.id, document: document.json() as { id: string; name: string } };
}

/** The token at the end of a signing link. */
export const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** Waits until the request's status is `status` (the worker seals in the background). */
export async function requestWhen(
  client: TestClient,
  id: string,
  status: string | ((detail: TSignatureRequestDetail) => boolean),
): Promise<TSignatureRequestDetail> {
  const reached = typeof status === 'string' ? (detail: TSignatureRequestDetail) => detail.status === status : status;
  for (let i = 0; ; i++) {
    const detail = ZSignatureRequestDetail.parse((await client.get(`/api/signature-requests/${id}`)).json());
    if (reached(detail)) return detail;
    if (i > 600) throw new Error(`request ${id} stayed ${detail.status}: ${detail.audit.events.map((e) => e.type).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The messages that reached `address`, in order. */
export const mailTo = (smtp: TSmtpStandIn, address: string) => smtp.messages.filter((m) => m.to.includes(address));

/** Waits until `address` has `count` messages. */
export async function waitForMail(smtp: TSmtpStandIn, address: string, count: number) {
  for (let i = 0; mailTo(smtp, address).length < count; i++) {
    if (i > 600) throw new Error(`${address} got ${mailTo(smtp, address).length} of ${count} emails`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return mailTo(smtp, address);
}

/** What poppler's tools, independent readers, say of a PDF. */
export function readPdf(bytes: Uint8Array) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-signed-'));
  const file = path.join(dir, 'signed.pdf');
  writeFileSync(file, bytes);
  try {
    return {
      text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }),
      pdfsig: spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout,
      qpdf: spawnSync('qpdf', ['--check', file], { encoding: 'utf8' }).stdout,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The starter offer letter, filled in: a real document of the kind people send for signature. */
export function offerLetterPdf(): Uint8Array {
  const offer = STARTER_FORMATS.find((starter) => starter.id === 'offer-letter')!;
  return renderPdf({
    format: offer,
    data: { candidate_name: 'Ada Lovelace', company_name: 'Analytical Engines Ltd' },
    assets: {},
    meta: { title: offer.name, creationDate: new Date('2026-11-26T00:00:00Z') },
  }).pdf;
}
