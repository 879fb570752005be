/**
 * A seal thread's work: append the certificate of completion to the signed document and seal
 * the whole file, or check a seal. Parsing and writing the PDF is synchronous work that grows with its pages, so
 * it runs here rather than on the server's event loop (seal-pool.ts).
 */
import { lowerThisThreadsPriority } from '../../../jobs/thread-priority.ts';
import { appendPdf } from '../append-pages.ts';
import type { TSealCertificates } from './certificates.ts';
import { sealPdf, type TSealed } from './seal-pdf.ts';
import { verifySeal, type TSealCheck, type TTrustedSeal } from './verify-seal.ts';

export type TSealTask = {
  document: Uint8Array;
  certificate: Uint8Array;
  certificates: TSealCertificates;
  timestampUrl?: string;
  reason: string;
};

// Below the event loop, as render threads are: the server answers first, the seal waits a little.
lowerThisThreadsPriority();

export default async function sealTask(task: TSealTask): Promise<TSealed> {
  const whole = await appendPdf(task.document, task.certificate);
  return sealPdf(whole, { certificates: task.certificates, reason: task.reason, ...(task.timestampUrl ? { timestampUrl: task.timestampUrl } : {}) });
}

/** Checking a seal parses the whole file too (up to 50 MB on /verify): `verify` runs here as well. */
export async function verify(task: { pdf: Uint8Array; trusted: TTrustedSeal[] }): Promise<TSealCheck> {
  return verifySeal(task.pdf, task.trusted);
}
