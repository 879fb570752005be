import { CryptoKeySigner, HttpTimestampAuthority, PDF, TimestampError } from '@libpdf/core';
import { importSealKey, type TSealCertificates } from './certificates.ts';

export type TSealOptions = {
  certificates: TSealCertificates;
  /** An RFC 3161 timestamp server: the seal is then PAdES B-T, with a time the server vouches for. */
  timestampUrl?: string;
  timestampTimeoutMs?: number;
  reason?: string;
};

export type TSealed = {
  bytes: Uint8Array;
  level: 'B-B' | 'B-T';
  /** Why the timestamp server gave no timestamp; the seal was then made at B-B. */
  timestampFailure?: string;
};

async function sign(pdf: Uint8Array, opts: TSealOptions, timestamped: boolean): Promise<Uint8Array> {
  const { sealCertificate, caCertificate, sealPrivateKey } = opts.certificates;
  const { key, keyType, algorithm } = await importSealKey(sealPrivateKey);
  // A self-signed uploaded certificate is its own CA: it is not sent twice.
  const chain = Buffer.from(caCertificate).equals(Buffer.from(sealCertificate)) ? [] : [caCertificate];
  const signer = new CryptoKeySigner(key, sealCertificate, keyType, algorithm, chain);
  const document = await PDF.load(pdf);
  const { bytes } = await document.sign({
    signer,
    fieldName: 'FormworkSeal',
    reason: opts.reason ?? 'Sealed by Formwork when every signer had signed',
    ...(timestamped && opts.timestampUrl
      ? { level: 'B-T' as const, timestampAuthority: new HttpTimestampAuthority(opts.timestampUrl, { timeout: opts.timestampTimeoutMs ?? 10_000 }) }
      : { level: 'B-B' as const }),
  });
  return bytes;
}

/**
 * Seals a completed PDF with a PAdES signature (`/SubFilter /ETSI.CAdES.detached`) over the whole
 * file, as an incremental update. A timestamp server that fails does not stop the seal: it is made
 * at B-B and the failure is returned, for the audit trail to record.
 */
export async function sealPdf(pdf: Uint8Array, opts: TSealOptions): Promise<TSealed> {
  if (!opts.timestampUrl) return { bytes: await sign(pdf, opts, false), level: 'B-B' };
  try {
    return { bytes: await sign(pdf, opts, true), level: 'B-T' };
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    return { bytes: await sign(pdf, opts, false), level: 'B-B', timestampFailure: error.message };
  }
}
