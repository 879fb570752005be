import type { TBillingOverview, TCheckout, TCheckoutQuote, TInvoiceSummary, TVerifyPaymentBody, TVerifyPaymentResult } from '../../../contract/billing';
import { api } from '../../lib/api';

/** The billing calls: the plan and its period, checkout, changes, and invoices. */
export const billingApi = {
  /** What a plan would cost and how it is paid; charges nothing. */
  quote: (planKey: string) => api.post<TCheckoutQuote>('/api/subscription/quote', { planId: planKey }),
  /** Pays as quoted: only after the user clicked to confirm that quote. */
  createOrder: (quote: Pick<TCheckoutQuote, 'planKey' | 'confirm'>) =>
    api.post<TCheckout>('/api/subscription/create-order', { planId: quote.planKey, confirm: quote.confirm }),
  verifyPayment: (body: TVerifyPaymentBody) => api.post<TVerifyPaymentResult>('/api/subscription/verify-payment', body),
  downgrade: (planKey: string) => api.post<TBillingOverview>('/api/subscription/downgrade', { planId: planKey }),
  cancel: () => api.post<TBillingOverview>('/api/subscription/cancel'),
  resume: () => api.post<TBillingOverview>('/api/subscription/resume'),
  invoices: () => api.get<TInvoiceSummary[]>('/api/subscription/invoices'),
  invoicePdf: (id: string) => api.blob('GET', `/api/subscription/invoices/${encodeURIComponent(id)}/pdf`),
};
