import { createPrivateKey, createPublicKey, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import { pkijs, type CryptoKey } from './pki.ts';

const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extendedKeyUsage: '2.5.29.37',
  subjectKeyIdentifier: '2.5.29.14',
  authorityKeyIdentifier: '2.5.29.35',
  // RFC 9336: a certificate for signing documents, not for TLS or email.
  documentSigning: '1.3.6.1.5.5.7.3.36',
} as const;

/** The installation's seal: a small CA, and the certificate it issued to seal completed documents. */
export type TSealCertificates = {
  caCertificate: Uint8Array;
  sealCertificate: Uint8Array;
  /** PKCS #8, DER. Stored only encrypted. */
  sealPrivateKey: Uint8Array;
};

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

function name(commonName: string, organization: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({ type: OID.organization, value: new asn1js.Utf8String({ value: organization }) }),
      new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: commonName }) }),
    ],
  });
}

/** keyUsage bits, most significant first: digitalSignature(0), nonRepudiation(1), keyCertSign(5), cRLSign(6). */
function keyUsage(bits: number[]): pkijs.Extension {
  let byte = 0;
  for (const bit of bits) byte |= 0x80 >> bit;
  const unused = 7 - Math.max(...bits);
  return new pkijs.Extension({
    extnID: OID.keyUsage,
    critical: true,
    extnValue: new asn1js.BitString({ valueHex: new Uint8Array([byte]).buffer, unusedBits: unused }).toBER(false),
  });
}

async function keyIdentifier(publicKey: CryptoKey): Promise<ArrayBuffer> {
  const spki = await webcrypto.subtle.exportKey('spki', publicKey);
  const info = pkijs.PublicKeyInfo.fromBER(spki);
  return webcrypto.subtle.digest('SHA-1', info.subjectPublicKey.valueBlock.valueHexView);
}

async function certificate(opts: {
  subject: pkijs.RelativeDistinguishedNames;
  issuer: pkijs.RelativeDistinguishedNames;
  publicKey: CryptoKey;
  issuerPublicKey: CryptoKey;
  signingKey: CryptoKey;
  validYears: number;
  extensions: pkijs.Extension[];
}): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  // Positive and 16 bytes: RFC 5280 allows up to 20 octets, and a random serial is unguessable.
  // A leading zero byte would not be minimal DER (readers such as Node's refuse the certificate),
  // so the first byte is kept between 1 and 0x7f.
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  if (serial[0] === 0) serial[0] = 1;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  cert.subject = opts.subject;
  cert.issuer = opts.issuer;
  const now = Date.now();
  cert.notBefore.value = new Date(now - 60_000);
  cert.notAfter.value = new Date(now + opts.validYears * YEAR_MS);
  await cert.subjectPublicKeyInfo.importKey(opts.publicKey);
  cert.extensions = [
    ...opts.extensions,
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      extnValue: new asn1js.OctetString({ valueHex: await keyIdentifier(opts.publicKey) }).toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.authorityKeyIdentifier,
      extnValue: new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: await keyIdentifier(opts.issuerPublicKey) }) })
        .toSchema()
        .toBER(false),
    }),
  ];
  await cert.sign(opts.signingKey, 'SHA-256');
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

/**
 * Makes the installation's own CA (20 years) and the seal certificate it issues (5 years), both
 * ECDSA P-256. The CA's private key is thrown away once it has signed: a new seal certificate
 * comes with a new CA, so no key that could issue more is ever stored.
 */
export async function createSealCertificates(installationName: string): Promise<TSealCertificates> {
  const ca = await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const seal = await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const caName = name(`${installationName} document seal CA`, installationName);
  const caCertificate = await certificate({
    subject: caName,
    issuer: caName,
    publicKey: ca.publicKey,
    issuerPublicKey: ca.publicKey,
    signingKey: ca.privateKey,
    validYears: 20,
    extensions: [
      new pkijs.Extension({
        extnID: OID.basicConstraints,
        critical: true,
        extnValue: new pkijs.BasicConstraints({ cA: true, pathLenConstraint: 0 }).toSchema().toBER(false),
      }),
      keyUsage([5, 6]),
    ],
  });
  const sealCertificate = await certificate({
    subject: name(`${installationName} document seal`, installationName),
    issuer: caName,
    publicKey: seal.publicKey,
    issuerPublicKey: ca.publicKey,
    signingKey: ca.privateKey,
    validYears: 5,
    extensions: [
      new pkijs.Extension({ extnID: OID.basicConstraints, critical: true, extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false) }),
      keyUsage([0, 1]),
      new pkijs.Extension({ extnID: OID.extendedKeyUsage, extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [OID.documentSigning] }).toSchema().toBER(false) }),
    ],
  });
  const sealPrivateKey = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', seal.privateKey));
  return { caCertificate, sealCertificate, sealPrivateKey };
}

const KEY_OID = { rsa: '1.2.840.113549.1.1.1', ec: '1.2.840.10045.2.1' } as const;
const CURVES: Record<string, 'P-256' | 'P-384' | 'P-521'> = { '1.2.840.10045.3.1.7': 'P-256', '1.3.132.0.34': 'P-384', '1.3.132.0.35': 'P-521' };

