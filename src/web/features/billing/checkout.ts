import type { TCheckout, TCheckoutQuote } from '../../../contract/billing';
import { billingApi } from './api';

/*
 * Taking the payment the server asked for, with whichever gateway is active: Razorpay Checkout
 * opens over our page from Razorpay's script; Stripe Checkout and PayPal approval are pages of
 * their own that send the buyer back to /payment-success. The amount always comes from the
 * server's quote, which the user confirmed with a click; nothing here decides a price.
 */

type TRazorpayOptions = Extract<TCheckout['next'], { type: 'razorpay' }>['options'] & {
  handler: (response: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }) => void;
  modal: { ondismiss: () => void };
  theme?: { color: string };
};
type TRazorpayCheckout = {
  open(): void;
  on(event: 'payment.failed', handler: (response: { error?: { description?: string } }) => void): void;
};
declare global {
  interface Window {
    Razorpay?: new (options: TRazorpayOptions) => TRazorpayCheckout;
  }
}

const loading = new Map<string, Promise<void>>();

/** Loads a gateway's checkout script once per address. */
function loadScript(src: string): Promise<void> {
  let promise = loading.get(src);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loading.delete(src);
        script.remove();
        reject(new Error('The payment window could not be loaded. Check your connection and try again.'));
      };
      document.head.appendChild(script);
    });
    loading.set(src, promise);
  }
  return promise;
}

export type TCheckoutOutcome =
  /** The browser is on its way to the gateway's page, or to /payment-success. */
  | { kind: 'left' }
  /** Charged to the card on file at once; the plan has changed. */
  | { kind: 'done'; checkout: TCheckout }
  /** The buyer closed the payment window. */
  | { kind: 'dismissed' };

/**
 * Pays as `quote` said, once the user has clicked to confirm it: the only caller of create-order.
 * `onOrdered` runs when the server has placed the order, before any gateway window opens (a dialog
 * over the page must close first). `go` navigates inside the app. Errors from the server (an
 * `ApiError`) or the script are thrown for the caller to show.
 */
export async function runCheckout(quote: TCheckoutQuote, go: (href: string) => void, onOrdered: () => void = () => {}): Promise<TCheckoutOutcome> {
  const planKey = quote.planKey;
  const checkout = await billingApi.createOrder(quote);
  onOrdered();
  const next = checkout.next;
  if (next.type === 'done') return { kind: 'done', checkout };
  // The server charges what it quoted; a gateway page for any other amount is not opened.
  if (checkout.amount !== quote.amount || checkout.currency !== quote.currency) {
    throw new Error('The order does not match the price you confirmed, so it was not opened. Nothing was charged; please try again.');
  }
  if (next.type === 'redirect') {
    window.location.assign(next.url);
    return { kind: 'left' };
  }
  await loadScript(next.checkoutScriptUrl);
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new Error('The payment window could not be started. Reload the page and try again.');
  return new Promise<TCheckoutOutcome>((resolve) => {
    const checkoutWindow = new Razorpay({
      ...next.options,
      theme: { color: '#4f46e5' },
      handler: (response) => {
        const query = new URLSearchParams({ ...response, plan: planKey });
        go(`/payment-success?${query.toString()}`);
        resolve({ kind: 'left' });
      },
      modal: { ondismiss: () => resolve({ kind: 'dismissed' }) },
    });
    checkoutWindow.on('payment.failed', (response) => {
      const query = new URLSearchParams({ status: 'failed', plan: planKey, reason: response.error?.description ?? '' });
      go(`/payment-success?${query.toString()}`);
      resolve({ kind: 'left' });
    });
    checkoutWindow.open();
  });
}
