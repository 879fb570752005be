import { deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TFormat } from '../../../contract/formats.ts';
import type { TTemplateImportResponse } from '../../../contract/template-import.ts';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp } from '../../test/test-app.ts';
import { docxWithImage, encryptedDocx, legacyDoc, offerLetterDocx, offerLetterPdf, pdfWith, simpleDocx, testPng, tinyBmp } from './test/fixtures.ts';
import { zipFrom } from '../../test/hand-made-zip.ts';

function multipart(filename: string, bytes: Buffer, field = 'file', type = 'application/octet-stream') {
  const boundary = '----formwork-import-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

let t: TTestApp;
let client: TestClient;

async function importFile(filename: string, bytes: Buffer, opts: { client?: TestClient | null; origin?: string } = {}) {
  const { payload, headers } = multipart(filename, bytes);
  const who = opts.client === undefined ? client : opts.client;
  return t.app.inject({
    method: 'POST',
    url: '/api/formats/import',
    payload,
    headers: {
      ...headers,
      ...(who ? { cookie: who.cookieHeader } : {}),
      origin: opts.origin ?? TEST_ORIGIN,
    },
  });
}

async function importOk(filename: string, bytes: Buffer): Promise<TTemplateImportResponse> {
  const response = await importFile(filename, bytes);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as TTemplateImportResponse;
}

async function expectRefused(filename: string, bytes: Buffer, status: number, message: RegExp) {
  const response = await importFile(filename, bytes);
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/application\/json/);
  const body = response.json() as { error: { code: string; message: string } };
  expect(body.error.message).toMatch(message);
  return body;
}

