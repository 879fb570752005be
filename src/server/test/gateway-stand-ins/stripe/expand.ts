import { parseNestedForm, type TRequest } from '../stand-in-server.ts';
import type { TStripeState } from './state.ts';

/** Expands the ids the request names: `invoice`, `latest_invoice`, and their `payments` (always included here). */
export function expand<T extends Record<string, unknown>>(state: TStripeState, object: T, request: TRequest): T {
  const query = parseNestedForm(request.query.toString());
  const wanted = Object.values((query.expand ?? request.body.expand ?? {}) as Record<string, string>);
  const copy: Record<string, unknown> = { ...object };
  for (const field of ['invoice', 'latest_invoice']) {
    if (wanted.includes(field) && typeof copy[field] === 'string') copy[field] = state.invoices.get(copy[field] as string) ?? copy[field];
  }
  if (wanted.includes('default_payment_method') && typeof copy.default_payment_method === 'string') {
    copy.default_payment_method = state.paymentMethods.get(copy.default_payment_method) ?? copy.default_payment_method;
  }
  const settings = copy.invoice_settings as { default_payment_method: string | null } | undefined;
  if (wanted.includes('invoice_settings.default_payment_method') && typeof settings?.default_payment_method === 'string') {
    copy.invoice_settings = {
      ...settings,
      default_payment_method: state.paymentMethods.get(settings.default_payment_method) ?? settings.default_payment_method,
    };
  }
  return copy as T;
}
