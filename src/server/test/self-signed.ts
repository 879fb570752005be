/**
 * A self-signed certificate made with node:crypto alone (no openssl, nothing downloaded): an EC
 * P-256 key and an X.509 v3 certificate for localhost and 127.0.0.1, DER-encoded by hand. Tests
 * serve TLS with it and trust it as the only authority, so verification stays on.
 */
import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...parts: Buffer[]) => tlv(0x30, ...parts);
const set = (...parts: Buffer[]) => tlv(0x31, ...parts);
const integer = (bytes: Buffer) => tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const bool = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0]));
const octets = (bytes: Buffer) => tlv(0x04, bytes);
const bits = (bytes: Buffer) => tlv(0x03, Buffer.from([0]), bytes);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const explicit = (n: number, ...parts: Buffer[]) => tlv(0xa0 + n, ...parts);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = arc >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function utcTime(date: Date): Buffer {
  const pad = (n: number) => String(n).padStart(2, '0');
  const text = `${pad(date.getUTCFullYear() % 100)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text));
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';

export type TSelfSigned = { key: string; cert: string };

export function selfSignedCertificate(commonName = 'localhost', dnsNames = ['localhost'], ips = ['127.0.0.1']): TSelfSigned {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
  const now = Date.now();
  const altNames = seq(...dnsNames.map((dns) => tlv(0x82, Buffer.from(dns))), ...ips.map((ip) => tlv(0x87, Buffer.from(ip.split('.').map(Number)))));
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    seq(oid(ECDSA_WITH_SHA256)),
    name,
    seq(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 24 * 3600_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(seq(oid('2.5.29.17'), octets(altNames)), seq(oid('2.5.29.19'), bool(true), octets(seq(bool(true)))))),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, seq(oid(ECDSA_WITH_SHA256)), bits(signature));
  const cert = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd()}\n-----END CERTIFICATE-----\n`;
  // Fails loudly here, not as a puzzling TLS error in a test, if the encoding is ever wrong.
  if (!new X509Certificate(cert).verify(publicKey)) throw new Error('the self-signed certificate does not verify');
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert };
}
