import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import { pkijs } from './pki.ts';

/** A seal certificate the installation has used, with the CA that issued it. */
export type TTrustedSeal = { sealCertificate: Uint8Array; caCertificate: Uint8Array };

export type TSealCheck = { valid: true; sealCertificate: Uint8Array; signedAt: Date | null; timestamped: boolean } | { valid: false; reason: string };

const OID_SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_TIMESTAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const arrayBuffer = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** The certificate hash in signing-certificate-v2 (RFC 5035), which binds the signature to its certificate. */
function signingCertificateHash(attribute: pkijs.Attribute | undefined): Uint8Array | undefined {
  const value = attribute?.values[0];
  if (!(value instanceof asn1js.Sequence)) return undefined;
  const certs = value.valueBlock.value[0];
  const first = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : undefined;
  if (!(first instanceof asn1js.Sequence)) return undefined;
  const hash = first.valueBlock.value.find((part) => part instanceof asn1js.OctetString);
  return hash instanceof asn1js.OctetString ? new Uint8Array(hash.valueBlock.valueHexView) : undefined;
}

/**
 * Whether `pdf` carries exactly one seal by one of `trusted`, and is unchanged since: the signed
 * byte ranges cover the whole file but the signature itself, their digest is the one signed, the
 * signature is the seal certificate's, that certificate was issued by the seal's CA, and
 * signing-certificate-v2 names it.
 */
export async function verifySeal(pdf: Uint8Array, trusted: readonly TTrustedSeal[]): Promise<TSealCheck> {
  const text = Buffer.from(pdf).toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  if (ranges.length === 0) return { valid: false, reason: 'The PDF carries no seal.' };
  if (ranges.length > 1) return { valid: false, reason: 'The PDF carries more than one signature; a Formwork seal is the only one.' };
  const [start, firstLength, second, secondLength] = ranges[0]!.slice(1).map(Number) as [number, number, number, number];
  if (start !== 0 || firstLength >= second || second + secondLength !== pdf.length) {
    return { valid: false, reason: 'The seal does not cover the whole file: something was added or changed after it.' };
  }
  const contents = text.slice(firstLength, second);
  if (!/^<[0-9a-fA-F]+>$/.test(contents)) return { valid: false, reason: 'The seal is damaged.' };

  let signed: pkijs.SignedData;
  try {
    const info = pkijs.ContentInfo.fromBER(arrayBuffer(Buffer.from(contents.slice(1, -1), 'hex')));
    signed = new pkijs.SignedData({ schema: info.content });
  } catch {
    return { valid: false, reason: 'The seal is damaged.' };
  }
  const signedBytes = Buffer.concat([pdf.subarray(0, firstLength), pdf.subarray(second, second + secondLength)]);
  const signer = signed.signerInfos[0];
  const certHash = signingCertificateHash(signer?.signedAttrs?.attributes.find((a) => a.type === OID_SIGNING_CERTIFICATE_V2));

  const embedded = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const signerCertificate = embedded
    .map((c) => new Uint8Array(c.toSchema().toBER(false)))
    .find((der) => trusted.some((t) => sameBytes(der, t.sealCertificate)));
  const seal = signerCertificate && trusted.find((t) => sameBytes(t.sealCertificate, signerCertificate));
  if (!signer || !seal || !signer.signedAttrs) return { valid: false, reason: 'The PDF was not sealed by this installation.' };

  // Node's own crypto checks the signature and the certificate; pkijs only reads the structures.
  const sealCertificate = new X509Certificate(seal.sealCertificate);
  const ca = new X509Certificate(seal.caCertificate);
  if (!sealCertificate.checkIssued(ca) || !sealCertificate.verify(ca.publicKey))
    return { valid: false, reason: 'The PDF was not sealed by this installation.' };
  if (!certHash || !sameBytes(certHash, sha256(seal.sealCertificate))) return { valid: false, reason: 'The seal does not name the certificate that made it.' };

  const attributes = signer.signedAttrs.attributes;
  const digest = attributes.find((a) => a.type === OID_MESSAGE_DIGEST)?.values[0];
  if (!(digest instanceof asn1js.OctetString) || !sameBytes(new Uint8Array(digest.valueBlock.valueHexView), sha256(signedBytes))) {
    return { valid: false, reason: 'The PDF was changed after it was sealed.' };
  }
  // The signature covers the signed attributes encoded as a SET, not as the [0] they are stored under.
  const signedAttributes = new Uint8Array(signer.signedAttrs.toSchema().toBER(false));
  signedAttributes[0] = 0x31;
  const signature = new Uint8Array(signer.signature.valueBlock.valueHexView);
  if (!verifySignature('sha256', signedAttributes, sealCertificate.publicKey, signature))
    return { valid: false, reason: 'The PDF was changed after it was sealed.' };

  const signingTime = attributes.find((a) => a.type === OID_SIGNING_TIME)?.values[0];
  return {
    valid: true,
    sealCertificate: seal.sealCertificate,
    signedAt: signingTime instanceof asn1js.UTCTime || signingTime instanceof asn1js.GeneralizedTime ? signingTime.toDate() : null,
    timestamped: Boolean(signer.unsignedAttrs?.attributes.some((a) => a.type === OID_TIMESTAMP_TOKEN)),
  };
}
