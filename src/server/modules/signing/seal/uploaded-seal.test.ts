import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerLetterPdf } from '../test/signing-fixtures.ts';
import { describeCertificate, readSealFile, SealFileError } from './certificates.ts';
import { sealPdf } from './seal-pdf.ts';
import { verifySeal } from './verify-seal.ts';

let dir: string;
let original: Uint8Array;

const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
const file = (name: string) => new Uint8Array(readFileSync(path.join(dir, name)));

/** A PKCS #12 file as a CA's customer gets one: the key, its certificate and the CA's. */
function issue(name: string, keyAlgorithm: string[], extensions: string[]) {
  openssl('req', '-new', '-newkey', ...keyAlgorithm, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name} seal/O=Example Ltd`);
  writeFileSync(path.join(dir, `${name}.ext`), extensions.join('\n'));
  openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '30',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.pem`,
  );
  openssl('pkcs12', '-export', '-inkey', `${name}.key`, '-in', `${name}.pem`, '-certfile', 'ca.pem', '-out', `${name}.p12`, '-passout', 'pass:correct horse');
  return file(`${name}.p12`);
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'formwork-uploaded-seal-'));
  original = offerLetterPdf();
  openssl(
    ...[
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '365',
      '-subj',
      '/CN=Example Trust CA/O=Example Trust',
    ],
    ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pdfsig(bytes: Uint8Array, name: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, bytes);
  return spawnSync('pdfsig', [target], { encoding: 'utf8' }).stdout;
}

async function refusal(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SealFileError);
  return (error as Error).message;
}

describe('a seal uploaded as a PKCS #12 file', () => {
  it('seals with an RSA key from a CA, and pdfsig and our own check accept it', async () => {
    const p12 = issue('rsa', ['rsa:2048'], ['keyUsage=critical,digitalSignature,nonRepudiation', 'extendedKeyUsage=emailProtection']);
    const certificates = await readSealFile(p12, 'correct horse');
    expect(describeCertificate(certificates.sealCertificate)).toMatchObject({ subject: 'rsa seal', issuer: 'Example Trust CA' });
    expect(Buffer.from(certificates.caCertificate).equals(Buffer.from(readPem('ca.pem')))).toBe(true);

    const sealed = await sealPdf(original, { certificates });
    const report = pdfsig(sealed.bytes, 'rsa-sealed.pdf');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signer Certificate Common Name: rsa seal');
    expect(await verifySeal(sealed.bytes, [certificates])).toMatchObject({ valid: true });
  });

  it('seals with a self-signed RSA certificate made with openssl req -x509, and with an EC P-384 key', async () => {
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'self.key', '-out', 'self.pem', '-days', '30', '-subj', '/CN=Self seal');
    openssl('pkcs12', '-export', '-inkey', 'self.key', '-in', 'self.pem', '-out', 'self.p12', '-passout', 'pass:pw');
    const self = await readSealFile(file('self.p12'), 'pw');
    expect(Buffer.from(self.caCertificate).equals(Buffer.from(self.sealCertificate))).toBe(true);
    expect(pdfsig((await sealPdf(original, { certificates: self })).bytes, 'self-sealed.pdf')).toContain('Signature Validation: Signature is Valid.');

    const ec = await readSealFile(issue('ec', ['ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], ['keyUsage=critical,digitalSignature']), 'correct horse');
    expect(pdfsig((await sealPdf(original, { certificates: ec })).bytes, 'ec-sealed.pdf')).toContain('Signature Validation: Signature is Valid.');
  });

  it('says in words why a file cannot seal', async () => {
    const p12 = issue('words', ['rsa:2048'], ['keyUsage=critical,digitalSignature']);
    expect(await refusal(readSealFile(p12, 'wrong'))).toBe('The password does not open this file.');
    expect(await refusal(readSealFile(new Uint8Array([1, 2, 3]), 'x'))).toBe('This is not a PKCS #12 file (.p12 or .pfx).');

    openssl('pkcs12', '-export', '-nokeys', '-in', 'words.pem', '-out', 'nokey.p12', '-passout', 'pass:pw');
    expect(await refusal(readSealFile(file('nokey.p12'), 'pw'))).toBe('The file holds no private key.');

    const expiry = describeCertificate(readPem('words.pem')).validUntil;
    const later = new Date(expiry.getTime() + 86_400_000);
    const day = expiry.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect(await refusal(readSealFile(p12, 'correct horse', later))).toBe(`The certificate expired on ${day}.`);

    const tls = issue('tls', ['rsa:2048'], ['keyUsage=critical,digitalSignature,keyEncipherment', 'extendedKeyUsage=serverAuth']);
    expect(await refusal(readSealFile(tls, 'correct horse'))).toMatch(/^The certificate is not for signing documents/);
    const encipher = issue('encipher', ['rsa:2048'], ['keyUsage=critical,keyEncipherment']);
    expect(await refusal(readSealFile(encipher, 'correct horse'))).toMatch(/^The certificate may not sign/);

    openssl(
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'narrow.key', '-out', 'narrow.pem', '-days', '30', '-subj', '/CN=Narrow'],
      ...['-addext', 'keyUsage=critical,digitalSignature'],
    );
    openssl('pkcs12', '-export', '-inkey', 'narrow.key', '-in', 'narrow.pem', '-out', 'narrow.p12', '-passout', 'pass:pw');
    expect(await refusal(readSealFile(file('narrow.p12'), 'pw'))).toMatch(/^The certificate is self-signed, but/);

    // Older exports encrypt with RC2 or Triple DES, which WebCrypto lacks.
    openssl('pkcs12', '-export', '-legacy', '-inkey', 'words.key', '-in', 'words.pem', '-certfile', 'ca.pem', '-out', 'legacy.p12', '-passout', 'pass:pw');
    expect(await refusal(readSealFile(file('legacy.p12'), 'pw'))).toMatch(/^This file is encrypted with an old cipher/);

    // Without the CA's certificate the seal could not be checked later.
    openssl('pkcs12', '-export', '-inkey', 'words.key', '-in', 'words.pem', '-out', 'nochain.p12', '-passout', 'pass:pw');
    expect(await refusal(readSealFile(file('nochain.p12'), 'pw'))).toMatch(/^The file lacks the certificate of the CA/);
  });
});

function readPem(name: string): Uint8Array {
  const pem = readFileSync(path.join(dir, name), 'utf8');
  return new Uint8Array(Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64'));
}
