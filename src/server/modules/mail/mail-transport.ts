/**
 * Talking SMTP (nodemailer): one connection per message, TLS as the settings ask, and every failure
 * turned into a sentence a user can act on, with the server's own answer kept beside it. A user's
 * own server is reached only at an address the address rule allows (`net/address-rule.ts`, as
 * for image fetches and webhooks), checked after DNS; the connection goes to the address that was
 * checked, so DNS cannot change it in between.
 */
import net from 'node:net';
import nodemailer from 'nodemailer';
import type { NodemailerError, SendMailOptions, SMTPTransportOptions } from 'nodemailer';
import { IMPLICIT_TLS_PORT } from '../../../contract/mail.ts';
import { AddressNotAllowedError, allowedAddressesOf } from '../../net/address-rule.ts';

export type TSmtpServer = {
  host: string;
  port: number;
  secure: boolean;
  /** Empty: the server takes mail without signing in. */
  user: string;
  password: string | null;
};

export type TMailOutcome =
  | { ok: true; response: string; rejected: string[] }
  | {
      ok: false;
      /** Worth trying again later: a 4xx answer, or the server could not be reached. */
      temporary: boolean;
      /** The SMTP server's own answer, when it gave one. */
      response: string | null;
      /** What happened, for the user (never a password, never an address inside our network). */
      message: string;
    };

export type TMailer = {
  send(server: TSmtpServer, message: SendMailOptions, options: { checkAddress: boolean; signal?: AbortSignal }): Promise<TMailOutcome>;
};

const server = (host: string) => `The mail server ${host}`;
const REFUSED_SERVER = 'This mail server’s address is not allowed: it points to a private or local network.';

/** A failure as the user reads it, and whether trying later may help. */
export function describeFailure(error: NodemailerError, host: string): Exclude<TMailOutcome, { ok: true }> {
  const response = error.response?.trim() || null;
  const answered = typeof error.responseCode === 'number';
  // With an SMTP answer, its class decides (4xx may pass later, 5xx will not); without one, the
  // server was not reached or went away, which a later attempt may get past.
  const temporary = answered ? error.permanent === false : !['EAUTH', 'ENOAUTH', 'ETLS', 'ECONFIG', 'EENVELOPE', 'EMESSAGE'].includes(error.code ?? '');
  const said = response ? `: ${response}` : '.';
  switch (error.code) {
    case 'EAUTH':
      return { ok: false, temporary, response, message: `${server(host)} refused the user name or password${said}` };
    case 'ENOAUTH':
      return { ok: false, temporary: false, response, message: `${server(host)} needs a user name and password.` };
    case 'EENVELOPE':
      return { ok: false, temporary, response, message: `${server(host)} refused the sender or the recipients${said}` };
    case 'EMESSAGE':
      return { ok: false, temporary, response, message: `${server(host)} refused the message${said}` };
    case 'ETLS':
      return {
        ok: false,
        temporary: false,
        response,
        message: /certificate|self.signed|altnames|hostname/i.test(error.message)
          ? `${server(host)}’s certificate is not valid for ${host}.`
          : `${server(host)} could not start an encrypted connection. Check the port and the secure setting.`,
      };
    case 'EDNS':
      return { ok: false, temporary, response, message: `${server(host)} could not be found.` };
    case 'ETIMEDOUT':
      return { ok: false, temporary: true, response, message: `${server(host)} did not answer in time.` };
    case 'EABORT':
      return { ok: false, temporary: true, response, message: 'The server stopped before this attempt finished.' };
    default:
      break;
  }
  if (answered) return { ok: false, temporary, response, message: `${server(host)} answered${said}` };
  const cause = (error.originalCode ?? error.code ?? '').toUpperCase();
  if (/CERT|SELF_SIGNED|ERR_TLS/.test(cause) || /certificate/i.test(error.message)) {
    return { ok: false, temporary: false, response, message: `${server(host)}’s certificate is not valid for ${host}.` };
  }
  if (cause === 'ECONNREFUSED') return { ok: false, temporary, response, message: `${server(host)} refused the connection on this port.` };
  if (/wrong version number|packet length too long|unknown protocol/i.test(error.message)) {
    return {
      ok: false,
      temporary: false,
      response,
      message: `${server(host)} does not speak TLS on this port. Turn “secure” off for STARTTLS ports, or use port ${IMPLICIT_TLS_PORT}.`,
    };
  }
  return { ok: false, temporary, response, message: `${server(host)} could not be reached.` };
}

export function createMailer(options: {
  /** IPs an operator trusts even though they are private (as for image fetches). */
  allowIps: string[];
  /** Extra certificate authorities to trust (tests; operators use NODE_EXTRA_CA_CERTS). */
  trustedCa?: string[];
  /** Our name in EHLO: this installation's host. */
  clientName: string;
  timeoutMs?: { connect: number; idle: number };
}): TMailer {
  const timeouts = options.timeoutMs ?? { connect: 15_000, idle: 60_000 };
  return {
    async send(smtp, message, { checkAddress, signal }) {
      let host = smtp.host;
      try {
        // The host's first address, once every address it has is allowed.
        if (checkAddress) host = (await allowedAddressesOf(smtp.host, options.allowIps))[0]!;
      } catch (error) {
        if (error instanceof AddressNotAllowedError) return { ok: false, temporary: false, response: null, message: REFUSED_SERVER };
        const code = (error as NodeJS.ErrnoException).code;
        return { ok: false, temporary: code === 'EAI_AGAIN', response: null, message: `${server(smtp.host)} could not be found.` };
      }
      const implicitTls = smtp.port === IMPLICIT_TLS_PORT;
      const named = net.isIP(smtp.host.replace(/^\[|\]$/g, '')) === 0;
      const transportOptions: SMTPTransportOptions = {
        host,
        port: smtp.port,
        secure: implicitTls,
        requireTLS: !implicitTls && smtp.secure,
        name: options.clientName,
        connectionTimeout: timeouts.connect,
        greetingTimeout: timeouts.connect,
        socketTimeout: timeouts.idle,
        dnsTimeout: timeouts.connect,
        // Nothing of the conversation (credentials included) goes to any log.
        logger: false,
        debug: false,
        tls: {
          ...(named ? { servername: smtp.host } : {}),
          minVersion: 'TLSv1.2',
          ...(options.trustedCa?.length ? { ca: options.trustedCa } : {}),
        },
        ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
      };
      const transport = nodemailer.createTransport(transportOptions);
      try {
        const info = await transport.sendMail({ ...message, ...(signal ? { signal } : {}) });
        const rejected = (info.rejected ?? []).map(String);
        return { ok: true, response: String(info.response ?? '').trim(), rejected };
      } catch (error) {
        return describeFailure(error as NodemailerError, smtp.host);
      } finally {
        transport.close();
      }
    },
  };
}
