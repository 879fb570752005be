import { standInId, type TRoute } from '../stand-in-server.ts';
import { expand } from './expand.ts';
import { authed, noSuch, unauthorized, type TPaymentMethod, type TStripeState } from './state.ts';

/** Customers and their saved cards (payment methods). */

/** A buyer's card, saved on their customer as Checkout saves it. */
export function savedCard(state: TStripeState, customer: string): TPaymentMethod {
  const card = state.card ?? { brand: 'visa', last4: '4242' };
  const method: TPaymentMethod = {
    id: standInId('pm_'),
    object: 'payment_method',
    type: 'card',
    customer,
    card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: 'credit', country: 'US' },
    created: state.now(),
  };
  state.paymentMethods.set(method.id, method);
  return method;
}

/**
 * Moves a subscription's card to its customer's invoice default (as when the buyer saves a
 * card in the customer portal): the subscription names none of its own.
 */
export function moveCardToCustomer(state: TStripeState, subscriptionId: string) {
  const sub = state.subscriptions.get(subscriptionId)!;
  state.customers.get(sub.customer)!.invoice_settings.default_payment_method = sub.default_payment_method;
  sub.default_payment_method = null;
}

export function customerRoutes(state: TStripeState): TRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/v1\/customers\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const customer = state.customers.get(request.params[0]!);
        return customer ? { json: expand(state, customer, request) } : noSuch('customer', request.params[0]!);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/payment_methods\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const method = state.paymentMethods.get(request.params[0]!);
        return method ? { json: method } : noSuch('payment_method', request.params[0]!);
      },
    },
  ];
}