const arrayBuffer = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** What kind of key a PKCS #8 key is, as the PDF signer names it; undefined when the seal cannot use it. */
function keyKind(info: pkijs.PrivateKeyInfo): { keyType: 'RSA'; curve?: never } | { keyType: 'EC'; curve: 'P-256' | 'P-384' | 'P-521' } | undefined {
  const algorithm = info.privateKeyAlgorithm;
  if (algorithm.algorithmId === KEY_OID.rsa) return { keyType: 'RSA' };
  if (algorithm.algorithmId !== KEY_OID.ec) return undefined;
  const params = algorithm.algorithmParams;
  const curve = params instanceof asn1js.ObjectIdentifier ? CURVES[params.valueBlock.toString()] : undefined;
  return curve ? { keyType: 'EC', curve } : undefined;
}

export type TSealSigningKey = { key: CryptoKey; keyType: 'RSA' | 'EC'; algorithm: 'RSASSA-PKCS1-v1_5' | 'ECDSA' };

/** The seal's key as the signer takes it: the installation's own is EC, an uploaded one may be RSA. */
export async function importSealKey(pkcs8: Uint8Array): Promise<TSealSigningKey> {
  const kind = keyKind(pkijs.PrivateKeyInfo.fromBER(arrayBuffer(pkcs8)));
  if (kind?.keyType === 'RSA') {
    const key = await webcrypto.subtle.importKey('pkcs8', pkcs8, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
    return { key, keyType: 'RSA', algorithm: 'RSASSA-PKCS1-v1_5' };
  }
  const key = await webcrypto.subtle.importKey('pkcs8', pkcs8, { name: 'ECDSA', namedCurve: kind?.curve ?? EC_KEY.namedCurve }, false, ['sign']);
  return { key, keyType: 'EC', algorithm: 'ECDSA' };
}

/** Why an uploaded PKCS #12 file cannot seal, in words an administrator can act on. */
export class SealFileError extends Error {}

const BAG = { key: '1.2.840.113549.1.12.10.1.1', shroudedKey: '1.2.840.113549.1.12.10.1.2', certificate: '1.2.840.113549.1.12.10.1.3' } as const;
// Extended key usages that allow signing documents: document signing (RFC 9336), email
// protection (what most CAs issue signing certificates for), Adobe's and Microsoft's document
// signing, and any purpose.
const SIGNING_USAGES = new Set(['1.3.6.1.5.5.7.3.36', '1.3.6.1.5.5.7.3.4', '1.2.840.113583.1.1.5', '1.3.6.1.4.1.311.10.3.12', '2.5.29.37.0']);

const dayText = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const der = (certificate: pkijs.Certificate) => new Uint8Array(certificate.toSchema(true).toBER(false));

// @libpdf/core puts its own pkijs engine (one that also reads RC2 and Triple DES) in place of the
// global one the first time it signs: uploads are read with an engine of their own, so what is
// accepted does not depend on whether a document was sealed since the server started.
const UPLOAD_ENGINE = new pkijs.CryptoEngine({
  name: 'formwork-seal-upload',
  crypto: webcrypto as ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'],
});

/** The keys and certificates in a PKCS #12 file, its password checked against the file's MAC. */
async function openPkcs12(file: Uint8Array, password: string): Promise<{ keys: pkijs.PrivateKeyInfo[]; certificates: Uint8Array[] }> {
  let pfx: pkijs.PFX;
  try {
    pfx = pkijs.PFX.fromBER(arrayBuffer(file));
  } catch {
    throw new SealFileError('This is not a PKCS #12 file (.p12 or .pfx).');
  }
  const secret = arrayBuffer(new TextEncoder().encode(password));
  try {
    await pfx.parseInternalValues({ password: secret, checkIntegrity: true }, UPLOAD_ENGINE);
  } catch {
    throw new SealFileError('The password does not open this file.');
  }
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new SealFileError('This PKCS #12 file is protected by a certificate, not a password; export it again with a password.');
  const keys: pkijs.PrivateKeyInfo[] = [];
  const certificates: Uint8Array[] = [];
  try {
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: secret })) }, UPLOAD_ENGINE);
    for (const contents of safe.parsedValue?.safeContents ?? []) {
      for (const bag of contents.value.safeBags) {
        if (bag.bagId === BAG.key) keys.push(bag.bagValue as pkijs.PrivateKeyInfo);
        if (bag.bagId === BAG.shroudedKey) {
          const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
          const encrypted = new pkijs.EncryptedData({
            encryptedContentInfo: new pkijs.EncryptedContentInfo({
              contentType: pkijs.id_ContentType_Data,
              contentEncryptionAlgorithm: shrouded.encryptionAlgorithm,
              encryptedContent: shrouded.encryptedData,
            }),
          });
          keys.push(pkijs.PrivateKeyInfo.fromBER(await encrypted.decrypt({ password: secret }, UPLOAD_ENGINE)));
        }
        if (bag.bagId === BAG.certificate) {
          const parsed = (bag.bagValue as pkijs.CertBag).parsedValue;
          if (parsed instanceof pkijs.Certificate) certificates.push(der(parsed));
        }
      }
    }
  } catch {
    // The password passed the MAC, so what fails here is the cipher: RC2 and Triple DES, which
    // older exports use, are not in WebCrypto.
    throw new SealFileError('This file is encrypted with an old cipher (RC2 or Triple DES). Export it again with AES, as OpenSSL 3 does by default.');
  }
  return { keys, certificates };
}

