import type { TGatewayName } from '../../../contract/admin';
import type { TBillingCycle, TCurrency } from '../../../contract/plans';

export const GATEWAY_LABELS: Record<TGatewayName, string> = {
  razorpay: 'Razorpay',
  stripe: 'Stripe',
  paypal: 'PayPal',
};

/** The price currency follows the active gateway (docs/decisions.md). */
export function gatewayCurrency(name: TGatewayName): TCurrency {
  return name === 'razorpay' ? 'INR' : 'USD';
}

export const CYCLE_LABELS: Record<TBillingCycle, string> = { monthly: 'Monthly', yearly: 'Yearly' };
