/**
 * Page images of the invoice starter filled in, in US dollars (en-US) and in euros (de-DE), for
 * docs/second-look-num.md: `npx tsx scripts/render-invoice-images.ts`. Money and the tax rate print
 * by their displays, so the two differ only in the format's locale and currency.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkDocumentData } from '../src/contract/documents.ts';
import { STARTER_FORMATS } from '../src/contract/starter-formats.ts';
import { renderPdf } from '../src/render/index.ts';

const out = path.join(import.meta.dirname, '..', 'docs', 'screenshots', 'second-look');
const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;
const data = {
  business_name: 'Northwind Studio',
  business_address: '12 Harbour Road\nBristol BS1 4RN',
  invoice_number: 'INV-2026-0142',
  issue_date: '2026-11-02',
  due_date: '2026-11-30',
  client_name: 'Contoso Ltd',
  client_email: 'accounts@contoso.example',
  client_address: '400 Market Street\nSpringfield',
  items: [
    { description: 'Brand workshop (two days)', qty: '2', unit_price: '1200' },
    { description: 'Logo and style guide', qty: '1', unit_price: '2450.5' },
    { description: 'Website design, per page', qty: '6', unit_price: '385' },
  ],
  tax_rate: '19.5',
  reverse_charge: 'false',
  payment_terms: '30 days',
  payment_details: 'Bank transfer to account 12345678, sort code 01-02-03.',
};

const dir = mkdtempSync(path.join(tmpdir(), 'invoice-images-'));
try {
  for (const [file, locale, currency] of [
    ['invoice-usd', 'en-US', 'USD'],
    ['invoice-eur-de', 'de-DE', 'EUR'],
  ] as const) {
    const content = { ...invoice.content, locale, currency };
    const check = checkDocumentData(invoice.placeholders, data, content);
    if (Object.keys(check.fields).length > 0) throw new Error(`The sample data is refused: ${JSON.stringify(check.fields)}`);
    const { pdf } = renderPdf({
      format: { content, placeholders: invoice.placeholders },
      data: check.values,
      assets: {},
      meta: { title: 'Invoice', creationDate: new Date('2026-11-02T09:00:00Z') },
    });
    const pdfPath = path.join(dir, `${file}.pdf`);
    writeFileSync(pdfPath, pdf);
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', '-f', '1', '-l', '1', pdfPath, path.join(out, file)]);
    console.log(`wrote docs/screenshots/second-look/${file}.png`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