beforeAll(async () => {
  t = await createTestApp();
  client = new TestClient(t.app);
  await client.signUp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/formats/import: .docx', () => {
  it('turns headings, emphasis, lists, a table and an image into elements, and tags into typed placeholders', async () => {
    const { draft, warnings } = await importOk('offer_letter.docx', await offerLetterDocx());
    expect(warnings).toEqual([]);
    expect(draft.name).toBe('Offer letter');
    const els = draft.content.elements;
    expect(els.map((e) => e.type)).toEqual([
      'heading',
      'heading',
      'paragraph',
      'paragraph',
      'heading',
      'list',
      'list',
      'heading',
      'table',
      'image',
      'paragraph',
    ]);
    expect(els[0]).toMatchObject({ type: 'heading', content: 'Offer Letter', fontSize: 'text-4xl' });
    expect(els[1]).toMatchObject({ type: 'heading', content: 'Position Details', fontSize: 'text-3xl' });
    expect(els[4]).toMatchObject({ type: 'heading', content: 'Benefits', fontSize: 'text-2xl' });
    expect(els[2]).toMatchObject({
      type: 'paragraph',
      content: 'Dear **{{client_name}}**, we are *delighted* to offer you the role of {{job_title}} starting on {{start_date}}.',
    });
    expect(els[5]).toMatchObject({ type: 'list', listStyle: 'bulleted', items: ['Health insurance', '**Paid** leave'] });
    expect(els[6]).toMatchObject({ type: 'list', listStyle: 'numbered', items: ['Sign the letter', 'Return it by {{deadline}}'] });
    expect(els[8]).toMatchObject({
      type: 'table',
      headerRow: true,
      rows: [
        ['Item', 'Amount'],
        ['Base salary', '{{salary}}'],
        ['Signing bonus', '{{bonus_amount}}'],
      ],
    });
    // Unique ids, as the builder needs.
    expect(new Set(els.map((e) => e.id)).size).toBe(els.length);

    expect(draft.placeholders.map((p) => [p.name, p.type, p.label])).toEqual([
      ['client_name', 'text', 'Client name'],
      ['job_title', 'text', 'Job title'],
      ['start_date', 'date', 'Start date'],
      ['email', 'email', 'Email'],
      ['phone', 'tel', 'Phone'],
      ['deadline', 'date', 'Deadline'],
      ['salary', 'number', 'Salary'],
      ['bonus_amount', 'number', 'Bonus amount'],
    ]);
    // Money names print as money in the document made from the draft.
    expect(draft.placeholders.filter((p) => p.type === 'number').map((p) => p.display)).toEqual(['currency', 'currency']);

    // The image is stored as the owner's asset, at its own size, and only the owner can read it.
    const image = els[9]!;
    expect(image.type).toBe('image');
    if (image.type !== 'image') return;
    expect(image.src).toMatch(/^\/api\/assets\/[\w-]+$/);
    expect([image.width, image.height]).toEqual([120, 60]);
    const asset = await client.get(image.src);
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toBe('image/png');
    expect((await sharp(asset.rawPayload).metadata()).width).toBe(120);
    const stranger = new TestClient(t.app);
    await stranger.signUp();
    expect((await stranger.get(image.src)).statusCode).toBe(404);
  });

  it('saves nothing: the draft becomes a format only when it is posted, and then renders to PDF', async () => {
    const c = new TestClient(t.app);
    await c.signUp();
    const { draft } = await importOk('Offer.docx', await offerLetterDocx());
    const before = await c.get('/api/formats');
    expect(before.json()).toEqual([]);
    const saved = await c.post('/api/formats', { ...draft, name: 'Offer' });
    expect(saved.statusCode, saved.body).toBe(201);
    const format = saved.json() as TFormat;
    expect(format.content.elements).toHaveLength(draft.content.elements.length);
    const pdf = await c.get(`/api/formats/${format.id}/preview`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('leaves out an image in a format it cannot show, with a warning', async () => {
    const { draft, warnings } = await importOk('logo.docx', await docxWithImage('bmp', tinyBmp()));
    expect(draft.content.elements.map((e) => e.type)).toEqual(['paragraph']);
    expect(warnings.join(' ')).toMatch(/1 image could not be imported \(BMP/);
  });

  it('stores the same picture used twice once', async () => {
    const png = await testPng(30, 30);
    const { draft } = await importOk('twice.docx', await docxWithImage('png', png, 2));
    const images = draft.content.elements.filter((e) => e.type === 'image');
    expect(images).toHaveLength(2);
    expect(new Set(images.map((i) => (i.type === 'image' ? i.src : ''))).size).toBe(1);
  });
});

describe('POST /api/formats/import: .txt', () => {
  it('makes paragraphs of blank-line separated text, headings of heading-like lines, and keeps line breaks', async () => {
    const text = [
      'EMPLOYMENT AGREEMENT',
      '',
      '# Parties',
      'This agreement is between Formwork Ltd and {{Employee Name}}.',
      'Address: [[employee address]]',
      '',
      'Scope of Work',
      '',
      'The employee will start on <<Start Date>> and report to the manager.',
      '',
      '1. Introduction',
      '',
      'Welcome aboard.',
      '',
      '- Laptop',
      '- Allowance of {{allowance amount}}',
      '',
      'Kind regards,',
      'Jane Smith',
      '',
    ].join('\r\n');
    const { draft, warnings } = await importOk('agreement.txt', Buffer.from(text, 'utf8'));
    expect(warnings).toEqual([]);
    expect(draft.name).toBe('Agreement');
    expect(draft.content.elements.map((e) => [e.type, 'content' in e ? e.content : 'items' in e ? e.items : null])).toEqual([
      ['heading', 'EMPLOYMENT AGREEMENT'],
      ['heading', 'Parties'],
      ['paragraph', 'This agreement is between Formwork Ltd and {{employee_name}}.\nAddress: {{employee_address}}'],
      ['heading', 'Scope of Work'],
      ['paragraph', 'The employee will start on {{start_date}} and report to the manager.'],
      ['heading', '1. Introduction'],
      ['paragraph', 'Welcome aboard.'],
      ['list', ['Laptop', 'Allowance of {{allowance_amount}}']],
      ['paragraph', 'Kind regards,\nJane Smith'],
    ]);
    expect(draft.placeholders.map((p) => [p.name, p.type])).toEqual([
      ['employee_name', 'text'],
      ['employee_address', 'text'],
      ['start_date', 'date'],
      ['allowance_amount', 'number'],
    ]);
  });

  it('reads UTF-16 and Windows-1252 text', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Café {{name}}', 'utf16le')]);
    expect((await importOk('a.txt', utf16)).draft.content.elements[0]).toMatchObject({ content: 'Café {{name}}' });
    const latin = await importOk('b.txt', Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x2e]));
    expect(latin.draft.content.elements[0]).toMatchObject({ content: 'Café.' });
    expect(latin.warnings.join(' ')).toMatch(/Windows-1252/);
  });
});

describe('POST /api/formats/import: .pdf', () => {
  it('makes paragraphs in reading order, headings of larger text, and placeholders of tags', async () => {
    const { draft, warnings } = await importOk('Service Agreement.pdf', await offerLetterPdf());
    expect(draft.name).toBe('Service Agreement');
    expect(draft.content.elements.map((e) => [e.type, 'content' in e ? e.content : null])).toEqual([
      ['heading', 'Service Agreement'],
      [
        'paragraph',
        'This agreement is made between Formwork Ltd and {{client_name}} on {{agreement_date}}. The client agrees to pay the total amount of {{total_amount}} within thirty days of the invoice date, by bank transfer.',
      ],
      ['paragraph', 'Questions go to {{contact_email}}.'],
      ['heading', 'Payment Terms'],
      ['paragraph', 'Invoices are issued monthly.'],
    ]);
    expect(draft.placeholders.map((p) => [p.name, p.type])).toEqual([
      ['client_name', 'text'],
      ['agreement_date', 'date'],
      ['total_amount', 'number'],
      ['contact_email', 'email'],
    ]);
    expect(warnings.join(' ')).toMatch(/Only the text of the PDF/);
  });

  it('reads every page and drops page numbers', async () => {
    const pdf = await pdfWith([{ text: 'Clause text on this page.' }], { pages: 3 });
    const { draft } = await importOk('three.pdf', pdf);
    const texts = draft.content.elements.map((e) => ('content' in e ? e.content : ''));
    expect(texts).toEqual(['Clause text on this page.', 'Clause text on this page.', 'Clause text on this page.']);
  });

  it('opens a PDF that only restricts permissions (owner password, no user password)', async () => {
    const pdf = await pdfWith([{ text: 'Restricted but readable.' }], { ownerPassword: 'owner-only' });
    const { draft } = await importOk('perm.pdf', pdf);
    expect(draft.content.elements[0]).toMatchObject({ content: 'Restricted but readable.' });
  });
});

describe('bad files answer 4xx JSON with a clear message, never 500', () => {
  it('a password-protected .docx (encrypted OLE container)', async () => {
    await expectRefused('secret.docx', encryptedDocx(), 400, /password-protected/);
  });

  it('an old binary .doc renamed to .docx', async () => {
    await expectRefused('old.docx', legacyDoc(), 415, /older Word \(\.doc\)/);
  });

  it('a password-protected PDF', async () => {
    const pdf = await pdfWith([{ text: 'Top secret' }], { userPassword: 'user-secret' });
    await expectRefused('secret.pdf', pdf, 400, /PDF is password-protected/);
  });

  it('a corrupt or truncated .docx', async () => {
    await expectRefused('broken.docx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(500, 7)]), 400, /damaged/);
    const real = await offerLetterDocx();
    await expectRefused('cut.docx', real.subarray(0, Math.floor(real.length / 2)), 400, /damaged/);
    const badXml = zipFrom([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>'), store: true },
      { name: 'word/document.xml', data: Buffer.from('<w:document><w:body><w:p>') },
    ]);
    await expectRefused('badxml.docx', badXml, 400, /damaged|could not be read/);
  });

  it('a corrupt PDF', async () => {
    await expectRefused('broken.pdf', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage without xref'), 400, /damaged|not a valid PDF/);
  });

  it('a PDF without text (a scan)', async () => {
    await expectRefused('scan.pdf', await pdfWith([]), 400, /no selectable text/);
  });

  it('empty files and files with nothing in them', async () => {
    for (const name of ['empty.docx', 'empty.pdf', 'empty.txt']) {
      await expectRefused(name, Buffer.alloc(0), 400, /The file is empty/);
    }
    await expectRefused('blank.txt', Buffer.from('  \r\n\n\t\n'), 400, /no text to import/);
    await expectRefused('blank.docx', await simpleDocx([]), 400, /no text, lists, tables or images/);
  });

  it('bytes that do not match the extension', async () => {
    const docx = await offerLetterDocx();
    const pdf = await offerLetterPdf();
    const png = await testPng();
    await expectRefused('letter.pdf', docx, 415, /\.pdf extension says: it looks like a ZIP archive/);
    await expectRefused('letter.docx', pdf, 415, /\.docx extension says: it looks like a PDF/);
    await expectRefused('notes.txt', png, 415, /\.txt extension says: it looks like a PNG image/);
    await expectRefused('notes.txt', pdf, 415, /looks like a PDF/);
    const xlsx = zipFrom([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>'), store: true },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>'), store: true },
    ]);
    await expectRefused('sheet.docx', xlsx, 415, /looks like an Excel workbook/);
  });

  it('a type it does not import', async () => {
    const body = await expectRefused('letter.rtf', Buffer.from('{\\rtf1 Hello}'), 415, /Only \.docx, \.pdf and \.txt/);
    expect(body.error.code).toBe('unsupported_media_type');
    await expectRefused('no-extension', Buffer.from('hello'), 415, /Only \.docx, \.pdf and \.txt/);
  });

  it('a file over 10 MB answers 413', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * 1024 * 1024, 0x20)]);
    const body = await expectRefused('big.pdf', big, 413, /larger than 10 MB/);
    expect(body.error.code).toBe('payload_too_large');
  });

  it('a zip bomb, even one that lies about its size', async () => {
    const zeros = Buffer.alloc(151 * 1024 * 1024);
    const bomb = zipFrom([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>'), store: true },
      { name: 'word/document.xml', data: zeros, declaredSize: 1000 },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(deflateRawSync).toBeDefined();
    await expectRefused('bomb.docx', bomb, 400, /unpacks to far more data/);
  });

  it('a request without a file, or not multipart', async () => {
    const boundary = '----empty';
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/formats/import',
      payload: `--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: client.cookieHeader, origin: TEST_ORIGIN },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: { code: 'bad_request', message: 'No file was attached.' } });
    const json = await client.post('/api/formats/import', { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: { message: 'Send the file as a multipart upload.' } });
  });
});

describe('access', () => {
  it('answers 401 when signed out', async () => {
    const response = await importFile('a.txt', Buffer.from('Hello'), { client: null });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('refuses a cross-site post (CSRF) even with a valid session', async () => {
    const response = await importFile('a.txt', Buffer.from('Hello'), { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'csrf_rejected' } });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await client.get('/api/internal/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(doc.paths['/api/formats/import']).toBeDefined();
  });
});
