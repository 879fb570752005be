import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * The plumbing the payment-gateway stand-ins share: a loopback HTTP server with a small route
 * table, bodies read as JSON or form data, and helpers to answer. Each stand-in implements only
 * the requests Formwork makes, with the gateway's real shapes and real signatures.
 */

export type TRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  raw: string;
  /** JSON, or form fields parsed into nested objects as Stripe sends them (`a[b][0]=c`). */
  body: Record<string, unknown>;
  params: string[];
};
export type TReply = { status?: number; json?: unknown; html?: string; js?: string; headers?: Record<string, string> };
export type TRoute = { method: string; pattern: RegExp; handle: (request: TRequest) => TReply | Promise<TReply> };

/** `a[b][0][c]=1` → { a: { b: [ { c: '1' } ] } }, the way Stripe's form encoding nests. */
export function parseNestedForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
      const slot = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= nextIsIndex ? [] : {};
        node = container[slot] as Record<string, unknown>;
      }
    });
  }
  return root;
}

export const standInId = (prefix: string, bytes = 10) => `${prefix}${randomBytes(bytes).toString('hex')}`;

export async function startStandIn(routes: TRoute[], port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://stand-in');
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        const type = String(req.headers['content-type'] ?? '');
        if (raw && type.includes('json')) body = JSON.parse(raw) as Record<string, unknown>;
        else if (raw && type.includes('x-www-form-urlencoded')) body = parseNestedForm(raw);
        const route = routes.find((r) => r.method === req.method && r.pattern.test(url.pathname));
        let reply: TReply;
        try {
          reply = route
            ? await route.handle({
                method: req.method ?? 'GET',
                path: url.pathname,
                query: url.searchParams,
                headers: req.headers,
                raw,
                body,
                params: url.pathname.match(route.pattern)!.slice(1),
              })
            : { status: 404, json: { error: { message: `No route ${req.method} ${url.pathname}` } } };
        } catch (error) {
          reply = { status: 500, json: { error: { message: String(error) } } };
        }
        // Checkout scripts and pages are loaded cross-origin by the app's pages.
        res.setHeader('access-control-allow-origin', '*');
        for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
        res.statusCode = reply.status ?? 200;
        if (reply.html !== undefined) res.setHeader('content-type', 'text/html; charset=utf-8').end(reply.html);
        else if (reply.js !== undefined) res.setHeader('content-type', 'text/javascript; charset=utf-8').end(reply.js);
        else res.setHeader('content-type', 'application/json').end(JSON.stringify(reply.json ?? {}));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Basic auth as `id:secret`, or undefined. */
export function basicAuth(headers: IncomingMessage['headers']): { id: string; secret: string } | undefined {
  const value = String(headers.authorization ?? '');
  if (!value.startsWith('Basic ')) return undefined;
  const [id, ...rest] = Buffer.from(value.slice(6), 'base64').toString('utf8').split(':');
  return id ? { id, secret: rest.join(':') } : undefined;
}

/** A small checkout page: what a buyer sees on the gateway's side, with Pay and Fail buttons. */
export function checkoutPage(opts: { title: string; amount: string; description: string; script: string }): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(opts.title)}</title>
<style>body{font:16px system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f4f4f7;color:#111}
main{background:#fff;border-radius:12px;box-shadow:0 4px 24px #0002;padding:28px;width:min(360px,90vw)}
h1{font-size:18px;margin:0 0 4px}p{margin:4px 0 20px;color:#555}strong{display:block;font-size:28px;margin-bottom:20px}
button{display:block;width:100%;padding:12px;border-radius:8px;border:0;font-size:16px;margin-top:10px;cursor:pointer}
#pay{background:#2563eb;color:#fff}#fail{background:#eee;color:#b91c1c}</style></head>
<body><main><h1>${esc(opts.title)}</h1><p>${esc(opts.description)}</p><strong>${esc(opts.amount)}</strong>
<button id="pay" type="button">Pay ${esc(opts.amount)}</button><button id="fail" type="button">Fail payment</button></main>
<script>${opts.script}</script></body></html>`;
}

/**
 * Posts a signed webhook to the address the stand-in was given, as the gateway would, and keeps
 * what it answered; without an address nothing is sent.
 */
export async function deliverWebhook(
  url: string | undefined,
  hook: { body: string; headers: Record<string, string> },
  type: string,
  delivered: { type: string; status: number }[],
): Promise<void> {
  if (!url) return;
  try {
    const response = await fetch(url, { method: 'POST', headers: hook.headers, body: hook.body });
    delivered.push({ type, status: response.status });
  } catch {
    delivered.push({ type, status: 0 });
  }
}
