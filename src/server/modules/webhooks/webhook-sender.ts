import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_SIGNATURE_HEADER } from '../../../contract/webhooks.ts';
import { filteringAgents } from '../../net/address-rule.ts';
import { connectionFailureMessage } from '../assets/index.ts';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`: the receiver recomputes it with its secret. */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

export type TWebhookAttempt = { ok: boolean; status: number | null; error: string | null };

const RECEIVER = 'The endpoint';

/**
 * Posts signed JSON to a user's endpoint through the same address filter as image fetches, so a
 * webhook cannot reach our own network. Redirects are not followed; a 2xx within the timeout is
 * success, anything else a failure with a reason the user can act on.
 */
export function createWebhookSender(options: { timeoutMs: number; allowIps: string[] }) {
  const agents = filteringAgents(options.allowIps);
  return function send(url: string, body: string, secret: string, signal?: AbortSignal, now = new Date()): Promise<TWebhookAttempt> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ ok: false, status: null, error: 'The endpoint address is not a valid URL.' });
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      return Promise.resolve({ ok: false, status: null, error: 'Only http and https endpoints are allowed.' });
    }
    return new Promise((resolve) => {
      const lib = target.protocol === 'https:' ? https : http;
      const request = lib.request(
        target,
        {
          method: 'POST',
          agent: target.protocol === 'https:' ? agents.https : agents.http,
          timeout: options.timeoutMs,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Formwork webhooks',
            [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: webhookSignature(secret, body, Math.floor(now.getTime() / 1000)),
          },
        },
        (response) => {
          // The answer's body is not needed; reading it to the end frees the socket.
          response.resume();
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          resolve({
            ok,
            status,
            error: ok
              ? null
              : status >= 300 && status < 400
                ? `The endpoint redirected (${status}); give its final address.`
                : `The endpoint answered ${status}.`,
          });
        },
      );
      const deadline = setTimeout(() => request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), options.timeoutMs);
      const abort = () => request.destroy(Object.assign(new Error('aborted'), { code: 'ABORTED' }));
      signal?.addEventListener('abort', abort, { once: true });
      request.on('close', () => {
        clearTimeout(deadline);
        signal?.removeEventListener('abort', abort);
      });
      request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      request.on('error', (error: Error & { code?: string }) =>
        resolve({
          ok: false,
          status: null,
          error:
            error.code === 'ABORTED'
              ? 'The server stopped during the attempt.'
              : error.code === 'ETIMEDOUT'
                ? `The endpoint did not answer within ${options.timeoutMs / 1000} s.`
                : connectionFailureMessage(error, RECEIVER),
        }),
      );
      request.end(body);
    });
  };
}
export type TWebhookSender = ReturnType<typeof createWebhookSender>;
