import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS, ZCreatedWebhookEndpoint } from '../../../contract/webhooks.ts';
import { ZSignatureRequest } from '../../../contract/signature-requests.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { TestClient as Client, type TestClient, type TTestApp } from '../../test/test-app.ts';
import { startTimestampServer, type TTimestampServer } from '../../test/timestamp-server.ts';
import { startWebhookReceiver } from '../../test/webhook-receiver.ts';
import { ownerWithAgreement, readPdf, requestWhen, signingTestApp, tokenOf } from './test/signing-fixtures.ts';

/*
 * What a request tells the world as it goes: signed webhooks to the owner's endpoint on loopback,
 * and, when an administrator has set a timestamp server (an `openssl ts` stand-in), a sealed PDF
 * that carries its RFC 3161 timestamp.
 */

let t: TTestApp;
let smtp: TSmtpStandIn;
let admin: TestClient;
let tsa: TTimestampServer;
const receiver = startWebhookReceiver();
let receiverUrl = '';

beforeAll(async () => {
  // Loopback is reachable only because the operator's list says so, as an intranet host would be.
  ({ t, smtp, admin } = await signingTestApp({ webhookRetryDelaysMs: [150, 150] }, { IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1' }));
  [tsa, receiverUrl] = await Promise.all([startTimestampServer(), receiver.listen()]);
});
afterAll(async () => {
  await t?.close();
  await tsa?.close();
  await receiver.close();
});

const SIGNING_EVENTS = WEBHOOK_EVENTS.filter((event) => event.startsWith('signature_request.'));

async function ownerListening() {
  const { client, document } = await ownerWithAgreement(t, smtp, 1, 'enterprise');
  const created = await client.post('/api/user/webhooks', { url: receiverUrl, events: SIGNING_EVENTS });
  expect(created.statusCode, created.body).toBe(201);
  receiver.setSecret(ZCreatedWebhookEndpoint.parse(created.json()).secret);
  return { client, document };
}

async function eventsFor(requestId: string, count: number) {
  for (let i = 0; ; i++) {
    const mine = receiver.received.filter((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === requestId);
    if (mine.length >= count) return mine;
    if (i > 400) throw new Error(`only ${mine.map((m) => m.event).join(', ')} arrived for ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('signing webhooks and the timestamp', () => {
  it('tells the owner’s endpoint each step, signed, and seals with the timestamp server’s time', async () => {
    const saved = await admin.request('PUT', '/api/admin/seal/timestamp-url', { timestampUrl: tsa.url });
    expect(saved.statusCode, saved.body).toBe(200);
    const { client, document } = await ownerListening();
    const request = ZSignatureRequest.parse(
      (await client.post(`/api/documents/${document.id}/signature-requests`, { signers: [{ name: 'Hook Signer', email: 'hook@example.com' }] })).json(),
    );
    const token = tokenOf(request.signers[0]!.signUrl);
    expect((await new Client(t.app).get(`/api/sign/${token}`)).statusCode).toBe(200);
    expect((await new Client(t.app).post(`/api/sign/${token}`, { consent: true, signature: { type: 'typed', text: 'Hook Signer' } })).statusCode).toBe(200);
    const done = await requestWhen(client, request.id, 'completed');

    const received = await eventsFor(request.id, 4);
    expect(received.map((r) => r.event)).toEqual([
      'signature_request.sent',
      'signature_request.viewed',
      'signature_request.signed',
      'signature_request.completed',
    ]);
    expect(received.every((r) => r.signatureValid)).toBe(true);
    expect((JSON.parse(received.at(-1)!.body) as { data: { status: string; sealedSha256: string } }).data).toMatchObject({
      status: 'completed',
      sealedSha256: done.sealedSha256,
    });

    expect(done.audit.events.find((e) => e.type === 'sealed')?.details).toMatchObject({ level: 'B-T' });
    const sealed = readPdf((await client.get(`/api/signature-requests/${request.id}/pdf`)).rawPayload);
    expect(sealed.pdfsig).toContain('Signature is Valid');
    // The stand-in answered the seal's request for a timestamp, and the seal carries its token.
    expect(tsa.stamped()).toBeGreaterThan(0);
    expect(sealed.pdfsig).toContain('Total document signed');
  });

  it('records a timestamp server that fails, and seals without it', async () => {
    tsa.failWith(503);
    const { client, document } = await ownerListening();
    const request = ZSignatureRequest.parse(
      (await client.post(`/api/documents/${document.id}/signature-requests`, { signers: [{ name: 'Late Stamp', email: 'stamp@example.com' }] })).json(),
    );
    const token = tokenOf(request.signers[0]!.signUrl);
    expect((await new Client(t.app).post(`/api/sign/${token}`, { consent: true, signature: { type: 'typed', text: 'Late Stamp' } })).statusCode).toBe(200);
    const done = await requestWhen(client, request.id, 'completed');
    expect(done.audit.events.find((e) => e.type === 'timestamp_failed')?.details).toMatchObject({ server: tsa.url });
    expect(done.audit.events.find((e) => e.type === 'sealed')?.details).toMatchObject({ level: 'B-B' });
    tsa.failWith(null);
  });

  it('tells the endpoint when a signer declines', async () => {
    const { client, document } = await ownerListening();
    const request = ZSignatureRequest.parse(
      (await client.post(`/api/documents/${document.id}/signature-requests`, { signers: [{ name: 'No Thanks', email: 'no@example.com' }] })).json(),
    );
    expect((await new Client(t.app).post(`/api/sign/${tokenOf(request.signers[0]!.signUrl)}/decline`, { reason: 'Not for me.' })).statusCode).toBe(200);
    const received = await eventsFor(request.id, 2);
    expect(received.map((r) => r.event)).toEqual(['signature_request.sent', 'signature_request.declined']);
  });
});
