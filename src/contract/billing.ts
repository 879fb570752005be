import { z } from 'zod';
import { ZGatewayName } from './admin.ts';
import { ZCalendarDay } from './dates.ts';
import { ZBillingCycle, ZCurrency, ZPlanId } from './plans.ts';

/** A plan and cycle as checkouts name them: `basic_monthly`, `premium_yearly`. */
export const ZPlanKey = z.string().regex(/^(free|basic|premium|enterprise)_(monthly|yearly)$/, 'Choose a plan such as basic_monthly or premium_yearly.');

export const ZQuoteBody = z.object({ planId: ZPlanKey });

/** How a quoted payment is taken: the card Stripe holds for the subscription, or a gateway's own page. */
export const ZPaidWith = z.discriminatedUnion('type', [
  /** Charged at once, when confirmed; `brand` and `last4` are null when Stripe names no default card. */
  z.object({ type: z.literal('card'), brand: z.string().nullable(), last4: z.string().nullable() }),
  /** Paid on the gateway's page after confirming: Razorpay Checkout, Stripe Checkout, PayPal. */
  z.object({ type: z.literal('page'), gateway: ZGatewayName, label: z.string() }),
]);

/**
 * Exactly what `create-order` would charge for a plan, shown to the user before anything moves.
 * `confirm` is the one-time token create-order needs: it works once, for this plan, in this
 * sign-in session, until `expiresAt`, and only while the price is still this one.
 */
export const ZCheckoutQuote = z.object({
  planId: ZPlanId,
  cycle: ZBillingCycle,
  planKey: ZPlanKey,
  planName: z.string(),
  /** new: a plan (or a new yearly period) from now; upgrade: the rest of the period; renewal: the next period. */
  kind: z.enum(['new', 'upgrade', 'renewal']),
  gateway: ZGatewayName,
  /** Minor units, as create-order will charge them. */
  amount: z.number().int().nonnegative(),
  /** Credit for the unused part of the current period, already taken off `amount`. */
  credit: z.number().int().nonnegative(),
  currency: ZCurrency,
  lines: z.array(z.object({ description: z.string(), amount: z.number().int() })),
  /** When the money is taken: on confirming (a saved card), or on the gateway's page right after. */
  chargeAt: z.string(),
  /** True when confirming charges the saved card at once, with no gateway page in between. */
  chargesNow: z.boolean(),
  paidWith: ZPaidWith,
  /** The period the payment pays for. */
  period: z.object({ start: z.string(), end: z.string() }),
  confirm: z.string(),
  expiresAt: z.string(),
});
export type TCheckoutQuote = z.infer<typeof ZCheckoutQuote>;

export const ZCreateOrderBody = z.object({
  planId: ZPlanKey,
  /** The token of a quote for this plan, given to this sign-in session (POST /api/subscription/quote). */
  confirm: z
    .string({ error: 'Review the price and confirm it first: nothing is charged without a confirmation.' })
    .min(16, 'This confirmation is not valid. Review the price and confirm it again.')
    .max(200, 'This confirmation is not valid. Review the price and confirm it again.'),
});
export type TCreateOrderBody = z.infer<typeof ZCreateOrderBody>;

/** What the browser needs to take the payment, for the active gateway. */
export const ZCheckoutNext = z.discriminatedUnion('type', [
  /** Razorpay Checkout, opened on our page from the gateway's script. */
  z.object({
    type: z.literal('razorpay'),
    checkoutScriptUrl: z.string(),
    options: z.object({
      key: z.string(),
      order_id: z.string(),
      amount: z.number().int(),
      currency: ZCurrency,
      name: z.string(),
      description: z.string(),
      prefill: z.object({ name: z.string(), email: z.string() }),
    }),
  }),
  /** Stripe Checkout and PayPal approval happen on the gateway's own page. */
  z.object({ type: z.literal('redirect'), url: z.string() }),
  /** Nothing left to do: a plan change charged to the card already on file. */
  z.object({ type: z.literal('done') }),
]);

export const ZCheckout = z.object({
  gateway: ZGatewayName,
  /** The gateway's order: a Razorpay order, a Stripe Checkout Session, a PayPal order. */
  orderId: z.string(),
  /** Minor units (cents, paise), decided by the server's catalogue. */
  amount: z.number().int().nonnegative(),
  currency: ZCurrency,
  /** Credit for the unused part of the current period, already taken off `amount`. */
  credit: z.number().int().nonnegative(),
  planId: ZPlanId,
  cycle: ZBillingCycle,
  next: ZCheckoutNext,
});
export type TCheckout = z.infer<typeof ZCheckout>;

/**
 * The return from a checkout, as each gateway hands it back: Razorpay's three fields and the plan,
 * Stripe's Checkout Session id, or PayPal's order id (its `token`).
 */
export const ZVerifyPaymentBody = z.object({
  razorpay_order_id: z.string().max(200).optional(),
  razorpay_payment_id: z.string().max(200).optional(),
  razorpay_signature: z.string().max(200).optional(),
  planId: ZPlanKey.optional(),
  session_id: z.string().max(300).optional(),
  paypal_order_id: z.string().max(200).optional(),
});
export type TVerifyPaymentBody = z.infer<typeof ZVerifyPaymentBody>;

