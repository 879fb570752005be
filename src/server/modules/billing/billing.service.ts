import { adminPayments, detachForAdmin } from './admin-billing.ts';
import { createBillingContext, type TBillingContext, type TBillingDeps } from './billing-context.ts';
import { cancel, cancelForDeletion } from './cancel.ts';
import { startCheckout } from './checkout.ts';
import { checkoutSources } from './checkout-sources.ts';
import { invoicePdf, invoices } from './invoices.ts';
import { overview } from './overview.ts';
import { resume, scheduleDowngrade } from './plan-changes.ts';
import { quote } from './quote.ts';
import { sweep } from './renewals.ts';
import { verifyPayment } from './verify-payment.ts';
import { handleWebhook } from './webhooks/receive-webhook.ts';

/**
 * Plans, payments, subscriptions and invoices. Each use case lives in its own file and takes the
 * shared context first; this object binds them to one context, so callers see one service.
 */
export function createBillingService(deps: TBillingDeps) {
  const ctx = createBillingContext(deps);
  const use =
    <A extends unknown[], R>(useCase: (ctx: TBillingContext, ...args: A) => R) =>
    (...args: A): R =>
      useCase(ctx, ...args);
  return {
    overview: use(overview),
    quote: use(quote),
    startCheckout: use(startCheckout),
    verifyPayment: use(verifyPayment),
    handleWebhook: use(handleWebhook),
    scheduleDowngrade: use(scheduleDowngrade),
    cancel: use(cancel),
    cancelForDeletion: use(cancelForDeletion),
    resume: use(resume),
    invoices: use(invoices),
    invoicePdf: use(invoicePdf),
    adminPayments: use(adminPayments),
    sweep: use(sweep),
    checkoutSources: use(checkoutSources),
    detachForAdmin: use(detachForAdmin),
  };
}
export type TBillingService = ReturnType<typeof createBillingService>;
