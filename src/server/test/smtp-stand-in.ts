/**
 * A real SMTP server on loopback (the `smtp-server` package) for tests and browser journeys:
 * STARTTLS with a self-signed certificate made in the test, AUTH PLAIN/LOGIN against the accounts
 * it is given (only after TLS, as real servers insist), and every message kept as the raw bytes
 * that arrived. It can answer the next messages with a temporary 4xx, or take its time, on cue.
 */
import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { selfSignedCertificate } from './self-signed.ts';

export type TReceivedMail = {
  from: string;
  to: string[];
  /** The account that signed in, when one did. */
  user: string | undefined;
  /** Whether the session had switched to TLS when the message came. */
  secure: boolean;
  raw: Buffer;
};

export type TSmtpStandIn = {
  host: string;
  port: number;
  /** The certificate it serves, to trust as the only authority. */
  ca: string;
  messages: TReceivedMail[];
  /** The next `count` messages are answered `code text` at the end of DATA (a 4xx asks to try later). */
  answerNext(count: number, code: number, text: string): void;
  /** Waits this long before accepting each message. */
  setDelay(ms: number): void;
  /** Resolves once `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  parse(message: TReceivedMail): Promise<Email>;
  close(): Promise<void>;
};

export async function startSmtpStandIn(
  options: {
    accounts?: Record<string, string>;
    /** Whether a client may send without signing in; by default only when no accounts are given. */
    authOptional?: boolean;
    tls?: boolean;
    port?: number;
    host?: string;
  } = {},
): Promise<TSmtpStandIn> {
  const tls = options.tls ?? true;
  const accounts = options.accounts;
  const { key, cert } = selfSignedCertificate();
  const messages: TReceivedMail[] = [];
  const answers: { code: number; text: string }[] = [];
  let delayMs = 0;
  let waiters: (() => void)[] = [];

  const server = new SMTPServer({
    secure: false,
    key,
    cert,
    logger: false,
    banner: 'Formwork test SMTP',
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: options.authOptional ?? !accounts,
    allowInsecureAuth: !tls,
    ...(tls ? {} : { disabledCommands: ['STARTTLS'] }),
    size: 40 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (accounts && auth.username && accounts[auth.username] === auth.password) return callback(null, { user: auth.username });
      const failure = Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 });
      return callback(failure);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        setTimeout(() => {
          const answer = answers.shift();
          if (answer) {
            callback(Object.assign(new Error(answer.text), { responseCode: answer.code }));
            return;
          }
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: typeof session.user === 'string' ? session.user : undefined,
            secure: session.secure,
            raw: Buffer.concat(chunks),
          });
          const ready = waiters;
          waiters = [];
          for (const wake of ready) wake();
          callback();
        }, delayMs);
      });
    },
  });
  server.on('error', () => {
    // A client that drops its connection is not the test's concern.
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    host,
    port,
    ca: cert,
    messages,
    answerNext(count, code, text) {
      for (let i = 0; i < count; i++) answers.push({ code, text });
    },
    setDelay(ms) {
      delayMs = ms;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} messages, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    parse: (message) => PostalMime.parse(message.raw),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
