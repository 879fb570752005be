import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerLetterPdf } from '../test/signing-fixtures.ts';
import { startTimestampServer, type TTimestampServer } from '../../../test/timestamp-server.ts';
import { createSealCertificates, type TSealCertificates } from './certificates.ts';
import { sealPdf } from './seal-pdf.ts';
import { verifySeal } from './verify-seal.ts';

let dir: string;
let certificates: TSealCertificates;
let tsa: TTimestampServer;
let original: Uint8Array;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'formwork-seal-'));
  [certificates, tsa] = await Promise.all([createSealCertificates('Formwork test'), startTimestampServer()]);
  original = offerLetterPdf();
});
afterAll(async () => {
  await tsa.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What poppler's pdfsig, an independent reader, says of the file. */
function pdfsig(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
}

function qpdfCheck(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('qpdf', ['--check', file], { encoding: 'utf8' });
}

const trusted = () => [{ sealCertificate: certificates.sealCertificate, caCertificate: certificates.caCertificate }];

describe('the seal', () => {
  it('signs the whole file with a PAdES signature that pdfsig and our own check accept', async () => {
    const sealed = await sealPdf(original, { certificates });
    expect(sealed.level).toBe('B-B');
    const report = pdfsig(sealed.bytes, 'sealed.pdf');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(qpdfCheck(sealed.bytes, 'sealed-check.pdf')).toContain('No syntax or stream encoding errors found');
    // The seal is an incremental update: the document's own bytes come first, untouched.
    expect(Buffer.from(sealed.bytes.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    const check = await verifySeal(sealed.bytes, trusted());
    expect(check).toMatchObject({ valid: true, timestamped: false });
  });

  it('finds one changed byte, appended bytes, another installation and an unsealed file', async () => {
    const { bytes } = await sealPdf(original, { certificates });
    const changed = Uint8Array.from(bytes);
    const at = Buffer.from(changed).indexOf('Ada Lovelace') >= 0 ? Buffer.from(changed).indexOf('Ada Lovelace') : 20;
    changed[at] = changed[at]! ^ 0x01;
    expect(pdfsig(changed, 'changed.pdf')).not.toContain('Signature is Valid.');
    expect(await verifySeal(changed, trusted())).toEqual({ valid: false, reason: 'The PDF was changed after it was sealed.' });

    const appended = Buffer.concat([bytes, Buffer.from('\n% added later\n')]);
    expect(pdfsig(appended, 'appended.pdf')).toContain('Not total document signed');
    expect(await verifySeal(appended, trusted())).toEqual({
      valid: false,
      reason: 'The seal does not cover the whole file: something was added or changed after it.',
    });

    const other = await createSealCertificates('Another installation');
    const foreign = await sealPdf(original, { certificates: other });
    expect(pdfsig(foreign.bytes, 'foreign.pdf')).toContain('Signature is Valid.');
    expect(await verifySeal(foreign.bytes, trusted())).toEqual({ valid: false, reason: 'The PDF was not sealed by this installation.' });

    expect(await verifySeal(original, trusted())).toEqual({ valid: false, reason: 'The PDF carries no seal.' });
  });

  it('carries a timestamp from the timestamp server (B-T), and falls back to B-B, saying why, when the server fails', async () => {
    tsa.failWith(null);
    const stamped = await sealPdf(original, { certificates, timestampUrl: tsa.url });
    expect(stamped).toMatchObject({ level: 'B-T' });
    expect(stamped.timestampFailure).toBeUndefined();
    expect(tsa.stamped()).toBeGreaterThan(0);
    expect(pdfsig(stamped.bytes, 'stamped.pdf')).toContain('Signature is Valid.');
    expect(await verifySeal(stamped.bytes, trusted())).toMatchObject({ valid: true, timestamped: true });

    tsa.failWith(503);
    const unstamped = await sealPdf(original, { certificates, timestampUrl: tsa.url });
    expect(unstamped.level).toBe('B-B');
    expect(unstamped.timestampFailure).toMatch(/503/);
    expect(await verifySeal(unstamped.bytes, trusted())).toMatchObject({ valid: true, timestamped: false });
    tsa.failWith(null);
  });
});
