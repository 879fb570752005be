import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPdf } from '../../../render/index.ts';
import { assertValidPdf, pdfInfo, pdfPages, pdfText } from '../../../render/testdata/pdf-tools.ts';
import { accessibilityFindings } from '../../../contract/accessibility-check.ts';
import { checkAccessibility } from '../../../render/test/pdf-accessibility-check.ts';
import { appendPdf } from './append-pages.ts';
import { certificateRender, certificateTime, type TCertificateInput } from './certificate.ts';
import { createSealCertificates, type TSealCertificates } from './seal/certificates.ts';
import { sealPdf } from './seal/seal-pdf.ts';

/*
 * The certificate of completion, end to end: rendered by our renderer, appended to a signed
 * document and sealed, then read back with poppler and qpdf. Set CERT_PNG_DIR to write the
 * certificate pages as PNGs to look at.
 */

let dir: string;
let certificates: TSealCertificates;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'formwork-cert-'));
  certificates = await createSealCertificates('Formwork test');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pdfsig(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
}

/** A drawn signature: a dark stroke over a transparent background, as a signature pad gives. */
function drawnSignature(): Uint8Array {
  const width = 240;
  const height = 80;
  const png = new PNG({ width, height });
  for (let x = 10; x < width - 10; x++) {
    const yc = 40 + 22 * Math.sin(x / 14) * Math.cos(x / 53);
    for (let dy = -2; dy <= 2; dy++) {
      const i = ((Math.round(yc) + dy) * width + x) * 4;
      png.data.set([20, 30, 110, 255], i);
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

const SHA = '3f2a9c0b7d4e1f60a8b5c2d9e6f3a0b7c4d1e8f5a2b9c6d3e0f7a4b1c8d5e2f9';
const HEAD = '9e1d4c7b0a3f6e9d2c5b8a1f4e7d0c3b6a9f2e5d8c1b4a7f0e3d6c9b2a5f8e1d';
const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 10, minute, 3));

function certificateInput(events: TCertificateInput['events']): TCertificateInput {
  return {
    requestId: 'sr_01JDX4Q8K2M7',
    documentName: 'Consulting agreement – Al-Haddad / Yamada',
    documentSha256: SHA,
    sentAt: at(0),
    completedAt: new Date('2026-11-26T05:12:03Z'),
    senderName: 'Sam Carter',
    senderEmail: 'sam@northwind.example',
    consent: { version: '2026-11-01', text: 'I agree to sign this document electronically and to receive it and related notices by email.' },
    signers: [
      {
        name: 'ليلى حداد',
        email: 'layla@haddad.example',
        role: 1,
        order: 1,
        viewedAt: at(5),
        consentedAt: at(6),
        signedAt: at(7),
        ip: '203.0.113.5',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
        signature: { type: 'image', png: drawnSignature() },
      },
      {
        name: '山田 花子',
        email: 'hanako@yamada.example',
        role: 2,
        order: 2,
        viewedAt: at(20),
        consentedAt: at(21),
        signedAt: new Date('2026-11-26T05:12:03Z'),
        ip: '2001:db8::7',
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        signature: { type: 'typed', text: 'Hanako Yamada' },
      },
    ],
    cc: ['legal@northwind.example'],
    events,
    auditHead: HEAD,
  };
}

const SHORT_TRAIL: TCertificateInput['events'] = [
  { at: at(0), type: 'created', who: 'Sam Carter', ip: '198.51.100.7' },
  { at: at(0), type: 'sent', who: 'Sam Carter', ip: '198.51.100.7' },
  { at: at(5), type: 'opened', who: 'ليلى حداد', ip: '203.0.113.5' },
  { at: at(6), type: 'consented', who: 'ليلى حداد', ip: '203.0.113.5' },
  { at: at(7), type: 'signed', who: 'ليلى حداد', ip: '203.0.113.5' },
  { at: at(20), type: 'opened', who: '山田 花子', ip: '2001:db8::7' },
  { at: at(21), type: 'consented', who: '山田 花子', ip: '2001:db8::7' },
  { at: new Date('2026-11-26T05:12:03Z'), type: 'signed', who: '山田 花子', ip: '2001:db8::7' },
  { at: new Date('2026-11-26T05:12:03Z'), type: 'completed', who: null, ip: null },
];

function renderCertificate(input: TCertificateInput): Uint8Array {
  const { pdf, warnings } = renderPdf(certificateRender(input));
  expect(warnings).toEqual([]);
  return pdf;
}

/** The signed document: one page, as the renderer prints it. */
function signedDocument({ tagged = false } = {}): Uint8Array {
  const { pdf } = renderPdf({
    format: {
      content: {
        ...(tagged ? { accessible: true, locale: 'de-DE' } : {}),
        elements: [
          { id: 'h', type: 'heading', content: 'Consulting agreement', fontSize: 'text-2xl', align: 'left', bold: true, italic: false, underline: false },
          {
            id: 'p',
            type: 'paragraph',
            content: 'The consultant will advise the client on the matters agreed.',
            align: 'left',
            bold: false,
            italic: false,
            underline: false,
          },
        ],
      },
      placeholders: [],
    },
    data: {},
    meta: { title: 'Consulting agreement', creationDate: new Date('2026-11-25T10:00:00Z') },
  });
  return pdf;
}

/** The certificate pages (after the document's own) as PNGs, for a person to look at. */
function look(name: string, pdf: Uint8Array, firstPage: number): void {
  const out = process.env.CERT_PNG_DIR;
  if (!out) return;
  mkdirSync(out, { recursive: true });
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  spawnSync('pdftoppm', ['-png', '-r', '60', '-f', String(firstPage), file, path.join(out, name)]);
}

describe('the certificate of completion', () => {
  it('writes times in UTC, to the second', () => {
    expect(certificateTime(new Date('2026-11-26T05:12:03.456Z'))).toBe('2026-11-26 05:12:03 UTC');
    expect(certificateTime(null)).toBe('—');
  });

  it('is appended to the signed document, which then seals and checks as valid', async () => {
    const document = signedDocument();
    expect(pdfInfo(document).Pages).toBe('1');
    const certificate = renderCertificate(certificateInput(SHORT_TRAIL));
    const certificatePages = Number(pdfInfo(certificate).Pages);
    expect(certificatePages).toBeGreaterThanOrEqual(1);

    const combined = await appendPdf(document, certificate);
    assertValidPdf(combined);
    // An incremental update: the document's own bytes come first, untouched.
    expect(Buffer.from(combined.subarray(0, document.length)).equals(Buffer.from(document))).toBe(true);
    expect(Number(pdfInfo(combined).Pages)).toBe(1 + certificatePages);
    const pages = pdfPages(combined);
    expect(pages[0]).toContain('Consulting agreement');
    expect(pages[1]).toContain('Certificate of completion');

    const sealed = await sealPdf(combined, { certificates });
    assertValidPdf(sealed.bytes);
    expect(Number(pdfInfo(sealed.bytes).Pages)).toBe(1 + certificatePages);
    const report = pdfsig(sealed.bytes, 'sealed.pdf');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');

    const text = pdfText(sealed.bytes);
    for (const expected of [
      'Certificate of completion',
      'ليلى حداد',
      '山田 花子',
      'layla@haddad.example',
      'hanako@yamada.example',
      SHA,
      HEAD,
      'sr_01JDX4Q8K2M7',
      'Consulting agreement – Al-Haddad / Yamada',
      '2026-11-26 05:12:03 UTC',
      'Signer 1',
      'Signer 2',
      'legal@northwind.example',
      'version 2026-11-01',
      'I agree to sign this document electronically',
      '2001:db8::7',
      'Consented',
      'Hanako Yamada',
    ]) {
      expect(text).toContain(expected);
    }
    look('certificate', sealed.bytes, 2);
  });

  it('joins a tagged document’s structure: the sealed PDF is tagged to its last page, the certificate in English', async () => {
    const document = signedDocument({ tagged: true });
    const certificate = certificateRender(certificateInput(SHORT_TRAIL));
    const certificatePdf = renderCertificate(certificateInput(SHORT_TRAIL));
    const certificatePages = Number(pdfInfo(certificatePdf).Pages);
    const sealed = (await sealPdf(await appendPdf(document, certificatePdf), { certificates })).bytes;
    assertValidPdf(sealed);
    expect(pdfInfo(sealed).Tagged).toBe('yes');
    const report = await checkAccessibility(sealed);
    // Every drawing on every page, the certificate's included, is an element's content or an artifact.
    expect(report.findings).toEqual([]);
    // The elements with content, page by page: the contract's, then the certificate's.
    const roles = report.elements.filter((e) => e.role !== 'Document').map((e) => [e.role, e.page, e.text]);
    expect(roles.slice(0, 3)).toEqual([
      ['H3', 1, 'Consulting agreement'],
      ['P', 1, 'The consultant will advise the client on the matters agreed.'],
      ['H1', 2, 'Certificate of completion'],
    ]);
    expect(report.elements.filter((e) => e.role === 'H2').map((e) => e.text)).toEqual([
      'Consent to sign electronically',
      'Signers',
      'Events',
      'Audit trail and seal',
    ]);
    expect(new Set(report.elements.map((e) => e.page))).toEqual(new Set(Array.from({ length: 1 + certificatePages }, (_, i) => i + 1)));
    expect(report.readingOrder.join(' ')).toContain('layla@haddad.example');
    // The summary's labels head their rows; the signers and events tables have header rows.
    expect(report.elements.filter((e) => e.role === 'TH').map((e) => e.text)).toEqual(expect.arrayContaining(['Request ID', 'Original SHA-256', 'IP address']));
    expect(accessibilityFindings(certificate.format.content)).toEqual([]);
    // The contract is German; the certificate's elements say they are English.
    expect(Buffer.from(sealed).toString('latin1')).toMatch(/\/Lang \(en-US\)/);
    look('certificate-tagged', sealed, 1);
    if (process.env.CERT_PNG_DIR) writeFileSync(path.join(process.env.CERT_PNG_DIR, 'sealed-tagged.pdf'), sealed);
    expect(pdfsig(sealed, 'sealed-tagged.pdf')).toContain('Signature Validation: Signature is Valid.');
  });

  it('leaves an untagged document untagged, its copied pages in no tree', async () => {
    const combined = await appendPdf(signedDocument(), renderCertificate(certificateInput(SHORT_TRAIL)));
    assertValidPdf(combined);
    expect(pdfInfo(combined).Tagged).toBe('no');
    expect(Buffer.from(combined).toString('latin1')).not.toContain('/StructParents');
  });

  it('flows a long events list onto further pages, the table header repeated', () => {
    const events: TCertificateInput['events'] = Array.from({ length: 60 }, (_, i) => ({
      at: at(i),
      type: i === 0 ? 'created' : i % 2 ? 'reminded' : 'opened',
      // A name is printed as written, never read as markup or as a tag.
      who: i === 59 ? '*Eve* {{request_id}} **bold**' : 'Sam Carter',
      ip: `198.51.100.${i}`,
    }));
    const certificate = renderCertificate(certificateInput(events));
    const pages = pdfPages(certificate);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const first = pages.findIndex((page) => page.includes('198.51.100.0\n') || page.includes('198.51.100.0 '));
    const last = pages.findIndex((page) => page.includes('198.51.100.59'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(last).toBeGreaterThan(first);
    expect(pages[last]).toContain('IP address');
    expect(pages[last]).toContain('*Eve* {{request_id}} **bold**');
    expect(pages[last]).toContain(`Page ${last + 1} of ${pages.length}`);
    const text = pages.join('\n');
    for (let i = 0; i < 60; i++) expect(text).toMatch(new RegExp(`198\\.51\\.100\\.${i}\\b`));
    look('certificate-long', certificate, 1);
  });
});
