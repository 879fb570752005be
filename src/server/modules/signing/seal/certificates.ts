import { randomBytes, webcrypto } from 'node:crypto';
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

/** The seal's key as the signer takes it. */
export function importSealKey(pkcs8: Uint8Array): Promise<CryptoKey> {
  return webcrypto.subtle.importKey('pkcs8', pkcs8, EC_KEY, false, ['sign']);
}