export const ZVerifyPaymentResult = z.object({
  planId: ZPlanId,
  planName: z.string(),
  cycle: ZBillingCycle,
  periodEnd: z.string(),
  invoiceId: z.string().nullable(),
});
export type TVerifyPaymentResult = z.infer<typeof ZVerifyPaymentResult>;

export const ZSubscriptionStatus = z.enum(['active', 'past_due', 'ended']);

export const ZSubscriptionView = z.object({
  planId: ZPlanId,
  cycle: ZBillingCycle,
  gateway: ZGatewayName,
  status: ZSubscriptionStatus,
  periodStart: z.string(),
  periodEnd: z.string(),
  /** Renewed by the gateway (Stripe), or paid again by the user (Razorpay, PayPal). */
  renewal: z.enum(['automatic', 'manual']),
  cancelAtPeriodEnd: z.boolean(),
  scheduled: z.object({ planId: ZPlanId, cycle: ZBillingCycle }).nullable(),
  graceEndsAt: z.string().nullable(),
  /** A manual renewal the user can pay now (the next period, at the price it will cost). */
  payAgain: z.object({ planKey: ZPlanKey, amount: z.number().int(), currency: ZCurrency, due: z.string() }).nullable(),
});
export type TSubscriptionView = z.infer<typeof ZSubscriptionView>;

export const ZBillingOverview = z.object({
  planId: ZPlanId,
  /** The active gateway, or null: no checkout is possible until an admin turns one on. */
  gateway: ZGatewayName.nullable(),
  currency: ZCurrency,
  subscription: ZSubscriptionView.nullable(),
  /** The plan was set by an administrator, not bought through a gateway. */
  managedByAdmin: z.boolean(),
  usage: z.object({
    periodStart: z.string(),
    periodEnd: z.string(),
    generations: z.object({ used: z.number().int(), limit: z.number().int() }),
    formats: z.object({ used: z.number().int(), limit: z.number().int().nullable() }),
    storage: z.object({ usedBytes: z.number().int(), limitBytes: z.number().int() }),
    /** Sent this calendar month (UTC); a null limit is unlimited. */
    signatureRequests: z.object({ used: z.number().int(), limit: z.number().int().nullable() }),
  }),
});
export type TBillingOverview = z.infer<typeof ZBillingOverview>;

export const ZChangePlanBody = z.object({ planId: ZPlanKey });

export const ZInvoiceStatus = z.enum(['paid', 'refunded', 'partially_refunded']);

export const ZInvoiceSummary = z.object({
  id: z.string(),
  number: z.string(),
  issuedAt: z.string(),
  planName: z.string(),
  cycle: ZBillingCycle,
  periodStart: z.string(),
  periodEnd: z.string(),
  amount: z.number().int(),
  currency: ZCurrency,
  gateway: ZGatewayName,
  gatewayReference: z.string(),
  status: ZInvoiceStatus,
  refunded: z.number().int(),
});
export type TInvoiceSummary = z.infer<typeof ZInvoiceSummary>;

/** What an invoice says, frozen when it is issued so it prints the same forever. */
export type TInvoiceDetails = {
  number: string;
  seller: { name: string; address: string; taxId: string; email: string };
  buyer: { name: string; email: string };
  planName: string;
  cycle: 'monthly' | 'yearly';
  periodStart: string;
  periodEnd: string;
  /** What was charged, line by line: the plan for the period, less any credit for unused time. */
  lines: { description: string; amountMinor: number }[];
  amountMinor: number;
  currency: 'USD' | 'INR';
  gateway: 'razorpay' | 'stripe' | 'paypal';
  gatewayReference: string;
  paidAt: string;
};

/** Invoice numbers as printed: FW-000042. */
export const invoiceNumberText = (n: number) => `FW-${String(n).padStart(6, '0')}`;

export const ZAdminPayment = z.object({
  id: z.string(),
  /** `id` is null once the account is deleted; `email` is then the address the invoice was billed to. */
  user: z.object({ id: z.string().nullable(), email: z.string() }),
  planId: ZPlanId,
  cycle: ZBillingCycle,
  amount: z.number().int(),
  refunded: z.number().int(),
  currency: ZCurrency,
  status: ZInvoiceStatus,
  gateway: ZGatewayName,
  gatewayReference: z.string(),
  createdAt: z.string(),
  invoiceId: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
});
export type TAdminPayment = z.infer<typeof ZAdminPayment>;

export const ZAdminPaymentsQuery = z.object({
  status: ZInvoiceStatus.optional(),
  gateway: ZGatewayName.optional(),
  /** Part of the payer's email. */
  email: z.string().trim().max(200).optional(),
  from: ZCalendarDay.optional(),
  to: ZCalendarDay.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TAdminPaymentsQuery = z.infer<typeof ZAdminPaymentsQuery>;

export const ZAdminPayments = z.object({
  payments: z.array(ZAdminPayment),
  total: z.number().int(),
  /** Sums of what was received (less refunds) per currency, over the whole filter. */
  totals: z.array(z.object({ currency: ZCurrency, amount: z.number().int() })),
});
export type TAdminPayments = z.infer<typeof ZAdminPayments>;
