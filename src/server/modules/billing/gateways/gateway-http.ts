import { AppError } from '../../../http/app-error.ts';

export type TGatewayName = 'razorpay' | 'stripe' | 'paypal';

const GATEWAY_TITLE: Record<TGatewayName, string> = { razorpay: 'Razorpay', stripe: 'Stripe', paypal: 'PayPal' };
export const gatewayTitle = (name: TGatewayName) => GATEWAY_TITLE[name];

/** The gateway did not answer, or answered with its own failure: the user may simply try again. */
export const gatewayUnavailable = (name: TGatewayName) =>
  new AppError('unavailable', `${GATEWAY_TITLE[name]} could not be reached. Nothing was charged; try again in a moment.`);

/**
 * The gateway refused a request we built: a configuration problem for the operator (wrong keys,
 * wrong account), which the user cannot fix. The gateway's own words go to the log only.
 */
export class GatewayRefusal extends Error {
  constructor(
    readonly gateway: TGatewayName,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${GATEWAY_TITLE[gateway]} answered ${status}`);
  }
}

/** JSON over HTTPS to a gateway's API, with a deadline; never retried (payments must not repeat). */
export async function gatewayJson<T>(
  gateway: TGatewayName,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  timeoutMs = 15_000,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw gatewayUnavailable(gateway);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // kept as text for the log
  }
  if (response.status >= 500) throw gatewayUnavailable(gateway);
  if (!response.ok) throw new GatewayRefusal(gateway, response.status, body);
  return body as T;
}

/** `https://api.example.com/` + `/v1/orders` without doubled or missing slashes. */
export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
