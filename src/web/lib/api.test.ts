import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, api, errorStatus, isUnauthorizedError, readApiError, request } from './api';

// A real server on loopback: the client is exercised through the platform's own fetch.
let server: Server;
let base: string;
const received: { method?: string; contentType?: string; body?: string }[] = [];
let busyCalls = 0;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('latin1');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
  });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({ method: req.method, contentType: req.headers['content-type'], body });
    switch (req.url) {
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, echo: body }));
        return;
      case '/empty':
        res.writeHead(204).end();
        return;
      case '/validation':
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'validation_failed', message: 'Name is required.', fields: { name: 'Name is required.' } } }));
        return;
      case '/signed-out':
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'unauthorized', message: 'Unauthorized' } }));
        return;
      case '/proxy-page':
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
        return;
      case '/plain':
        res.writeHead(409, { 'content-type': 'text/plain' }).end('Already taken');
        return;
      case '/busy-twice': {
        busyCalls++;
        if (busyCalls <= 2) {
          res
            .writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' })
            .end(JSON.stringify({ error: { code: 'unavailable', message: 'The server is busy.' } }));
        } else res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ made: body }));
        return;
      }
      case '/always-busy':
        busyCalls++;
        res
          .writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' })
          .end(JSON.stringify({ error: { code: 'unavailable', message: 'The server is busy.' } }));
        return;
      case '/busy-without-saying-when':
        busyCalls++;
        res
          .writeHead(503, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'unavailable', message: 'The invitation was saved, but its email could not be sent.' } }));
        return;
      case '/busy-for-an-hour':
        busyCalls++;
        res
          .writeHead(503, { 'content-type': 'application/json', 'retry-after': '3600' })
          .end(JSON.stringify({ error: { code: 'unavailable', message: 'Down for maintenance.' } }));
        return;
      case '/not-our-shape':
        res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'made_up', message: 7 } }));
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the API client', () => {
  it('sends a request turned away as busy (503 with a short Retry-After) again, with the same body', async () => {
    busyCalls = 0;
    expect(await api.post(`${base}/busy-twice`, { name: 'Offer' })).toEqual({ made: '{"name":"Offer"}' });
    expect(busyCalls).toBe(3);
  });

  it('gives up after a few busy answers, and does not wait out a long Retry-After', async () => {
    busyCalls = 0;
    const error = await failure(api.post(`${base}/always-busy`, {}));
    expect([error.status, error.code, error.message]).toEqual([503, 'unavailable', 'The server is busy.']);
    expect(busyCalls).toBe(4);
    busyCalls = 0;
    expect((await failure(api.get(`${base}/busy-for-an-hour`))).message).toBe('Down for maintenance.');
    expect(busyCalls).toBe(1);
  });

  it('never sends again a 503 that does not say when to come back: the server may have done the work', async () => {
    busyCalls = 0;
    expect((await failure(api.post(`${base}/busy-without-saying-when`, {}))).status).toBe(503);
    expect(busyCalls).toBe(1);
  });

  it('sends JSON and parses the JSON answer', async () => {
    const answer = await api.post<{ ok: boolean; echo: string }>(`${base}/json`, { name: 'Offer' });
    expect(answer).toEqual({ ok: true, echo: '{"name":"Offer"}' });
    expect(received.at(-1)).toMatchObject({ method: 'POST', contentType: 'application/json' });
  });

  it('sends a form as multipart, with the browser-made boundary', async () => {
    const form = new FormData();
    form.append('file', new Blob(['a,b\n1,2'], { type: 'text/csv' }), 'rows.csv');
    await api.upload(`${base}/json`, form);
    const last = received.at(-1);
    expect(last?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(last?.body).toContain('filename="rows.csv"');
    expect(last?.body).toContain('a,b\n1,2');
  });

  it('answers undefined for an empty body', async () => {
    await expect(api.delete(`${base}/empty`)).resolves.toBeUndefined();
  });

  it("turns the contract's error shape into status, code, message and fields", async () => {
    const error = await failure(api.put(`${base}/validation`, {}));
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Name is required.', fields: { name: 'Name is required.' } });
    expect(error.statusLine).toBe(`400: ${error.body}`);
    expect(error.statusLine).toContain('"code":"validation_failed"');
    expect(readApiError(error, 'Failed to save format.').fields).toEqual({ name: 'Name is required.' });
  });

  it('knows a signed-out answer', async () => {
    const error = await failure(api.get(`${base}/signed-out`));
    expect(isUnauthorizedError(error)).toBe(true);
    expect(error.statusLine).toMatch(/^401: .*Unauthorized/);
    expect(isUnauthorizedError(await failure(api.get(`${base}/validation`)))).toBe(false);
  });

  it('shows a short plain-text answer, but never an HTML page', async () => {
    expect((await failure(api.get(`${base}/plain`))).message).toBe('Already taken');
    const page = await failure(api.get(`${base}/proxy-page`));
    expect(page.status).toBe(502);
    expect(page.code).toBeNull();
    expect(readApiError(page, 'Failed to delete format. Please try again.').message).toBe('Failed to delete format. Please try again.');
  });

  it('does not trust a body that only looks like the error shape', async () => {
    const error = await failure(api.get(`${base}/not-our-shape`));
    expect(error.code).toBeNull();
    expect(readApiError(error, 'Could not import.').message).toBe('Could not import.');
  });

  it('reports an unreachable server as status 0 with a message to act on', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(request('GET', `http://127.0.0.1:${port}/`));
    expect(error.status).toBe(0);
    expect(errorStatus(error)).toBeNull();
    expect(error.message).toMatch(/Could not reach the server/);
    expect(readApiError(error, 'unused').message).toMatch(/Could not reach the server/);
  });

  it('gives the fallback for errors that did not come from a call', () => {
    expect(readApiError(new TypeError('x is undefined'), 'Failed to generate document.')).toEqual({
      status: null,
      code: null,
      message: 'Failed to generate document.',
      fields: {},
    });
  });
});
