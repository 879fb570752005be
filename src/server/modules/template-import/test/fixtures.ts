/*
 * Test files built in code (no committed binaries): .docx through the `docx` package, PDFs
 * through pdfkit, an encrypted Office container through `cfb`. Used by the tests beside this file
 * and by the browser journey in e2e/template-import.spec.ts.
 */
import { deflateSync } from 'node:zlib';
import CFB from 'cfb';
import { AlignmentType, Document, HeadingLevel, ImageRun, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';

/** A 120x60 PNG at 96 dpi: a blue box with a red stripe. */
export async function testPng(width = 120, height = 60): Promise<Buffer> {
  const stripe = await sharp({ create: { width, height: Math.max(1, Math.round(height / 4)), channels: 3, background: '#d33' } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#2456c8' } })
    .composite([{ input: stripe, top: 0, left: 0 }])
    .withMetadata({ density: 96 })
    .png()
    .toBuffer();
}

const cell = (text: string, bold = false) =>
  new TableCell({ width: { size: 3000, type: WidthType.DXA }, children: [new Paragraph({ children: [new TextRun({ text, bold })] })] });

/**
 * An offer letter: Title, headings, a paragraph with bold and italic runs and tags in all three
 * syntaxes, a bulleted and a numbered list, a table with a bold header row and an image.
 */
export async function offerLetterDocx(): Promise<Buffer> {
  const png = await testPng();
  const doc = new Document({
    numbering: {
      config: [
        {
          reference: 'steps',
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START }],
        },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Offer Letter', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Position Details', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('Dear '),
              new TextRun({ text: '{{Client Name}}', bold: true }),
              new TextRun(', we are '),
              new TextRun({ text: 'delighted', italics: true }),
              new TextRun(' to offer you the role of [[Job Title]] starting on <<Start Date>>.'),
            ],
          }),
          new Paragraph({ text: 'Contact: {{email}} or {{phone}}.' }),
          new Paragraph({ text: 'Benefits', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Health insurance', bullet: { level: 0 } }),
          new Paragraph({ children: [new TextRun({ text: 'Paid', bold: true }), new TextRun(' leave')], bullet: { level: 0 } }),
          new Paragraph({ text: 'Sign the letter', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Return it by {{deadline}}', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Compensation', heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Item', true), cell('Amount', true)] }),
              new TableRow({ children: [cell('Base salary'), cell('{{salary}}')] }),
              new TableRow({ children: [cell('Signing bonus'), cell('[[bonus amount]]')] }),
            ],
          }),
          new Paragraph({ children: [new ImageRun({ type: 'png', data: png, transformation: { width: 120, height: 60 } })] }),
          new Paragraph({ text: 'Kind regards,' }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** A .docx from paragraphs of plain text. */
export async function simpleDocx(paragraphs: string[]): Promise<Buffer> {
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs.map((t) => new Paragraph({ text: t })) }] }));
}

export interface TPdfLine {
  text: string;
  size?: number;
  gapBefore?: number;
}

/** A PDF with the given lines (pdfkit wraps long ones), optionally password-protected. */
export function pdfWith(lines: TPdfLine[], opts: { userPassword?: string; ownerPassword?: string; pages?: number } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 72,
      ...(opts.userPassword || opts.ownerPassword
        ? { userPassword: opts.userPassword, ownerPassword: opts.ownerPassword ?? 'owner-secret', pdfVersion: '1.7' as const }
        : {}),
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (let p = 0; p < (opts.pages ?? 1); p++) {
      if (p > 0) doc.addPage();
      for (const line of lines) {
        if (line.gapBefore) doc.moveDown(line.gapBefore);
        doc.fontSize(line.size ?? 12).text(line.text, { width: 451 });
      }
      if ((opts.pages ?? 1) > 1) {
        // A page number in the bottom margin (without the margin, pdfkit would start a new page).
        doc.page.margins.bottom = 0;
        doc.fontSize(10).text(String(p + 1), 72, 790, { width: 451, align: 'center', lineBreak: false });
      }
    }
    doc.end();
  });
}

export const offerLetterPdf = () =>
  pdfWith([
    { text: 'Service Agreement', size: 24 },
    {
      text: 'This agreement is made between Formwork Ltd and {{Client Name}} on [[agreement date]]. The client agrees to pay the total amount of <<total amount>> within thirty days of the invoice date, by bank transfer.',
      gapBefore: 1,
    },
    { text: 'Questions go to {{contact email}}.', gapBefore: 1 },
    { text: 'Payment Terms', size: 18, gapBefore: 1 },
    { text: 'Invoices are issued monthly.', gapBefore: 0.5 },
  ]);

/**
 * An encrypted Office document as Word writes it: an OLE compound file holding EncryptionInfo
 * and EncryptedPackage streams instead of a ZIP package.
 */
export function encryptedDocx(): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, 'EncryptionInfo', Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0, ...Buffer.from('<encryption/>')]));
  CFB.utils.cfb_add(container, 'EncryptedPackage', Buffer.alloc(4096, 0x5a));
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** A legacy .doc stand-in: an OLE compound file with a WordDocument stream. */
export function legacyDoc(): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, 'WordDocument', Buffer.alloc(2048, 0x11));
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** A 2x2 24-bit BMP: a picture format Word embeds and the builder cannot show. */
export function tinyBmp(): Buffer {
  const rowSize = 8;
  const pixels = Buffer.alloc(rowSize * 2, 0x80);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(2, 18);
  header.writeInt32LE(2, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]);
}

/** A .docx with a line of text and the picture (of the given type and bytes) `times` times. */
export async function docxWithImage(type: 'png' | 'bmp' | 'jpg' | 'gif', data: Buffer, times = 1): Promise<Buffer> {
  const pictures = Array.from({ length: times }, () => new Paragraph({ children: [new ImageRun({ type, data, transformation: { width: 40, height: 40 } })] }));
  return Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ text: 'Logo below' }), ...pictures] }] }));
}

/**
 * A small PDF whose one page's content stream inflates to `inflatedMb` megabytes of text
 * operators: a few hundred KB on disk, and far more time and memory than an import may take.
 */
export function pdfBomb(inflatedMb: number): Buffer {
  const line = Buffer.from('BT /F1 12 Tf 72 712 Td (Hello {{name}}) Tj ET\n');
  const content = Buffer.alloc(inflatedMb * 1024 * 1024);
  for (let at = 0; at + line.length <= content.length; at += line.length) line.copy(content, at);
  const stream = deflateSync(content, { level: 9 });
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const piece =
      body === null
        ? Buffer.concat([
            Buffer.from(`${i + 1} 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
            stream,
            Buffer.from('\nendstream\nendobj\n'),
          ])
        : Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`);
    parts.push(piece);
    length += piece.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A .docx showing `count` different small pictures, one per paragraph. */
export async function docxWithDistinctImages(count: number): Promise<Buffer> {
  const pictures = await Promise.all(
    Array.from(
      { length: count },
      async (_, i) =>
        new Paragraph({
          children: [
            new ImageRun({
              type: 'png',
              data: await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: i % 256, g: (i * 7) % 256, b: 90 } } })
                .png()
                .toBuffer(),
              transformation: { width: 20, height: 20 },
            }),
          ],
        }),
    ),
  );
  return Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ text: 'Pictures' }), ...pictures] }] }));
}