/** Whether the certificate's key usage and extended key usage let it sign documents. */
function usageProblem(certificate: Uint8Array): string | undefined {
  const cert = pkijs.Certificate.fromBER(arrayBuffer(certificate));
  const keyUsage = cert.extensions?.find((e) => e.extnID === OID.keyUsage)?.parsedValue;
  if (keyUsage instanceof asn1js.BitString) {
    const bits = keyUsage.valueBlock.valueHexView[0] ?? 0;
    // digitalSignature or nonRepudiation (contentCommitment)
    if ((bits & 0xc0) === 0) return 'The certificate may not sign: its key usage allows neither digital signatures nor non-repudiation.';
  }
  const extended = cert.extensions?.find((e) => e.extnID === OID.extendedKeyUsage)?.parsedValue;
  if (extended instanceof pkijs.ExtKeyUsage && !extended.keyPurposes.some((purpose) => SIGNING_USAGES.has(purpose))) {
    return 'The certificate is not for signing documents: its extended key usage names neither document signing nor email protection.';
  }
  return undefined;
}

/**
 * Reads a PKCS #12 file an administrator uploaded to seal with a certificate from a trusted CA:
 * an RSA or EC private key, the certificate for it, and the certificate of the CA that issued
 * it (the certificate itself when it is self-signed). The certificate must be valid now and fit
 * for signing. Throws SealFileError saying what is wrong.
 */
export async function readSealFile(file: Uint8Array, password: string, now = new Date()): Promise<TSealCertificates> {
  const { keys, certificates } = await openPkcs12(file, password);
  if (keys.length === 0) throw new SealFileError('The file holds no private key.');
  if (keys.length > 1) throw new SealFileError('The file holds more than one private key; export only the one to seal with.');
  const key = keys[0]!;
  if (!keyKind(key)) throw new SealFileError('The private key is neither RSA nor EC (P-256, P-384 or P-521), so it cannot seal.');
  const sealPrivateKey = new Uint8Array(key.toSchema().toBER(false));
  const publicKey = createPublicKey(createPrivateKey({ key: Buffer.from(sealPrivateKey), format: 'der', type: 'pkcs8' }));
  const publicDer = publicKey.export({ type: 'spki', format: 'der' });

  const x509 = certificates.map((bytes) => ({ bytes, cert: new X509Certificate(bytes) }));
  const own = x509.find(({ cert }) => cert.publicKey.export({ type: 'spki', format: 'der' }).equals(publicDer));
  if (!own) throw new SealFileError(certificates.length === 0 ? 'The file holds no certificate.' : 'The file holds no certificate for its private key.');
  const notAfter = new Date(own.cert.validTo);
  const notBefore = new Date(own.cert.validFrom);
  if (notAfter.getTime() <= now.getTime()) throw new SealFileError(`The certificate expired on ${dayText(notAfter)}.`);
  if (notBefore.getTime() > now.getTime()) throw new SealFileError(`The certificate is not valid until ${dayText(notBefore)}.`);
  const problem = usageProblem(own.bytes);
  if (problem) throw new SealFileError(problem);

  // A seal is checked later by its certificate having been issued by the stored CA certificate,
  // so that certificate has to be in the file (or be the certificate itself, self-signed).
  const issuedBy = (issuer: X509Certificate) => own.cert.checkIssued(issuer) && own.cert.verify(issuer.publicKey);
  const issuer = issuedBy(own.cert) ? own : x509.find(({ cert }) => cert !== own.cert && issuedBy(cert));
  if (!issuer && own.cert.subject === own.cert.issuer) {
    throw new SealFileError('The certificate is self-signed, but its key usage does not let it sign certificates, so its seals could not be checked.');
  }
  if (!issuer) throw new SealFileError('The file lacks the certificate of the CA that issued this one. Export it with its chain.');
  return { sealCertificate: own.bytes, caCertificate: issuer.bytes, sealPrivateKey };
}

/** What the admin sees of a seal certificate. */
export function describeCertificate(certificate: Uint8Array): { subject: string; issuer: string; validUntil: Date } {
  const cert = new X509Certificate(certificate);
  const commonName = (dn: string) => /(?:^|\n)CN=([^\n]+)/.exec(dn)?.[1] ?? dn.split('\n').join(', ');
  return { subject: commonName(cert.subject), issuer: commonName(cert.issuer), validUntil: new Date(cert.validTo) };
}
