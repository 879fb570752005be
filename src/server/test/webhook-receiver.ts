import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A receiver on loopback that checks every signature the way an integrator would (the scheme
 * documented in the API reference), answering with the statuses it is told to.
 */
export type TReceivedWebhook = { event: string; body: string; signatureValid: boolean; timestamp: number };
export function startWebhookReceiver() {
  const received: TReceivedWebhook[] = [];
  let secret = '';
  const statuses: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = String(request.headers['formwork-signature'] ?? '');
      const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
      const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
      const signatureValid = !!parts.v1 && parts.v1.length === expected.length && timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected));
      received.push({ event: (JSON.parse(body) as { type: string }).type, body, signatureValid, timestamp: Number(parts.t) });
      response.statusCode = statuses.shift() ?? 200;
      response.end('ok');
    });
  });
  return {
    received,
    setSecret: (s: string) => (secret = s),
    answerNext: (...s: number[]) => statuses.push(...s),
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
