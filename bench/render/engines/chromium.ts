/**
 * Baseline: Chromium printing equivalent HTML to PDF through playwright-core, with Debian's
 * /usr/bin/chromium. One browser and one page are launched once and reused; every document is
 * `page.setContent(html)` + `page.pdf()`. The same TTF files are embedded through @font-face
 * data URLs (only the faces the document uses, as a careful user would do).
 */
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { INVOICE_HEADING_PREFIX, INVOICE_TAX_PERCENT, LAYOUT, PT_PER_PX, docData, invoiceLines, refDoc, type Kind, type RefDoc } from '../fixture.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/chromium.ts';
import { fontPaths } from '../fonts.ts';
import { makeGradientPng } from '../png.ts';
import type { Engine } from './types.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function fontFace(family: string, path: string, weight: number): string {
  const b64 = readFileSync(path).toString('base64');
  return `@font-face{font-family:'${family}';src:url(data:font/ttf;base64,${b64}) format('truetype');font-weight:${weight};font-style:normal}`;
}

export function buildHtml(d: RefDoc, faces: { latin: string; scripts: string }, pngDataUrl: string): string {
  const body = LAYOUT.bodyPx * PT_PER_PX;
  const gap = LAYOUT.blockGapPt;
  const parts: string[] = [];
  parts.push(`<h1>${esc(d.heading)}</h1>`);
  for (const p of d.paragraphs) parts.push(`<p>${esc(p)}</p>`);
  for (const l of d.scriptLines) {
    const dir = l.script === 'arabic' ? ' dir="rtl"' : '';
    parts.push(`<p class="line"${dir}>${esc(l.text)}</p>`);
  }
  if (d.listItems.length > 0) parts.push(`<ul>${d.listItems.map((li) => `<li>${esc(li)}</li>`).join('')}</ul>`);
  if (d.image) {
    parts.push(`<img src="${pngDataUrl}" style="width:${d.image.widthPt}pt;height:${d.image.heightPt}pt">`);
  }
  if (d.table) {
    const t = d.table;
    const cols = t.widths.map((w) => `<col style="width:${(w * 100).toFixed(2)}%">`).join('');
    const head = `<thead><tr>${t.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>`;
    const rows = t.rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('');
    parts.push(`<table><colgroup>${cols}</colgroup>${head}<tbody>${rows}</tbody></table>`);
  }
  const css =
    (d.scriptLines.length > 0 ? faces.latin + faces.scripts : faces.latin) +
    `@page{size:A4;margin:${LAYOUT.marginMm}mm}` +
    `html,body{margin:0;padding:0}` +
    `body{font-family:'Sans','Deva','Arab';font-size:${body}pt;line-height:${LAYOUT.lineHeight}}` +
    `h1{font-size:${LAYOUT.headingPx * PT_PER_PX}pt;font-weight:700;line-height:1.25;margin:0 0 ${gap}pt}` +
    `p{margin:0 0 ${gap}pt;text-align:justify}p.line{text-align:start}` +
    `ul{margin:0 0 ${gap}pt;padding-left:${body * 1.5}pt}` +
    `img{display:block;margin:0 0 ${gap}pt}` +
    `table{border-collapse:collapse;width:100%;table-layout:fixed}` +
    `th,td{border:0.5pt solid #888;padding:${LAYOUT.cellPadPt.y}pt ${LAYOUT.cellPadPt.x}pt;text-align:left;vertical-align:top}` +
    `th{font-weight:700}thead{display:table-header-group}tr{break-inside:avoid}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(d.title)}</title><style>${css}</style></head><body>${parts.join('')}</body></html>`;
}

const euros = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });
const money = (cents: number) => euros.format(cents / 100);

/**
 * Invoice `i` as the HTML a template engine would make from the same data: each line's amount,
 * the subtotal, tax and total computed in integer cents (exact, as ours computes in decimals),
 * the header row repeating on every page.
 */
export function buildInvoiceHtml(i: number, faces: { latin: string }): string {
  const d = docData(i);
  const body = LAYOUT.bodyPx * PT_PER_PX;
  let subtotal = 0;
  const rows = invoiceLines(i)
    .map((l) => {
      const amount = l.qty * Math.round(Number(l.unitPrice) * 100);
      subtotal += amount;
      return `<tr><td>${esc(l.description)}</td><td>${l.qty}</td><td>${money(Math.round(Number(l.unitPrice) * 100))}</td><td>${money(amount)}</td></tr>`;
    })
    .join('');
  const tax = Math.floor((subtotal * INVOICE_TAX_PERCENT + 50) / 100);
  const totals =
    `<tr><td></td><td></td><td>Subtotal</td><td>${money(subtotal)}</td></tr>` +
    `<tr><td></td><td></td><td>Tax (${INVOICE_TAX_PERCENT}%)</td><td>${money(tax)}</td></tr>` +
    `<tr><td></td><td></td><td><b>Total</b></td><td><b>${money(subtotal + tax)}</b></td></tr>`;
  const css =
    faces.latin +
    `@page{size:A4;margin:${LAYOUT.marginMm}mm}html,body{margin:0;padding:0}` +
    `body{font-family:'Sans';font-size:${body}pt;line-height:${LAYOUT.lineHeight}}` +
    `h1{font-size:${LAYOUT.headingPx * PT_PER_PX}pt;font-weight:700;line-height:1.25;margin:0 0 ${LAYOUT.blockGapPt}pt}` +
    `p{margin:0 0 ${LAYOUT.blockGapPt}pt}` +
    `table{border-collapse:collapse;width:100%;table-layout:fixed}` +
    `th,td{border:0.5pt solid #888;padding:${LAYOUT.cellPadPt.y}pt ${LAYOUT.cellPadPt.x}pt;text-align:left;vertical-align:top}` +
    `th{font-weight:700;background:#f3f4f6}thead{display:table-header-group}tr{break-inside:avoid}`;
  const cols = [55, 10, 17, 18].map((w) => `<col style="width:${w}%">`).join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Invoice ${esc(d.number)}</title><style>${css}</style></head><body>` +
    `<h1>${INVOICE_HEADING_PREFIX} ${esc(d.number)}</h1><p><b>Bill to</b> ${esc(d.customer)}</p>` +
    `<table><colgroup>${cols}</colgroup><thead><tr><th>Description</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr></thead><tbody>${rows}${totals}</tbody></table>` +
    `</body></html>`
  );
}

export async function createChromiumEngine(): Promise<Engine> {
  const paths = fontPaths();
  const faces = {
    latin: fontFace('Sans', paths.sans, 400) + fontFace('Sans', paths.sansBold, 700),
    scripts: fontFace('Deva', paths.devanagari, 400) + fontFace('Arab', paths.arabic, 400),
  };
  const pngDataUrl = `data:image/png;base64,${makeGradientPng().toString('base64')}`;
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const page: Page = await browser.newPage();

  return {
    name: 'chromium',
    async render(kind: Kind, i: number) {
      const html = kind === 'invoice' ? buildInvoiceHtml(i, faces) : buildHtml(refDoc(kind, docData(i)), faces, pngDataUrl);
      await page.setContent(html, { waitUntil: 'load' });
      // (No document.fonts.ready round trip: the load event already waits for the data-URL faces;
      // the sanity check confirms with pdffonts that the TTFs are embedded.)
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    },
    async close() {
      await page.close();
      await browser.close();
    },
  };
}
