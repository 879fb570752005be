import { standInId, type TRoute } from '../stand-in-server.ts';
import { authed, money, noSuch, stripeError, unauthorized, type TPrice, type TStripeState } from './state.ts';

/** Products (made once by id, read back) and the inline prices Checkout and updates carry. */

export function priceFrom(data: Record<string, unknown>): TPrice {
  const recurring = data.recurring as { interval: 'month' | 'year' };
  return {
    id: standInId('price_'),
    object: 'price',
    product: String(data.product),
    unit_amount: Number(data.unit_amount),
    currency: String(data.currency),
    recurring: { interval: recurring.interval, interval_count: 1 },
  };
}

export const lineText = (state: TStripeState, price: TPrice) =>
  `1 × ${state.products.get(price.product)?.name ?? price.product} (at ${money(price.unit_amount, price.currency)} / ${price.recurring.interval})`;

export function productRoutes(state: TStripeState): TRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/v1\/products\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const product = state.products.get(request.params[0]!);
        return product ? { json: product } : noSuch('product', request.params[0]!);
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/products$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const id = String(request.body.id ?? standInId('prod_'));
        if (state.products.has(id)) return stripeError(400, 'invalid_request_error', `Product already exists.`, 'resource_already_exists');
        const product = { id, object: 'product' as const, name: String(request.body.name) };
        state.products.set(id, product);
        return { json: product };
      },
    },
  ];
}
