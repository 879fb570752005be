import type { TBillingOverview, TCheckout, TInvoiceSummary, TVerifyPaymentBody, TVerifyPaymentResult } from '../../../contract/billing';
import { api } from '../../lib/api';

/** The billing calls: the plan and its period, checkout, changes, and invoices. */
export const billingApi = {
  createOrder: (planKey: string) => api.post<TCheckout>('/api/subscription/create-order', { planId: planKey }),
  verifyPayment: (body: TVerifyPaymentBody) => api.post<TVerifyPaymentResult>('/api/subscription/verify-payment', body),
  downgrade: (planKey: string) => api.post<TBillingOverview>('/api/subscription/downgrade', { planId: planKey }),
  cancel: () => api.post<TBillingOverview>('/api/subscription/cancel'),
  resume: () => api.post<TBillingOverview>('/api/subscription/resume'),
  invoices: () => api.get<TInvoiceSummary[]>('/api/subscription/invoices'),
  invoicePdf: (id: string) => api.blob('GET', `/api/subscription/invoices/${encodeURIComponent(id)}/pdf`),
};
