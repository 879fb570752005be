import { formatMinorUnits } from '../../../contract/plan-catalogue.ts';
import type { TInvoiceDetails } from '../../../contract/billing.ts';
import type { TFormatContent, TRenderableFormat } from '../../../contract/format-content.ts';
import type { TPlaceholder } from '../../../contract/placeholders.ts';

/*
 * The built-in invoice: a format like any user's, printed by the same renderer. Every value is a
 * placeholder filled from the invoice's frozen details, so nothing a buyer typed (a name with
 * braces, say) can be read as markup, and the same invoice prints the same bytes every time.
 * It prints tagged, as PDF/UA-1 and PDF/A-2a (docs/accessible-pdf.md): an invoice is kept for
 * years, and archives and tax offices ask for PDF/A. Invoices issued before that print tagged
 * too, with the same words and layout in new bytes: nothing stores an invoice's bytes or hash.
 */

const date = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

const GATEWAY_TITLE = { razorpay: 'Razorpay', stripe: 'Stripe', paypal: 'PayPal' } as const;

export function invoiceDocument(details: TInvoiceDetails): { format: TRenderableFormat; data: Record<string, string> } {
  const data: Record<string, string> = {
    number: details.number,
    issued: date(details.paidAt),
    seller_name: details.seller.name,
    seller_address: details.seller.address,
    seller_tax_id: details.seller.taxId ? `Tax ID: ${details.seller.taxId}` : '',
    seller_email: details.seller.email,
    seller_questions: details.seller.email ? ` Questions about this invoice: ${details.seller.email}.` : '',
    buyer_name: details.buyer.name,
    buyer_email: details.buyer.email,
    period: `${date(details.periodStart)} – ${date(details.periodEnd)}`,
    total: formatMinorUnits(details.amountMinor, details.currency),
    currency: details.currency,
    gateway: GATEWAY_TITLE[details.gateway],
    reference: details.gatewayReference,
  };
  const lineRows = details.lines.map((line, i) => {
    data[`line_${i + 1}`] = line.description;
    data[`line_${i + 1}_amount`] = formatMinorUnits(line.amountMinor, details.currency);
    return [`{{line_${i + 1}}}`, `{{line_${i + 1}_amount}}`];
  });
  const content: TFormatContent = {
    accessible: true,
    // Its words are English whatever the installation's language.
    locale: 'en-US',
    elements: [
      { id: 'title', type: 'heading', content: 'Invoice', fontSize: 'text-3xl', level: 1, align: 'left', bold: true, italic: false, underline: false },
      {
        id: 'meta',
        type: 'paragraph',
        content: '**Invoice number:** {{number}}\n**Date:** {{issued}}\n**Status:** Paid',
        align: 'left',
        bold: false,
        italic: false,
        underline: false,
      },
      {
        id: 'parties',
        type: 'table',
        rows: [
          ['From', 'Billed to'],
          [
            // Lines the seller left empty are left out, not printed blank.
            ['**{{seller_name}}**', ...(['seller_address', 'seller_tax_id', 'seller_email'] as const).filter((k) => data[k]).map((k) => `{{${k}}}`)].join('\n'),
            '**{{buyer_name}}**\n{{buyer_email}}',
          ],
        ],
        headerRow: true,
      },
      { id: 'service', type: 'paragraph', content: '**Service period:** {{period}}', align: 'left', bold: false, italic: false, underline: false },
      {
        id: 'lines',
        type: 'table',
        rows: [['Description', 'Amount'], ...lineRows, ['**Total paid ({{currency}})**', '**{{total}}**']],
        headerRow: true,
        columnWidths: [3, 1],
      },
      {
        id: 'payment',
        type: 'paragraph',
        content: 'Paid with {{gateway}}. Payment reference: {{reference}}.',
        align: 'left',
        bold: false,
        italic: false,
        underline: false,
      },
      {
        id: 'thanks',
        type: 'paragraph',
        content: 'Thank you for choosing Formwork.{{seller_questions}}',
        align: 'left',
        bold: false,
        italic: true,
        underline: false,
      },
    ],
    footer: { text: '{{seller_name}} · Invoice {{number}} · Page {{page}} of {{pages}}', align: 'center' },
  };
  const placeholders: TPlaceholder[] = Object.keys(data).map((name) => ({ name, type: 'text', required: false, options: [] }));
  return { format: { content, placeholders }, data };
}
