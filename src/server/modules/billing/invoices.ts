import type { TInvoiceDetails, TInvoiceSummary } from '../../../contract/billing.ts';
import { notFound } from '../../http/app-error.ts';
import type { TBillingContext } from './billing-context.ts';
import { invoiceDocument } from './invoice-format.ts';

/** The user's invoices, newest first, with their payment's refund status. */
export async function invoices(ctx: TBillingContext, ownerId: string): Promise<TInvoiceSummary[]> {
  return (await ctx.repo.invoicesOf(ownerId)).map(({ invoice, payment }) => invoiceSummary(invoice.id, invoice.details, payment));
}

/** An invoice's PDF; `ownerId` undefined for admins, who may read any. */
export async function invoicePdf(ctx: TBillingContext, id: string, ownerId: string | undefined): Promise<{ pdf: Uint8Array; fileName: string }> {
  const found = await ctx.repo.invoice(id, ownerId);
  if (!found) throw notFound('Invoice');
  const { format, data } = invoiceDocument(found.invoice.details);
  const rendered = await ctx.deps.pdf.render({
    // An invoice prints no uploaded images; a deleted account's invoice has no owner left.
    ownerId: found.invoice.ownerId ?? '',
    format,
    data,
    title: `Invoice ${found.invoice.details.number}`,
    creationDate: found.invoice.issuedAt,
  });
  return { pdf: rendered.pdf, fileName: `formwork-invoice-${found.invoice.details.number}.pdf` };
}

function invoiceSummary(id: string, details: TInvoiceDetails, payment: { status: TInvoiceSummary['status']; refundedMinor: number }): TInvoiceSummary {
  return {
    id,
    number: details.number,
    issuedAt: details.paidAt,
    planName: details.planName,
    cycle: details.cycle,
    periodStart: details.periodStart,
    periodEnd: details.periodEnd,
    amount: details.amountMinor,
    currency: details.currency,
    gateway: details.gateway,
    gatewayReference: details.gatewayReference,
    status: payment.status,
    refunded: payment.refundedMinor,
  };
}
