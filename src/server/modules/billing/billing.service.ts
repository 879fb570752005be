import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import {
  invoiceNumberText,
  type TAdminPayments,
  type TAdminPaymentsQuery,
  type TBillingOverview,
  type TCheckout,
  type TCheckoutQuote,
  type TCreateOrderBody,
  type TInvoiceDetails,
  type TInvoiceSummary,
  type TSubscriptionView,
  type TVerifyPaymentBody,
  type TVerifyPaymentResult,
} from '../../../contract/billing.ts';
import {
  formatMinorUnits,
  parsePlanKey,
  periodCharge,
  planChange,
  planStorageKey,
  type TBillingCycle,
  type TCurrency,
  type TPlan,
  type TPlanCatalogue,
  type TPlanId,
} from '../../../contract/plans.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TPdfService } from '../documents/pdf.service.ts';
import type { TQuotaService } from '../quota/quota.service.ts';
import type { TSystemService } from '../system/system.service.ts';
import type { TBillingQueries, TBillingRepository, TOrderRow, TPaymentRow, TSubscriptionRow } from './billing.repository.ts';
import { GatewayRefusal, gatewayTitle, type TGatewayName } from './gateways/gateway-http.ts';
import type { TGatewayOpener, TOpenGateway } from './gateways/open-gateway.ts';
import { completedCapture, paypalMinor, ZPayPalEvent, type TPayPalEvent } from './gateways/paypal.ts';
import { ZRazorpayEvent, type TRazorpayEvent } from './gateways/razorpay.ts';
import { GATEWAY_DEFAULT_ADDRESSES, ZGatewayConfiguration } from '../../../contract/admin.ts';
import { invoicePaymentIntent, invoicePeriod, invoiceSubscriptionId, subscriptionPeriod } from './gateways/stripe.ts';
import { invoiceDocument } from './invoice-format.ts';
import { addDays, calendarMonth, GRACE_DAYS, periodEnd, quotaMonth, RENEWAL_WINDOW_DAYS, unusedShare } from './periods.ts';

/** Gateways refuse tiny charges; an upgrade late in a period costs at least one unit of money. */
const MIN_CHARGE_MINOR = 100;

const cycleWord = (cycle: TBillingCycle) => (cycle === 'yearly' ? 'yearly' : 'monthly');
const day = (date: Date) => date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** Where a paid period's documents count at `at`: its start, or for a yearly plan the month it is in. */
const quotaKey = (periodStart: Date, cycle: TBillingCycle, at: Date) =>
  (cycle === 'yearly' ? quotaMonth(periodStart, at).start : periodStart).toISOString();

/** Prices follow the gateway that takes the money: rupees through Razorpay, dollars otherwise. */
const currencyOf = (gateway: TGatewayName): TCurrency => (gateway === 'razorpay' ? 'INR' : 'USD');

/**
 * A payment for an order that another payment has already paid. Thrown inside the transaction, so
 * nothing of it is written; the caller gives the money back once the transaction is over.
 */
class SecondPayment extends Error {
  constructor(
    readonly order: TOrderRow,
    readonly paid: TPaidWith,
    readonly first: TPaymentRow,
  ) {
    super('a second payment for an order already paid');
  }
}

/** A confirmation lasts long enough to read the price, not long enough to be saved up for later. */
const QUOTE_LIFETIME_MS = 15 * 60_000;

/** Quotes one user may ask for within a quote's lifetime. */
const QUOTES_PER_LIFETIME = 30;

/** Confirmation tokens are kept only as this hash: the database never holds one that could be replayed. */
const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const PAGE_LABEL: Record<TGatewayName, string> = { razorpay: 'Razorpay', stripe: 'Stripe Checkout', paypal: 'PayPal' };

/** `premium_yearly` as a sentence says it: "Premium (yearly)". */
const planWords = (planKey: string) => {
  const [plan = planKey, cycle = ''] = planKey.split('_');
  return `${plan[0]!.toUpperCase()}${plan.slice(1)} (${cycle})`;
};

type TPaidWith = {
  gatewayPaymentId: string;
  chargeRef: string | null;
  amountMinor: number;
  currency: string;
};

/**
 * What a transaction needs from outside it, read before it starts: on the embedded database one
 * connection serves everything, so a query outside the transaction would wait for it forever.
 */
type TContext = { catalogue: TPlanCatalogue; seller: TInvoiceDetails['seller'] };

/** What a checkout costs and how it is paid, worked out once for the quote and again for the charge. */
type TPricing = {
  target: { plan: TPlanId; cycle: TBillingCycle };
  planKey: string;
  plan: TPlan;
  user: NonNullable<Awaited<ReturnType<TBillingQueries['user']>>>;
  current: TSubscriptionRow | undefined;
  gateway: TOpenGateway;
  currency: TCurrency;
  kind: TOrderRow['kind'];
  amount: number;
  credit: number;
  lines: TInvoiceDetails['lines'];
  /** The period the payment pays for. */
  period: { start: Date; end: Date };
  /** A Stripe subscription's change, charged to its saved card at once. */
  stripeChange?: { subscriptionId: string; newPeriod: boolean; prorationDate: number };
};

type TLog = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };

export function createBillingService(deps: {
  repository: TBillingRepository;
  system: Pick<TSystemService, 'planCatalogue' | 'seller'>;
  quota: Pick<TQuotaService, 'generations' | 'storage'>;
  openGateway: TGatewayOpener;
  pdf: Pick<TPdfService, 'render'>;
  publicUrl: string;
  log: TLog;
  /** Emails a user a notice through the installation's mail server; false when it could not. */
  notify?: (ownerId: string, notice: { subject: string; text: string }) => Promise<boolean>;
  /** The clock; tests move it to reach renewals and grace periods. */
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const repo = deps.repository;

  function planIn(catalogue: TPlanCatalogue, planId: TPlanId): TPlan {
    const plan = catalogue.find((p) => p.id === planId);
    if (!plan) throw new AppError('validation_failed', `There is no ${planId} plan.`, { planId: 'Choose a plan from the catalogue.' });
    return plan;
  }
  const planOf = async (planId: TPlanId) => planIn(await deps.system.planCatalogue(), planId);

  async function context(): Promise<TContext> {
    const [catalogue, seller] = await Promise.all([deps.system.planCatalogue(), deps.system.seller()]);
    return { catalogue, seller };
  }

  const describe = (plan: TPlan, cycle: TBillingCycle) => `${plan.name} plan, ${cycleWord(cycle)}`;

  async function gatewayFor(name: TGatewayName): Promise<TOpenGateway> {
    const row = await repo.gatewayNamed(name);
    if (!row) throw new AppError('unavailable', `${gatewayTitle(name)} is not set up. Please contact support.`);
    return deps.openGateway(row);
  }

  async function activeGatewayOrThrow(): Promise<TOpenGateway> {
    const row = await repo.activeGateway();
    if (!row) {
      throw new AppError('unavailable', 'Payments are not available yet: no payment gateway is turned on. Nothing was charged; please contact support.');
    }
    return deps.openGateway(row);
  }

  /** The subscription that still holds a plan (active, or in its grace period). */
  async function currentSubscription(tx: TBillingQueries, ownerId: string, lock = false): Promise<TSubscriptionRow | undefined> {
    const sub = await tx.subscription(ownerId, lock);
    return sub && sub.status !== 'ended' ? sub : undefined;
  }

  /** A gateway error that is the operator's to fix becomes one message for the user and a log line. */
  async function gatewayCall<T>(gateway: TGatewayName, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw gatewayFailure(gateway, error);
    }
  }
  function gatewayFailure(gateway: TGatewayName, error: unknown): unknown {
    if (!(error instanceof GatewayRefusal)) return error;
    deps.log.error({ gateway, status: error.status, body: error.body }, 'payment gateway refused a request');
    return new AppError(
      'unavailable',
      `${gatewayTitle(gateway)} refused the request, so nothing was charged. The payment settings need an administrator's attention; please contact support.`,
    );
  }

  function checkAmount(order: TOrderRow, paid: { amountMinor: number; currency: string }) {
    if (paid.amountMinor === order.amountMinor && paid.currency.toUpperCase() === order.currency) return;
    deps.log.warn({ orderId: order.id, expected: [order.amountMinor, order.currency], paid: [paid.amountMinor, paid.currency] }, 'payment amount does not match its order');
    const shown = paid.currency.toUpperCase() === 'INR' || paid.currency.toUpperCase() === 'USD'
      ? formatMinorUnits(paid.amountMinor, paid.currency.toUpperCase() as TCurrency)
      : `${paid.amountMinor / 100} ${paid.currency.toUpperCase()}`;
    throw new AppError(
      'bad_request',
      `The amount paid (${shown}) does not match the order (${formatMinorUnits(order.amountMinor, order.currency)}). Your plan has not changed; please contact support.`,
    );
  }

  /**
   * Records a payment once (whichever of the return page and the webhook comes first), issues its
   * invoice, and puts its period in force when the period has begun. Call inside a transaction.
   */
  async function recordPayment(
    tx: TBillingQueries,
    ctx: TContext,
    input: {
      ownerId: string;
      gateway: TGatewayName;
      order: TOrderRow | undefined;
      paid: TPaidWith;
      planId: TPlanId;
      cycle: TBillingCycle;
      /** What the payment paid for. */
      period: { start: Date; end: Date };
      /** The subscription's period once paid, when it is not `period` (Stripe's prorated changes). */
      applyPeriod?: { start: Date; end: Date };
      lines: TInvoiceDetails['lines'];
      /** Stripe's subscription and customer, and the event's time, for renewals by webhook. */
      stripe?: { subscriptionId: string; customerId: string | null; cancelAtPeriodEnd: boolean };
      eventAt: Date;
    },
  ): Promise<TVerifyPaymentResult> {
    const plan = planIn(ctx.catalogue, input.planId);
    if (input.order) await refuseSecondPayment(tx, input.order, input.paid);
    const paymentId = randomUUID();
    const inserted = await tx.insertPayment({
      id: paymentId,
      ownerId: input.ownerId,
      orderId: input.order?.id ?? null,
      gateway: input.gateway,
      gatewayPaymentId: input.paid.gatewayPaymentId,
      chargeRef: input.paid.chargeRef,
      planId: input.planId,
      cycle: input.cycle,
      amountMinor: input.paid.amountMinor,
      currency: input.paid.currency.toUpperCase() as TCurrency,
      periodStart: input.period.start,
      periodEnd: input.period.end,
    });
    const result = (invoiceId: string | null): TVerifyPaymentResult => ({
      planId: input.planId,
      planName: plan.name,
      cycle: input.cycle,
      periodEnd: input.period.end.toISOString(),
      invoiceId,
    });
    if (!inserted) {
      const existing = await tx.paymentByGatewayId(input.gateway, input.paid.gatewayPaymentId);
      return result(existing ? ((await tx.invoiceForPayment(existing.id))?.id ?? null) : null);
    }
    if (input.order) await tx.setOrderStatus(input.order.id, 'paid');

    const user = await tx.user(input.ownerId);
    const seller = ctx.seller;
    const number = await tx.nextNumber('invoice');
    const details: TInvoiceDetails = {
      number: invoiceNumberText(number),
      seller,
      buyer: { name: [user?.firstName, user?.lastName].filter(Boolean).join(' ') || (user?.email ?? ''), email: user?.email ?? '' },
      planName: plan.name,
      cycle: input.cycle,
      periodStart: input.period.start.toISOString(),
      periodEnd: input.period.end.toISOString(),
      lines: input.lines,
      amountMinor: input.paid.amountMinor,
      currency: input.paid.currency.toUpperCase() as TCurrency,
      gateway: input.gateway,
      gatewayReference: input.paid.gatewayPaymentId,
      paidAt: input.eventAt.toISOString(),
    };
    const invoiceId = await tx.insertInvoice({ ownerId: input.ownerId, paymentId, number, details, issuedAt: input.eventAt });

    const at = now();
    const sub = await tx.subscription(input.ownerId, true);
    const applied = input.applyPeriod ?? input.period;
    const covers = applied.start.getTime() <= at.getTime() && at.getTime() < applied.end.getTime();
    // A late event for a period already behind the subscription pays for it, but moves nothing back.
    const behind = sub && sub.status !== 'ended' && sub.currentPeriodEnd.getTime() > applied.end.getTime();
    if (covers && !behind) {
      await tx.saveSubscription({
        ownerId: input.ownerId,
        planId: input.planId,
        cycle: input.cycle,
        gateway: input.gateway,
        status: 'active',
        gatewaySubscriptionId: input.stripe?.subscriptionId ?? null,
        gatewayCustomerId: input.stripe?.customerId ?? sub?.gatewayCustomerId ?? null,
        currentPeriodStart: applied.start,
        currentPeriodEnd: applied.end,
        cancelAtPeriodEnd: input.stripe?.cancelAtPeriodEnd ?? false,
        scheduledPlanId: null,
        scheduledCycle: null,
        graceEndsAt: null,
        lastEventAt: sub?.lastEventAt && sub.lastEventAt > input.eventAt ? sub.lastEventAt : input.eventAt,
        renewalReminderAt: null,
      });
      await tx.setUserPlan(input.ownerId, input.planId, quotaKey(applied.start, input.cycle, at));
    }
    return result(invoiceId);
  }

  /** The period an order pays for, decided when the money arrives. */
  function orderPeriod(order: TOrderRow, sub: TSubscriptionRow | undefined, paidAt: Date): { start: Date; end: Date } {
    if (order.kind === 'upgrade' && sub) return { start: sub.currentPeriodStart, end: sub.currentPeriodEnd };
    if (order.kind === 'renewal' && sub && sub.currentPeriodEnd.getTime() > paidAt.getTime()) {
      return { start: sub.currentPeriodEnd, end: periodEnd(sub.currentPeriodEnd, order.cycle) };
    }
    return { start: paidAt, end: periodEnd(paidAt, order.cycle) };
  }

  /**
   * An order pays once. Razorpay lets one order take several payments (a second tab, a retry after
   * a slow answer), so a payment of an order another payment already paid is refused here, under
   * the order's lock, before anything of it is written.
   */
  async function refuseSecondPayment(tx: TBillingQueries, order: TOrderRow, paid: TPaidWith): Promise<void> {
    const first = await tx.paymentOfOrder(order.id);
    if (first && first.gatewayPaymentId !== paid.gatewayPaymentId) throw new SecondPayment(order, paid, first);
  }

  /**
   * Gives back a second payment of an order already paid: refunded in full at Razorpay when it was
   * captured; an authorised one is left uncaptured, which Razorpay releases by itself. Safe to run
   * from both the return and the webhook: what is refunded already is not refunded again.
   * PayPal captures an order once and Stripe pays an invoice once, so there it is only logged.
   */
  async function giveBackSecondPayment(second: SecondPayment): Promise<'refunded' | 'released' | 'left'> {
    const { order, paid, first } = second;
    deps.log.warn(
      { orderId: order.id, gateway: order.gateway, firstPayment: first.gatewayPaymentId, secondPayment: paid.gatewayPaymentId },
      'a second payment arrived for an order already paid; it is not recorded',
    );
    if (order.gateway !== 'razorpay') return 'left';
    const gateway = await gatewayFor('razorpay');
    if (gateway.name !== 'razorpay') throw new Error('unreachable');
    return gatewayCall('razorpay', async () => {
      const payment = await gateway.client.fetchPayment(paid.gatewayPaymentId);
      if (payment.status === 'authorized' || payment.status === 'created') return 'released';
      const left = payment.amount - payment.amount_refunded;
      if (left <= 0) return 'refunded';
      try {
        await gateway.client.refund(payment.id, left, { reason: 'second payment of an order already paid', order_id: order.gatewayOrderId });
      } catch (error) {
        // The return and the webhook raced, and the other one refunded it first.
        if (error instanceof GatewayRefusal && error.status === 400) {
          const again = await gateway.client.fetchPayment(payment.id);
          if (again.amount_refunded >= again.amount) return 'refunded';
        }
        throw error;
      }
      deps.log.info({ orderId: order.id, payment: payment.id, amountMinor: left, currency: payment.currency }, 'refunded a second payment of an order already paid');
      return 'refunded';
    });
  }

  /** What the user is told about a second payment, once it has been given back (or not). */
  function secondPaymentRefusal(second: SecondPayment, outcome: 'refunded' | 'released' | 'left'): AppError {
    const currency = second.paid.currency.toUpperCase();
    const amount = currency === 'INR' || currency === 'USD' ? formatMinorUnits(second.paid.amountMinor, currency) : `${second.paid.amountMinor / 100} ${currency}`;
    const gateway = gatewayTitle(second.order.gateway);
    const what =
      outcome === 'refunded'
        ? `so this second payment of ${amount} has been refunded in full through ${gateway}; refunds reach your account within 5–7 working days.`
        : outcome === 'released'
          ? `so this second payment of ${amount} was not taken: ${gateway} releases the hold on it by itself.`
          : `so this second payment of ${amount} was not applied. Contact support and we will refund it.`;
    return new AppError('conflict', `This order was already paid by an earlier payment, ${what} Your plan is not affected.`);
  }

  /** Runs a settlement; a second payment it refuses is given back and the user told why. */
  async function settleOrGiveBack(settle: () => Promise<TVerifyPaymentResult>): Promise<TVerifyPaymentResult> {
    try {
      return await settle();
    } catch (error) {
      if (!(error instanceof SecondPayment)) throw error;
      throw secondPaymentRefusal(error, await giveBackSecondPayment(error));
    }
  }

  /** Settles a one-off order (Razorpay, PayPal) once its money is confirmed. */
  async function settleOrder(tx: TBillingQueries, ctx: TContext, order: TOrderRow, paid: TPaidWith): Promise<TVerifyPaymentResult> {
    await refuseSecondPayment(tx, order, paid);
    checkAmount(order, paid);
    const ownerId = order.ownerId;
    // Paid after its account was deleted: nobody is left to give the plan to.
    if (!ownerId) throw new AppError('conflict', 'The account this order was for has been deleted; please contact support for a refund.');
    const paidAt = now();
    const sub = await currentSubscription(tx, ownerId, true);
    let period = orderPeriod(order, sub, paidAt);
    // Two renewals paid in a race: the second one follows the first.
    if (order.kind === 'renewal') {
      const latest = await tx.latestPaidPeriodEnd(ownerId);
      if (latest && latest.getTime() > period.start.getTime() && !(await tx.paymentByGatewayId(order.gateway, paid.gatewayPaymentId))) {
        period = { start: latest, end: periodEnd(latest, order.cycle) };
      }
    }
    return recordPayment(tx, ctx, {
      ownerId,
      gateway: order.gateway,
      order,
      paid,
      planId: order.planId,
      cycle: order.cycle,
      period,
      lines: order.lines,
      eventAt: paidAt,
    });
  }

  /** Records a paid Stripe invoice against its subscription: first payments, upgrades and renewals alike. */
  async function settleStripeInvoice(
    tx: TBillingQueries,
    ctx: TContext,
    invoice: Stripe.Invoice,
    subscription: Stripe.Subscription,
    order: TOrderRow | undefined,
    eventAt: Date,
  ): Promise<TVerifyPaymentResult | undefined> {
    const ownerId = order?.ownerId ?? subscription.metadata.ownerId;
    const local = await tx.subscriptionByGatewayId('stripe', subscription.id);
    const owner = ownerId ?? local?.ownerId;
    if (!owner || !(await tx.user(owner))) {
      deps.log.warn({ invoice: invoice.id, subscription: subscription.id }, 'Stripe invoice for a subscription we do not know');
      return undefined;
    }
    const planId = (order?.planId ?? subscription.metadata.planId) as TPlanId | undefined;
    const cycle = (order?.cycle ?? subscription.metadata.cycle) as TBillingCycle | undefined;
    if (!planId || !cycle) {
      deps.log.warn({ subscription: subscription.id }, 'Stripe subscription without its plan in metadata');
      return undefined;
    }
    if (order) checkAmount(order, { amountMinor: invoice.amount_paid, currency: invoice.currency });
    const customer = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    return recordPayment(tx, ctx, {
      ownerId: owner,
      gateway: 'stripe',
      order,
      paid: { gatewayPaymentId: invoice.id, chargeRef: invoicePaymentIntent(invoice), amountMinor: invoice.amount_paid, currency: invoice.currency },
      planId,
      cycle,
      period: invoicePeriod(invoice),
      // The subscription's own period is the truth: a prorated change pays part of it, and a
      // renewal's invoice pays exactly it.
      applyPeriod: subscriptionPeriod(subscription),
      lines: invoice.lines.data.map((line) => ({ description: line.description ?? describeFallback(planId, cycle), amountMinor: line.amount })),
      stripe: { subscriptionId: subscription.id, customerId: customer, cancelAtPeriodEnd: subscription.cancel_at_period_end },
      eventAt,
    });
  }
  const describeFallback = (planId: string, cycle: TBillingCycle) => `Formwork ${planId} plan, ${cycleWord(cycle)}`;

  /** Ends a subscription: the account returns to free, its formats and documents all kept. */
  async function endSubscription(tx: TBillingQueries, sub: TSubscriptionRow, eventAt?: Date) {
    await tx.updateSubscription(sub.ownerId, { status: 'ended', graceEndsAt: null, scheduledPlanId: null, scheduledCycle: null, ...(eventAt ? { lastEventAt: eventAt } : {}) });
    await tx.setUserPlan(sub.ownerId, 'free', null);
  }

  /** A Razorpay event, applied once in one transaction (its id remembered with what it did). */
  async function handleRazorpayEvent(ctx: TContext, event: TRazorpayEvent, eventId: string): Promise<void> {
    await repo.transaction(async (tx) => {
      if (!(await tx.firstSighting('razorpay', eventId, event.event))) return;
      const payment = event.payload.payment?.entity;
      if ((event.event === 'payment.captured' || event.event === 'order.paid') && payment?.order_id) {
        const order = await tx.orderByGatewayId('razorpay', payment.order_id, true);
        if (!order) return void deps.log.warn({ order: payment.order_id }, 'Razorpay payment for an order we did not create');
        if (payment.status !== 'captured') return;
        try {
          await settleOrder(tx, ctx, order, { gatewayPaymentId: payment.id, chargeRef: payment.id, amountMinor: payment.amount, currency: payment.currency });
        } catch (error) {
          // A mismatched amount is logged and left for a person; sending it again changes nothing.
          if (error instanceof AppError && error.code === 'bad_request') return;
          throw error;
        }
      } else if (event.event === 'payment.failed' && payment?.order_id) {
        const order = await tx.orderByGatewayId('razorpay', payment.order_id);
        if (order) await tx.setOrderStatus(order.id, 'failed');
      } else if (event.event.startsWith('refund.') && event.event !== 'refund.failed' && payment) {
        const updated = await tx.recordRefund('razorpay', { paymentId: payment.id }, { mode: 'total', amountMinor: payment.amount_refunded });
        if (updated) return;
        // The refund of a second payment we gave back: never recorded, so nothing to mark.
        const order = payment.order_id ? await tx.orderByGatewayId('razorpay', payment.order_id) : undefined;
        const first = order ? await tx.paymentOfOrder(order.id) : undefined;
        if (first && first.gatewayPaymentId !== payment.id) {
          return void deps.log.info({ orderId: order!.id, payment: payment.id }, 'Razorpay refunded a second payment we gave back');
        }
        throw new AppError('conflict', 'The refunded payment is not recorded yet; send the event again later.');
      }
    });
  }

  /** A PayPal event whose signature PayPal confirmed, applied once. */
  async function handlePayPalEvent(event: TPayPalEvent): Promise<void> {
    const resource = event.resource as {
      id?: string;
      status?: string;
      amount?: { value: string; currency_code: string };
      supplementary_data?: { related_ids?: { order_id?: string } };
      links?: { rel: string; href: string }[];
    };
    const ctx = await context();
    await repo.transaction(async (tx) => {
      if (!(await tx.firstSighting('paypal', event.id, event.event_type))) return;
      const orderId = resource.supplementary_data?.related_ids?.order_id;
      if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED' && orderId && resource.id && resource.amount) {
        const order = await tx.orderByGatewayId('paypal', orderId, true);
        if (!order) return void deps.log.warn({ order: orderId }, 'PayPal capture for an order we did not create');
        try {
          await settleOrder(tx, ctx, order, {
            gatewayPaymentId: resource.id,
            chargeRef: resource.id,
            amountMinor: paypalMinor(resource.amount.value),
            currency: resource.amount.currency_code,
          });
        } catch (error) {
          if (error instanceof AppError && error.code === 'bad_request') return;
          throw error;
        }
      } else if (event.event_type === 'PAYMENT.CAPTURE.DENIED' && orderId) {
        const order = await tx.orderByGatewayId('paypal', orderId);
        if (order) await tx.setOrderStatus(order.id, 'failed');
      } else if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' && resource.amount) {
        // A refund names its capture through its "up" link.
        const captureId = resource.links?.find((l) => l.rel === 'up')?.href.split('/').pop();
        if (!captureId) return;
        const updated = await tx.recordRefund('paypal', { paymentId: captureId }, { mode: 'add', amountMinor: paypalMinor(resource.amount.value) });
        if (!updated) throw new AppError('conflict', 'The refunded payment is not recorded yet; send the event again later.');
      }
    });
  }

  /** Whether a Stripe event is older than one already applied to this subscription. */
  const stale = (sub: TSubscriptionRow, eventAt: Date) => sub.lastEventAt !== null && eventAt.getTime() < sub.lastEventAt.getTime();

  async function handleStripeEvent(gateway: Extract<TOpenGateway, { name: 'stripe' }>, event: Stripe.Event): Promise<void> {
    const eventAt = new Date(event.created * 1000);
    // Objects are read fresh from Stripe before the transaction: the event may be old news.
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = await gatewayCall('stripe', () => gateway.client.retrieveSession(event.data.object.id));
        await settleStripeSession(gateway, session, event.id, eventAt);
        return;
      }
      case 'invoice.paid': {
        const subscriptionId = invoiceSubscriptionId(event.data.object);
        if (!subscriptionId || !event.data.object.id) return;
        const [invoice, subscription] = await gatewayCall('stripe', () =>
          Promise.all([gateway.client.retrieveInvoice(event.data.object.id!), gateway.client.retrieveSubscription(subscriptionId)]),
        );
        const ctx = await context();
        await repo.transaction(async (tx) => {
          if (!(await tx.firstSighting('stripe', event.id, event.type))) return;
          const order = invoice.id ? await orderForStripeInvoice(tx, subscription) : undefined;
          await settleStripeInvoice(tx, ctx, invoice, subscription, order, eventAt);
        });
        return;
      }
      case 'invoice.payment_failed': {
        const subscriptionId = invoiceSubscriptionId(event.data.object);
        if (!subscriptionId) return;
        await repo.transaction(async (tx) => {
          if (!(await tx.firstSighting('stripe', event.id, event.type))) return;
          const sub = await tx.subscriptionByGatewayId('stripe', subscriptionId);
          if (!sub || sub.status === 'ended' || stale(sub, eventAt)) return;
          const from = sub.currentPeriodEnd.getTime() > eventAt.getTime() ? sub.currentPeriodEnd : eventAt;
          await tx.updateSubscription(sub.ownerId, { status: 'past_due', graceEndsAt: addDays(from, GRACE_DAYS), lastEventAt: eventAt });
        });
        return;
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const object = event.data.object;
        await repo.transaction(async (tx) => {
          if (!(await tx.firstSighting('stripe', event.id, event.type))) return;
          const sub = await tx.subscriptionByGatewayId('stripe', object.id);
          if (!sub || sub.status === 'ended' || stale(sub, eventAt)) return;
          if (event.type === 'customer.subscription.deleted') await endSubscription(tx, sub, eventAt);
          else await tx.updateSubscription(sub.ownerId, { cancelAtPeriodEnd: object.cancel_at_period_end, lastEventAt: eventAt });
        });
        return;
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
        if (!intent) return;
        await repo.transaction(async (tx) => {
          if (!(await tx.firstSighting('stripe', event.id, event.type))) return;
          const updated = await tx.recordRefund('stripe', { chargeRef: intent }, { mode: 'total', amountMinor: charge.amount_refunded });
          if (!updated) throw new AppError('conflict', 'The refunded payment is not recorded yet; send the event again later.');
        });
        return;
      }
      default:
        return;
    }
  }

  /** The order a Stripe subscription's first invoice pays, named in its metadata. */
  async function orderForStripeInvoice(tx: TBillingQueries, subscription: Stripe.Subscription): Promise<TOrderRow | undefined> {
    const orderId = subscription.metadata.orderId;
    if (!orderId) return undefined;
    const order = await tx.orderById(orderId);
    return order && order.status !== 'paid' && order.kind === 'new' ? order : undefined;
  }

  async function settleStripeSession(
    gateway: Extract<TOpenGateway, { name: 'stripe' }>,
    session: Stripe.Checkout.Session,
    eventId: string | undefined,
    eventAt: Date,
    ownerId?: string,
  ): Promise<TVerifyPaymentResult | undefined> {
    const order = await repo.orderByGatewayId('stripe', session.id);
    if (!order || (ownerId && order.ownerId !== ownerId)) {
      if (ownerId) throw new AppError('bad_request', 'This checkout does not belong to an order of yours. Your plan has not changed.');
      return undefined;
    }
    if (session.status !== 'complete' || session.payment_status !== 'paid') {
      throw new AppError('payment_failed', 'Stripe has not completed this payment. Your plan has not changed.');
    }
    checkAmount(order, { amountMinor: session.amount_total ?? -1, currency: session.currency ?? '' });
    const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
    if (!subscriptionId) throw new AppError('payment_failed', 'Stripe did not start the subscription. Your plan has not changed.');
    const subscription = await gatewayCall('stripe', () => gateway.client.retrieveSubscription(subscriptionId));
    const invoiceRef = session.invoice ?? subscription.latest_invoice;
    const invoiceId = typeof invoiceRef === 'string' ? invoiceRef : invoiceRef?.id;
    if (!invoiceId) throw new AppError('payment_failed', 'Stripe has no invoice for this checkout yet. Your plan has not changed.');
    const invoice = await gatewayCall('stripe', () => gateway.client.retrieveInvoice(invoiceId));
    const ctx = await context();
    try {
      return await repo.transaction(async (tx) => {
        if (eventId && !(await tx.firstSighting('stripe', eventId, 'checkout.session.completed'))) return undefined;
        // Locked, so the return and the webhook settle one after the other.
        const locked = (await tx.orderByGatewayId('stripe', session.id, true)) ?? order;
        return settleStripeInvoice(tx, ctx, invoice, subscription, locked, eventAt);
      });
    } catch (error) {
      // A Checkout Session pays one invoice; another invoice of its subscription (a later change
      // or renewal) is its own payment, recorded by its own event, never as this order's.
      if (!(error instanceof SecondPayment)) throw error;
      await giveBackSecondPayment(error);
      const invoiceRow = await repo.invoiceForPayment(error.first.id);
      const plan = await planOf(error.first.planId);
      return { planId: error.first.planId, planName: plan.name, cycle: error.first.cycle, periodEnd: error.first.periodEnd.toISOString(), invoiceId: invoiceRow?.id ?? null };
    }
  }

  /** The renewal reminder's words: what is due, when, for how much, and what happens otherwise. */
  async function renewalNotice(sub: TSubscriptionRow): Promise<{ subject: string; text: string }> {
    const planId = sub.scheduledPlanId ?? sub.planId;
    const cycle = sub.scheduledCycle ?? sub.cycle;
    const [plan, user] = await Promise.all([planOf(planId), repo.user(sub.ownerId)]);
    const amount = periodCharge(plan, currencyOf(sub.gateway), cycle);
    const name = user?.firstName?.trim() || 'there';
    return {
      subject: `Your Formwork ${plan.name} plan renews on ${day(sub.currentPeriodEnd)}`,
      text: [
        `Hello ${name},`,
        '',
        `Your ${plan.name} plan is paid until ${day(sub.currentPeriodEnd)}. Payments through ${gatewayTitle(sub.gateway)} do not renew by themselves: pay${amount === null ? '' : ` ${formatMinorUnits(amount, currencyOf(sub.gateway))}`} for the next ${cycle === 'yearly' ? 'year' : 'month'} to keep your plan without a break.`,
        '',
        `Renew now: ${deps.publicUrl}/settings?tab=billing`,
        '',
        `If you do not renew, your plan stays for ${GRACE_DAYS} more days, then your account moves to Free. Nothing is deleted.`,
        '',
        '— Formwork',
      ].join('\n'),
    };
  }

  /** What the subscriber may pay now to keep a manually renewed plan going. */
  async function payAgainOf(sub: TSubscriptionRow, at: Date): Promise<TSubscriptionView['payAgain']> {
    if (sub.gateway === 'stripe' || sub.cancelAtPeriodEnd) return null;
    const inWindow = sub.status === 'past_due' || sub.currentPeriodEnd.getTime() - at.getTime() <= RENEWAL_WINDOW_DAYS * 86_400_000;
    if (!inWindow) return null;
    if (sub.status === 'active' && (await repo.paidPeriodStartingFrom(sub.ownerId, sub.currentPeriodEnd))) return null;
    const planId = sub.scheduledPlanId ?? sub.planId;
    const cycle = sub.scheduledCycle ?? sub.cycle;
    const amount = periodCharge(await planOf(planId), currencyOf(sub.gateway), cycle);
    if (amount === null) return null;
    return { planKey: planStorageKey(planId, cycle), amount, currency: currencyOf(sub.gateway), due: sub.currentPeriodEnd.toISOString() };
  }

  /**
   * What paying for `planKey` costs at `at`, and how it is paid: the one computation behind both
   * the quote the user confirms and the charge create-order makes. Throws the refusal (a free or
   * sales-only plan, a downgrade, a renewal not yet due) before anything is created anywhere.
   */
  async function priceCheckout(ownerId: string, planKey: string, at: Date): Promise<TPricing> {
    const target = parsePlanKey(planKey);
    if (target.plan === 'free') {
      throw new AppError('bad_request', 'The Free plan needs no payment. To leave a paid plan, cancel it in Billing.');
    }
    const plan = await planOf(target.plan);
    const user = await repo.user(ownerId);
    if (!user) throw notFound('User');
    const current = await currentSubscription(repo, ownerId);
    if (!current && user.subscriptionPlan !== 'free') {
      throw new AppError('conflict', `Your ${(await planOf(user.subscriptionPlan)).name} plan is managed by an administrator. Contact support to change it.`);
    }
    // A Stripe subscription changes through Stripe, whichever gateway new customers now use.
    const gateway = current?.gateway === 'stripe' && current.status === 'active' ? await gatewayFor('stripe') : await activeGatewayOrThrow();
    const currency = currencyOf(gateway.name);
    const charge = periodCharge(plan, currency, target.cycle);
    if (charge === null) {
      throw new AppError('bad_request', `The ${plan.name} plan is arranged with our sales team. Use Contact Sales and we will set it up for you.`);
    }
    const base = { target, planKey: planStorageKey(target.plan, target.cycle), plan, user, current, gateway, currency };
    let kind: TOrderRow['kind'] = 'new';
    let amount = charge;
    let credit = 0;
    let lines: TInvoiceDetails['lines'] = [{ description: describe(plan, target.cycle), amountMinor: charge }];
    let period = { start: at, end: periodEnd(at, target.cycle) };

    if (current && current.status === 'active') {
      const currentPlan = await planOf(current.planId);
      const change = planChange({ plan: current.planId, cycle: current.cycle }, target);
      const isScheduled = current.scheduledPlanId === target.plan && current.scheduledCycle === target.cycle;
      const currentCharge = periodCharge(currentPlan, currency, current.cycle) ?? 0;
      const share = unusedShare(current.currentPeriodStart, current.currentPeriodEnd, at);
      if (change === 'downgrade' && !isScheduled) {
        throw new AppError(
          'conflict',
          `Moving to ${describe(plan, target.cycle)} takes effect when your current period ends on ${day(current.currentPeriodEnd)}. Choose Downgrade to schedule it; nothing is charged now.`,
        );
      }
      if (change === 'same' || isScheduled) {
        if (gateway.name === 'stripe') throw new AppError('conflict', `Your plan renews automatically on ${day(current.currentPeriodEnd)}.`);
        const opensAt = addDays(current.currentPeriodEnd, -RENEWAL_WINDOW_DAYS);
        if (opensAt.getTime() > at.getTime()) {
          throw new AppError('conflict', `Your ${currentPlan.name} plan is paid until ${day(current.currentPeriodEnd)}. You can renew it from ${day(opensAt)}.`);
        }
        if (await repo.paidPeriodStartingFrom(ownerId, current.currentPeriodEnd)) {
          throw new AppError('conflict', `Your next period is already paid: your plan continues after ${day(current.currentPeriodEnd)}.`);
        }
        kind = 'renewal';
        period = { start: current.currentPeriodEnd, end: periodEnd(current.currentPeriodEnd, target.cycle) };
        lines = [{ description: `${describe(plan, target.cycle)}, ${day(period.start)} – ${day(period.end)}`, amountMinor: charge }];
      } else if (change === 'upgrade') {
        if (gateway.name === 'stripe') return priceStripeChange(base, gateway, current, { newPeriod: false, at });
        kind = 'upgrade';
        amount = Math.max(MIN_CHARGE_MINOR, Math.round((charge - currentCharge) * share));
        period = { start: current.currentPeriodStart, end: current.currentPeriodEnd };
        lines = [
          {
            description: `Upgrade from ${currentPlan.name} to ${plan.name} for the rest of the period (${day(at)} – ${day(current.currentPeriodEnd)})`,
            amountMinor: amount,
          },
        ];
      } else {
        if (gateway.name === 'stripe') return priceStripeChange(base, gateway, current, { newPeriod: true, at });
        credit = Math.min(charge - MIN_CHARGE_MINOR, Math.round(currentCharge * share));
        amount = charge - credit;
        lines = [
          { description: describe(plan, target.cycle), amountMinor: charge },
          { description: `Credit for unused time on the ${describe(currentPlan, current.cycle)}`, amountMinor: -credit },
        ];
      }
    }
    return { ...base, kind, amount, credit, lines, period };
  }

  /**
   * A Stripe subscription's change, priced by Stripe itself (its prorations are its own): the
   * invoice it previews as of `at`, which the change then charges with the same proration date.
   */
  async function priceStripeChange(
    base: Pick<TPricing, 'target' | 'planKey' | 'plan' | 'user' | 'current' | 'currency'>,
    gateway: Extract<TOpenGateway, { name: 'stripe' }>,
    current: TSubscriptionRow,
    how: { newPeriod: boolean; at: Date },
  ): Promise<TPricing> {
    const subscriptionId = current.gatewaySubscriptionId;
    if (!subscriptionId) throw new AppError('conflict', 'Your subscription is not linked to Stripe. Please contact support.');
    const { plan, target } = base;
    const prorationDate = Math.floor(how.at.getTime() / 1000);
    const price = { planId: plan.id, cycle: target.cycle, amountMinor: periodCharge(plan, 'USD', target.cycle)!, currency: 'USD', productName: `Formwork ${plan.name}` };
    const preview = await gatewayCall('stripe', () => gateway.client.previewChange(subscriptionId, price, { newPeriod: how.newPeriod, prorationDate }));
    const lines = preview.lines.data.map((line) => ({ description: line.description ?? describe(plan, target.cycle), amountMinor: line.amount }));
    return {
      ...base,
      gateway,
      kind: how.newPeriod ? 'new' : 'upgrade',
      amount: preview.amount_due,
      credit: -lines.reduce((sum, line) => sum + Math.min(0, line.amountMinor), 0),
      lines,
      period: how.newPeriod ? { start: how.at, end: periodEnd(how.at, target.cycle) } : { start: current.currentPeriodStart, end: current.currentPeriodEnd },
      stripeChange: { subscriptionId, newPeriod: how.newPeriod, prorationDate },
    };
  }

  /** The order at the gateway for a price worked out by `priceCheckout`, or the card charged for a Stripe change. */
  async function chargeAsPriced(ownerId: string, pricing: TPricing): Promise<TCheckout> {
    const { target, planKey, plan, user, current, gateway, currency, kind, amount, credit, lines } = pricing;
    if (pricing.stripeChange && gateway.name === 'stripe') return changeStripePlan(ownerId, gateway, pricing, pricing.stripeChange);
    const orderId = randomUUID();
    const order = { id: orderId, ownerId, planId: target.plan, cycle: target.cycle, amountMinor: amount, currency, kind, creditMinor: credit, lines };
    const common = { orderId: '', amount, currency, credit, planId: target.plan, cycle: target.cycle } as const;
    switch (gateway.name) {
      case 'razorpay': {
        const created = await gatewayCall('razorpay', () =>
          gateway.client.createOrder({ amountMinor: amount, currency, receipt: orderId, notes: { ownerId, plan: planKey } }),
        );
        await repo.insertOrder({ ...order, gateway: 'razorpay', gatewayOrderId: created.id });
        return {
          ...common,
          gateway: 'razorpay',
          orderId: created.id,
          next: {
            type: 'razorpay',
            checkoutScriptUrl: gateway.checkoutScriptUrl,
            options: {
              key: gateway.keyId,
              order_id: created.id,
              amount,
              currency,
              name: 'Formwork',
              description: lines[0]!.description,
              prefill: { name: [user.firstName, user.lastName].filter(Boolean).join(' '), email: user.email },
            },
          },
        };
      }
      case 'paypal': {
        const created = await gatewayCall('paypal', () =>
          gateway.client.createOrder({
            orderId,
            amountMinor: amount,
            currency,
            description: lines[0]!.description,
            returnUrl: `${deps.publicUrl}/payment-success?gateway=paypal&plan=${planKey}`,
            cancelUrl: `${deps.publicUrl}/settings?tab=billing&payment=cancelled`,
          }),
        );
        await repo.insertOrder({ ...order, gateway: 'paypal', gatewayOrderId: created.id });
        return { ...common, gateway: 'paypal', orderId: created.id, next: { type: 'redirect', url: created.approveUrl } };
      }
      case 'stripe': {
        const session = await gatewayCall('stripe', () =>
          gateway.client.createCheckoutSession({
            orderId,
            ownerId,
            email: user.email,
            customerId: current?.gatewayCustomerId ?? null,
            price: { planId: target.plan, cycle: target.cycle, amountMinor: amount, currency, productName: `Formwork ${plan.name}` },
            successUrl: `${deps.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}&plan=${planKey}`,
            cancelUrl: `${deps.publicUrl}/settings?tab=billing&payment=cancelled`,
          }),
        );
        if (!session.url) throw new AppError('unavailable', 'Stripe did not give a checkout page. Nothing was charged; try again.');
        await repo.insertOrder({ ...order, gateway: 'stripe', gatewayOrderId: session.id });
        return { ...common, gateway: 'stripe', orderId: session.id, next: { type: 'redirect', url: session.url } };
      }
    }
  }

  return {
    async overview(ownerId: string): Promise<TBillingOverview> {
      const at = now();
      const [user, sub, active] = await Promise.all([repo.user(ownerId), repo.subscription(ownerId), repo.activeGateway()]);
      if (!user) throw notFound('User');
      const current = sub && sub.status !== 'ended' ? sub : undefined;
      const gateway = active?.gatewayName ?? null;
      const [generations, storage, formatsUsed, plan] = await Promise.all([
        deps.quota.generations(ownerId),
        deps.quota.storage(ownerId),
        repo.formatsUsed(ownerId),
        planOf(user.subscriptionPlan),
      ]);
      const usagePeriod =
        user.quotaPeriod && current
          ? current.cycle === 'yearly'
            ? quotaMonth(current.currentPeriodStart, at)
            : { start: current.currentPeriodStart, end: current.currentPeriodEnd }
          : calendarMonth(at);
      return {
        planId: user.subscriptionPlan,
        gateway,
        currency: currentSubscriptionCurrency(current, gateway),
        managedByAdmin: !current && user.subscriptionPlan !== 'free',
        subscription: current
          ? {
              planId: current.planId,
              cycle: current.cycle,
              gateway: current.gateway,
              status: current.status,
              periodStart: current.currentPeriodStart.toISOString(),
              periodEnd: current.currentPeriodEnd.toISOString(),
              renewal: current.gateway === 'stripe' ? 'automatic' : 'manual',
              cancelAtPeriodEnd: current.cancelAtPeriodEnd,
              scheduled: current.scheduledPlanId && current.scheduledCycle ? { planId: current.scheduledPlanId, cycle: current.scheduledCycle } : null,
              graceEndsAt: current.graceEndsAt?.toISOString() ?? null,
              payAgain: await payAgainOf(current, at),
            }
          : null,
        usage: {
          periodStart: usagePeriod.start.toISOString(),
          periodEnd: usagePeriod.end.toISOString(),
          generations: { used: generations.used, limit: generations.limit },
          formats: { used: formatsUsed, limit: plan.formatLimit },
          storage: { usedBytes: storage.usedBytes, limitBytes: storage.limitBytes },
        },
      };
    },

    /**
     * What paying for `planKey` would charge, and a one-time token to confirm it with. Nothing is
     * created at the gateway: the money moves only through create-order with this token.
     */
    async quote(ownerId: string, sessionKey: string, planKey: string): Promise<TCheckoutQuote> {
      // Each quote may ask the gateway for a preview and the saved card: a user gets plenty, a
      // script looping on it does not get to spend the installation's gateway rate limits.
      if ((await repo.quotesSince(ownerId, new Date(Date.now() - QUOTE_LIFETIME_MS))) >= QUOTES_PER_LIFETIME) {
        throw new AppError('rate_limited', 'You have asked for many prices in a short time. Wait a few minutes, then choose the plan again.');
      }
      const at = now();
      const pricing = await priceCheckout(ownerId, planKey, at);
      const gateway = pricing.gateway;
      let paidWith: TCheckoutQuote['paidWith'];
      if (pricing.stripeChange && gateway.name === 'stripe') {
        const subscriptionId = pricing.stripeChange.subscriptionId;
        const card = await gatewayCall('stripe', () => gateway.client.savedCard(subscriptionId));
        paidWith = { type: 'card', brand: card?.brand ?? null, last4: card?.last4 ?? null };
      } else {
        paidWith = { type: 'page', gateway: gateway.name, label: PAGE_LABEL[gateway.name] };
      }
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(at.getTime() + QUOTE_LIFETIME_MS);
      await repo.insertQuote({
        tokenHash: tokenHash(token),
        ownerId,
        sessionKey,
        planId: pricing.target.plan,
        cycle: pricing.target.cycle,
        gateway: gateway.name,
        amountMinor: pricing.amount,
        currency: pricing.currency,
        pricedAt: at,
        expiresAt,
      });
      return {
        planId: pricing.target.plan,
        cycle: pricing.target.cycle,
        planKey: planStorageKey(pricing.target.plan, pricing.target.cycle),
        planName: pricing.plan.name,
        kind: pricing.kind,
        gateway: gateway.name,
        amount: pricing.amount,
        credit: pricing.credit,
        currency: pricing.currency,
        lines: pricing.lines.map((line) => ({ description: line.description, amount: line.amountMinor })),
        chargeAt: at.toISOString(),
        chargesNow: pricing.stripeChange !== undefined,
        paidWith,
        period: { start: pricing.period.start.toISOString(), end: pricing.period.end.toISOString() },
        confirm: token,
        expiresAt: expiresAt.toISOString(),
      };
    },

    /**
     * Starts paying for `planKey` (a first plan, an upgrade, or a manual renewal) as quoted: the
     * confirmation must be a quote for this plan, given to this sign-in session, unused and
     * unexpired, and the price must still be the one quoted. Otherwise nothing is charged and
     * nothing is created at the gateway.
     */
    async startCheckout(ownerId: string, sessionKey: string, body: TCreateOrderBody): Promise<TCheckout> {
      const planKey = body.planId;
      const hash = tokenHash(body.confirm);
      const quote = await repo.quote(hash, ownerId);
      const refuse = (code: 'bad_request' | 'forbidden' | 'conflict', message: string, field: string): never => {
        deps.log.info({ ownerId, planKey, reason: field }, 'create-order refused: the confirmation does not hold');
        throw new AppError(code, `${message} Nothing was charged.`, { confirm: field });
      };
      if (!quote) refuse('bad_request', 'This payment was not confirmed: review the price and confirm it again.', 'This confirmation is not one we gave you.');
      if (quote!.sessionKey !== sessionKey) {
        refuse('forbidden', 'This confirmation was given in another sign-in. Review the price here and confirm it again.', 'This confirmation belongs to another sign-in.');
      }
      const quoted = planStorageKey(quote!.planId, quote!.cycle);
      if (quoted !== planKey) {
        refuse('bad_request', `This confirmation is for the ${planWords(quoted)} plan, not ${planWords(planKey)}.`, 'This confirmation is for another plan.');
      }
      if (quote!.usedAt) refuse('conflict', 'This confirmation was already used: each one pays once.', 'This confirmation was already used.');
      const at = now();
      if (quote!.expiresAt.getTime() <= at.getTime()) {
        refuse('conflict', `This confirmation has expired (they last ${QUOTE_LIFETIME_MS / 60_000} minutes). Review the price and confirm it again.`, 'This confirmation has expired.');
      }
      // The price again, as of the instant it was quoted: anything that changed it since (the
      // catalogue, the subscription, the gateway) shows here as a different amount.
      const pricing = await priceCheckout(ownerId, planKey, quote!.pricedAt);
      if (pricing.amount !== quote!.amountMinor || pricing.currency !== quote!.currency || pricing.gateway.name !== quote!.gateway) {
        deps.log.info({ ownerId, planKey, quoted: [quote!.amountMinor, quote!.currency], now: [pricing.amount, pricing.currency] }, 'create-order refused: the price changed since the quote');
        throw new AppError(
          'conflict',
          `The price changed since you reviewed it: it is now ${formatMinorUnits(pricing.amount, pricing.currency)}, not ${formatMinorUnits(quote!.amountMinor, quote!.currency)}. Nothing was charged; review the new price and confirm it.`,
          { confirm: 'The price changed since this confirmation.' },
        );
      }
      if (!(await repo.takeQuote(hash, ownerId, sessionKey, at))) {
        refuse('conflict', 'This confirmation was already used: each one pays once.', 'This confirmation was already used.');
      }
      return chargeAsPriced(ownerId, pricing);
    },

    /** The return from a checkout page: confirms the payment with the gateway and puts the plan in force. */
    async verifyPayment(ownerId: string, body: TVerifyPaymentBody): Promise<TVerifyPaymentResult> {
      if (body.razorpay_order_id || body.razorpay_payment_id || body.razorpay_signature) {
        if (!body.razorpay_order_id || !body.razorpay_payment_id || !body.razorpay_signature || !body.planId) {
          throw new AppError('validation_failed', 'Missing payment details');
        }
        const order = await repo.orderByGatewayId('razorpay', body.razorpay_order_id);
        if (!order || order.ownerId !== ownerId) {
          throw new AppError('bad_request', 'This payment does not belong to an order of yours. Your plan has not changed.');
        }
        const ordered = planStorageKey(order.planId, order.cycle);
        if (body.planId !== ordered) {
          throw new AppError('bad_request', `This payment was for the ${ordered.replace('_', ' ')} plan, not ${body.planId.replace('_', ' ')}. Your plan has not changed.`);
        }
        const gateway = await gatewayFor('razorpay');
        if (gateway.name !== 'razorpay') throw new Error('unreachable');
        if (!gateway.client.checkoutSignatureValid(body.razorpay_order_id, body.razorpay_payment_id, body.razorpay_signature)) {
          deps.log.warn({ orderId: order.id }, 'Razorpay checkout signature did not match');
          throw new AppError('bad_request', 'Payment verification failed: the signature does not match this order. Your plan has not changed.');
        }
        const paymentId = body.razorpay_payment_id;
        const fetched = await gatewayCall('razorpay', () => gateway.client.fetchPayment(paymentId));
        if (fetched.order_id !== order.gatewayOrderId) {
          throw new AppError('bad_request', 'This payment was made for another order. Your plan has not changed.');
        }
        const paidWith = (p: typeof fetched): TPaidWith => ({ gatewayPaymentId: p.id, chargeRef: p.id, amountMinor: p.amount, currency: p.currency });
        // Another payment paid this order already: this one is not captured, or is given back.
        const first = await repo.paymentOfOrder(order.id);
        if (first && first.gatewayPaymentId !== fetched.id) {
          const second = new SecondPayment(order, paidWith(fetched), first);
          throw secondPaymentRefusal(second, await giveBackSecondPayment(second));
        }
        const payment = fetched.status === 'authorized' ? await gatewayCall('razorpay', () => gateway.client.capture(fetched)) : fetched;
        if (payment.status !== 'captured') {
          throw new AppError('payment_failed', `Razorpay has not completed this payment (it is ${payment.status}). Your plan has not changed.`);
        }
        const ctx = await context();
        return settleOrGiveBack(() =>
          repo.transaction(async (tx) => settleOrder(tx, ctx, (await tx.orderByGatewayId('razorpay', order.gatewayOrderId, true))!, paidWith(payment))),
        );
      }
      if (body.session_id) {
        const sessionId = body.session_id;
        const notFound = () => {
          deps.log.info({ ownerId }, 'verify-payment for a Stripe checkout that does not exist');
          return new AppError(
            'bad_request',
            'We could not find this checkout. Nothing was charged through it and your plan has not changed; choose a plan in Billing to try again.',
          );
        };
        // Only checkouts we started are asked about at Stripe.
        const order = await repo.orderByGatewayId('stripe', sessionId);
        if (!order) throw notFound();
        if (order.ownerId !== ownerId) throw new AppError('bad_request', 'This checkout does not belong to an order of yours. Your plan has not changed.');
        const gateway = await gatewayFor('stripe');
        if (gateway.name !== 'stripe') throw new Error('unreachable');
        let session: Stripe.Checkout.Session;
        try {
          session = await gateway.client.retrieveSession(sessionId);
        } catch (error) {
          if (error instanceof GatewayRefusal && error.status === 404) throw notFound();
          throw gatewayFailure('stripe', error);
        }
        const result = await settleStripeSession(gateway, session, undefined, now(), ownerId);
        if (!result) throw new AppError('bad_request', 'This checkout does not belong to an order of yours. Your plan has not changed.');
        return result;
      }
      if (body.paypal_order_id) {
        const order = await repo.orderByGatewayId('paypal', body.paypal_order_id);
        if (!order || order.ownerId !== ownerId) {
          throw new AppError('bad_request', 'This payment does not belong to an order of yours. Your plan has not changed.');
        }
        const gateway = await gatewayFor('paypal');
        if (gateway.name !== 'paypal') throw new Error('unreachable');
        const captured = await gatewayCall('paypal', async () => {
          try {
            return await gateway.client.capture(order.gatewayOrderId);
          } catch (error) {
            if (error instanceof GatewayRefusal && error.status === 422) {
              throw new AppError('payment_failed', 'PayPal did not approve this payment. Your plan has not changed; you can try again.');
            }
            throw error;
          }
        });
        const capture = completedCapture(captured);
        if (!capture) {
          await repo.setOrderStatus(order.id, 'failed');
          throw new AppError('payment_failed', `PayPal has not completed this payment (it is ${captured.status}). Your plan has not changed.`);
        }
        const ctx = await context();
        return settleOrGiveBack(() =>
          repo.transaction(async (tx) =>
            settleOrder(tx, ctx, (await tx.orderByGatewayId('paypal', order.gatewayOrderId, true))!, {
              gatewayPaymentId: capture.id,
              chargeRef: capture.id,
              amountMinor: paypalMinor(capture.amount.value),
              currency: capture.amount.currency_code,
            }),
          ),
        );
      }
      throw new AppError('validation_failed', 'Missing payment details');
    },

    /** A gateway's webhook: checked, applied once, in order. Throws for the gateway to retry. */
    async handleWebhook(name: TGatewayName, rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<void> {
      const row = await repo.gatewayNamed(name);
      if (!row) throw notFound('Payment gateway');
      const gateway = deps.openGateway(row);
      const header = (key: string) => {
        const value = headers[key];
        return Array.isArray(value) ? value[0] : value;
      };
      const badSignature = () => new AppError('bad_request', 'The webhook signature does not match.');
      const parseJson = (): unknown => {
        try {
          return JSON.parse(rawBody.toString('utf8'));
        } catch {
          throw new AppError('bad_request', 'The webhook body is not JSON.');
        }
      };

      if (gateway.name === 'razorpay') {
        if (!gateway.client.webhookSignatureValid(rawBody, header('x-razorpay-signature'))) throw badSignature();
        const parsed = ZRazorpayEvent.safeParse(parseJson());
        if (!parsed.success) throw new AppError('bad_request', 'The webhook body is not a Razorpay event.');
        const event = parsed.data;
        const eventId = header('x-razorpay-event-id') ?? createHash('sha256').update(rawBody).digest('hex');
        const ctx = await context();
        try {
          await handleRazorpayEvent(ctx, event, eventId);
        } catch (error) {
          // Rolled back, sighting and all: if the refund fails, Razorpay's next delivery tries again.
          if (!(error instanceof SecondPayment)) throw error;
          await giveBackSecondPayment(error);
        }
        return;
      }

      if (gateway.name === 'stripe') {
        const event = gateway.client.constructEvent(rawBody, header('stripe-signature'));
        if (!event) throw badSignature();
        return handleStripeEvent(gateway, event);
      }

      const body = parseJson();
      const valid = await gatewayCall('paypal', () => gateway.client.webhookValid(headers, body));
      if (!valid) throw badSignature();
      const parsed = ZPayPalEvent.safeParse(body);
      if (!parsed.success) throw new AppError('bad_request', 'The webhook body is not a PayPal event.');
      try {
        await handlePayPalEvent(parsed.data);
      } catch (error) {
        if (!(error instanceof SecondPayment)) throw error;
        await giveBackSecondPayment(error);
      }
    },

    /** Schedules a move to a lower plan, or yearly to monthly, for the end of the paid period. */
    async scheduleDowngrade(ownerId: string, planKey: string): Promise<void> {
      const target = parsePlanKey(planKey);
      if (target.plan === 'free') return this.cancel(ownerId);
      const current = await currentSubscription(repo, ownerId);
      if (!current || current.status !== 'active') throw new AppError('conflict', 'You have no paid plan to change. Choose a plan to subscribe.');
      if (planChange({ plan: current.planId, cycle: current.cycle }, target) !== 'downgrade') {
        throw new AppError('conflict', 'That is not a downgrade: choose Upgrade to switch to it now.');
      }
      const plan = await planOf(target.plan);
      const currency = currencyOf(current.gateway);
      const amount = periodCharge(plan, currency, target.cycle);
      if (amount === null) throw new AppError('bad_request', `The ${plan.name} plan cannot be bought here.`);
      if (current.gateway === 'stripe' && current.gatewaySubscriptionId) {
        const gateway = await gatewayFor('stripe');
        if (gateway.name !== 'stripe') throw new Error('unreachable');
        const subscriptionId = current.gatewaySubscriptionId;
        await gatewayCall('stripe', async () => {
          if (current.cancelAtPeriodEnd) await gateway.client.setCancelAtPeriodEnd(subscriptionId, false);
          await gateway.client.changePrice(
            subscriptionId,
            { planId: target.plan, cycle: target.cycle, amountMinor: amount, currency, productName: `Formwork ${plan.name}` },
            { charge: 'at-renewal' },
          );
        });
      }
      await repo.updateSubscription(ownerId, { scheduledPlanId: target.plan, scheduledCycle: target.cycle, cancelAtPeriodEnd: false });
    },

    /** Cancels at the end of the paid period: the plan runs until then, then the account is free. */
    async cancel(ownerId: string): Promise<void> {
      const current = await currentSubscription(repo, ownerId);
      if (!current) throw new AppError('conflict', 'You have no paid plan to cancel.');
      if (current.gateway === 'stripe' && current.gatewaySubscriptionId) {
        const gateway = await gatewayFor('stripe');
        if (gateway.name !== 'stripe') throw new Error('unreachable');
        const subscriptionId = current.gatewaySubscriptionId;
        await gatewayCall('stripe', () => gateway.client.setCancelAtPeriodEnd(subscriptionId, true));
      }
      await repo.updateSubscription(ownerId, { cancelAtPeriodEnd: true, scheduledPlanId: null, scheduledCycle: null });
    },

    /**
     * Before its account is deleted: a Stripe subscription is cancelled at once at Stripe, so no
     * renewal is charged to a person who has left (one-off orders have nothing to cancel). Any
     * failure is thrown, so the deletion stops with nothing deleted.
     */
    async cancelForDeletion(ownerId: string): Promise<void> {
      const current = await currentSubscription(repo, ownerId);
      if (!current || current.gateway !== 'stripe' || !current.gatewaySubscriptionId) return;
      const subscriptionId = current.gatewaySubscriptionId;
      try {
        const gateway = await gatewayFor('stripe');
        if (gateway.name !== 'stripe') throw new Error('unreachable');
        await gateway.client.cancelNow(subscriptionId);
      } catch (error) {
        deps.log.error({ err: error, subscriptionId }, 'could not cancel a subscription before deleting its account');
        throw new AppError(
          'unavailable',
          'Your subscription could not be cancelled at Stripe just now, so nothing was deleted and you were not charged. Try again in a few minutes, or contact support.',
        );
      }
      await repo.updateSubscription(ownerId, { status: 'ended', cancelAtPeriodEnd: false, scheduledPlanId: null, scheduledCycle: null });
    },

    /** Takes back a cancellation or a scheduled downgrade: the current plan simply continues. */
    async resume(ownerId: string): Promise<void> {
      const current = await currentSubscription(repo, ownerId);
      if (!current) throw new AppError('conflict', 'You have no paid plan to keep.');
      if (current.gateway === 'stripe' && current.gatewaySubscriptionId) {
        const gateway = await gatewayFor('stripe');
        if (gateway.name !== 'stripe') throw new Error('unreachable');
        const subscriptionId = current.gatewaySubscriptionId;
        const plan = await planOf(current.planId);
        const amount = periodCharge(plan, 'USD', current.cycle);
        await gatewayCall('stripe', async () => {
          if (current.cancelAtPeriodEnd) await gateway.client.setCancelAtPeriodEnd(subscriptionId, false);
          if (current.scheduledPlanId && amount !== null) {
            await gateway.client.changePrice(
              subscriptionId,
              { planId: current.planId, cycle: current.cycle, amountMinor: amount, currency: 'USD', productName: `Formwork ${plan.name}` },
              { charge: 'at-renewal' },
            );
          }
        });
      }
      await repo.updateSubscription(ownerId, { cancelAtPeriodEnd: false, scheduledPlanId: null, scheduledCycle: null });
    },

    async invoices(ownerId: string): Promise<TInvoiceSummary[]> {
      return (await repo.invoicesOf(ownerId)).map(({ invoice, payment }) => invoiceSummary(invoice.id, invoice.details, payment));
    },

    /** An invoice's PDF; `ownerId` undefined for admins, who may read any. */
    async invoicePdf(id: string, ownerId: string | undefined): Promise<{ pdf: Uint8Array; fileName: string }> {
      const found = await repo.invoice(id, ownerId);
      if (!found) throw notFound('Invoice');
      const { format, data } = invoiceDocument(found.invoice.details);
      const rendered = await deps.pdf.render({
        // An invoice prints no uploaded images; a deleted account's invoice has no owner left.
        ownerId: found.invoice.ownerId ?? '',
        format,
        data,
        title: `Invoice ${found.invoice.details.number}`,
        creationDate: found.invoice.issuedAt,
      });
      return { pdf: rendered.pdf, fileName: `formwork-invoice-${found.invoice.details.number}.pdf` };
    },

    async adminPayments(query: TAdminPaymentsQuery): Promise<TAdminPayments> {
      const { rows, total, totals } = await repo.adminPayments(query);
      return {
        total,
        totals: totals.map((t) => ({ currency: t.currency, amount: t.amount })),
        payments: rows.map(({ payment, email, invoiceId, invoiceNumber }) => ({
          id: payment.id,
          user: { id: payment.ownerId, email },
          planId: payment.planId,
          cycle: payment.cycle,
          amount: payment.amountMinor,
          refunded: payment.refundedMinor,
          currency: payment.currency,
          status: payment.status,
          gateway: payment.gateway,
          gatewayReference: payment.gatewayPaymentId,
          createdAt: payment.createdAt.toISOString(),
          invoiceId: invoiceId ?? null,
          invoiceNumber: invoiceNumber === null ? null : invoiceNumberText(invoiceNumber),
        })),
      };
    },

    /**
     * Moves subscriptions on when their period ends: to a renewal paid ahead, to free after a
     * cancellation, into a grace period when unpaid, and to free when the grace runs out.
     */
    async sweep(): Promise<{ rolled: number; lapsed: number; ended: number; months: number; reminded: number }> {
      const at = now();
      const counts = { rolled: 0, lapsed: 0, ended: 0, months: 0, reminded: 0 };
      const toCancelAtStripe: string[] = [];
      for (const due of await repo.due(at)) {
        await repo.transaction(async (tx) => {
          const sub = await currentSubscription(tx, due.ownerId, true);
          if (!sub) return;
          if (sub.status === 'past_due' && sub.graceEndsAt && sub.graceEndsAt.getTime() <= at.getTime()) {
            await endSubscription(tx, sub);
            if (sub.gateway === 'stripe' && sub.gatewaySubscriptionId) toCancelAtStripe.push(sub.gatewaySubscriptionId);
            counts.ended++;
            return;
          }
          if (sub.currentPeriodEnd.getTime() > at.getTime()) return;
          const next = await tx.paidPeriodStartingFrom(sub.ownerId, sub.currentPeriodEnd);
          if (next && next.periodStart.getTime() <= at.getTime() && next.gateway !== 'stripe') {
            await tx.updateSubscription(sub.ownerId, {
              planId: next.planId,
              cycle: next.cycle,
              status: 'active',
              currentPeriodStart: next.periodStart,
              currentPeriodEnd: next.periodEnd,
              scheduledPlanId: null,
              scheduledCycle: null,
              graceEndsAt: null,
              renewalReminderAt: null,
            });
            await tx.setUserPlan(sub.ownerId, next.planId, quotaKey(next.periodStart, next.cycle, at));
            counts.rolled++;
          } else if (sub.cancelAtPeriodEnd) {
            await endSubscription(tx, sub);
            counts.ended++;
          } else if (sub.status === 'active') {
            await tx.updateSubscription(sub.ownerId, { status: 'past_due', graceEndsAt: addDays(sub.currentPeriodEnd, GRACE_DAYS) });
            counts.lapsed++;
          }
        });
      }
      // Plans renewed by hand: one reminder by email when the last week begins.
      for (const due of await repo.renewalsToRemind(addDays(at, RENEWAL_WINDOW_DAYS))) {
        if (!(await repo.claimRenewalReminder(due.ownerId, due.currentPeriodEnd, at))) continue;
        // Paid ahead already: nothing to remind of.
        if (await repo.paidPeriodStartingFrom(due.ownerId, due.currentPeriodEnd)) continue;
        counts.reminded++;
        if (deps.notify) {
          const notice = await renewalNotice(due);
          await deps.notify(due.ownerId, notice).catch((error: unknown) => deps.log.warn({ err: error, ownerId: due.ownerId }, 'could not send a renewal reminder'));
        }
      }
      // A yearly plan's documents count month by month: each new month of the period starts afresh.
      for (const yearly of await repo.yearlyInForce()) {
        const key = quotaKey(yearly.currentPeriodStart, 'yearly', at);
        if (yearly.quotaPeriod !== key && yearly.currentPeriodEnd.getTime() > at.getTime()) {
          await repo.setQuotaPeriod(yearly.ownerId, key);
          counts.months++;
        }
      }
      // Confirmations are kept a day past their expiry, so a late click is told "expired", then forgotten.
      await repo.deleteQuotesExpiredBefore(addDays(at, -1));
      // Stripe stops retrying the card once the plan has lapsed here.
      for (const subscriptionId of toCancelAtStripe) {
        try {
          const gateway = await gatewayFor('stripe');
          if (gateway.name === 'stripe') await gateway.client.cancelNow(subscriptionId);
        } catch (error) {
          deps.log.warn({ err: error, subscriptionId }, 'could not cancel a lapsed Stripe subscription');
        }
      }
      return counts;
    },

    /**
     * Origins the browser must be allowed to load Razorpay Checkout from (its script, and the
     * frame and calls it makes): every Razorpay gateway an admin has set up, so turning one on
     * works without a reload of pages already open.
     */
    async checkoutSources(): Promise<string[]> {
      const origins = new Set<string>();
      for (const row of await repo.gatewaysNamed('razorpay')) {
        const configuration = ZGatewayConfiguration.safeParse(row.configuration);
        const config = configuration.success ? configuration.data : {};
        origins.add(new URL(config.checkoutScriptUrl ?? GATEWAY_DEFAULT_ADDRESSES.razorpay.checkoutScriptUrl).origin);
        origins.add(new URL(config.apiBaseUrl ?? GATEWAY_DEFAULT_ADDRESSES.razorpay.apiBaseUrl).origin);
      }
      return [...origins];
    },

    /** An administrator set this user's plan by hand: gateway billing no longer decides it. */
    async detachForAdmin(ownerId: string, planId: TPlanId): Promise<void> {
      await repo.transaction(async (tx) => {
        const sub = await currentSubscription(tx, ownerId, true);
        if (sub) await tx.updateSubscription(ownerId, { status: 'ended', graceEndsAt: null, scheduledPlanId: null, scheduledCycle: null });
        await tx.setUserPlan(ownerId, planId, null);
      });
    },
  };

  async function changeStripePlan(
    ownerId: string,
    gateway: Extract<TOpenGateway, { name: 'stripe' }>,
    pricing: TPricing,
    change: NonNullable<TPricing['stripeChange']>,
  ): Promise<TCheckout> {
    const { plan, target } = pricing;
    const cycle = target.cycle;
    const how = { newPeriod: change.newPeriod };
    const amount = periodCharge(plan, 'USD', cycle)!;
    const updated = await gatewayCall('stripe', () =>
      gateway.client.changePrice(
        change.subscriptionId,
        { planId: plan.id, cycle, amountMinor: amount, currency: 'USD', productName: `Formwork ${plan.name}` },
        { charge: 'now', newPeriod: change.newPeriod, prorationDate: change.prorationDate },
      ),
    );
    const invoice = typeof updated.latest_invoice === 'object' ? updated.latest_invoice : null;
    if (!invoice || invoice.status !== 'paid') {
      throw new AppError('payment_failed', 'Stripe could not charge your card for the change. Your plan has not changed.');
    }
    if (invoice.amount_paid !== pricing.amount) {
      deps.log.warn({ ownerId, invoice: invoice.id, quoted: pricing.amount, paid: invoice.amount_paid }, 'Stripe charged another amount than it previewed');
    }
    const ctx = await context();
    await repo.transaction(async (tx) => {
      await tx.insertOrder({
        id: randomUUID(),
        ownerId,
        gateway: 'stripe',
        gatewayOrderId: invoice.id!,
        planId: plan.id,
        cycle,
        amountMinor: invoice.amount_paid,
        currency: 'USD',
        kind: how.newPeriod ? 'new' : 'upgrade',
        creditMinor: pricing.credit,
        lines: invoice.lines.data.map((l) => ({ description: l.description ?? describe(plan, cycle), amountMinor: l.amount })),
      });
      const order = await tx.orderByGatewayId('stripe', invoice.id!, true);
      await settleStripeInvoice(tx, ctx, invoice, updated, order, now());
    });
    return {
      gateway: 'stripe',
      orderId: invoice.id!,
      amount: invoice.amount_paid,
      currency: 'USD',
      credit: pricing.credit,
      planId: plan.id,
      cycle,
      next: { type: 'done' },
    };
  }

  function currentSubscriptionCurrency(sub: TSubscriptionRow | undefined, active: TGatewayName | null): TCurrency {
    return currencyOf(sub?.gateway ?? active ?? 'stripe');
  }
}
export type TBillingService = ReturnType<typeof createBillingService>;

function invoiceSummary(id: string, details: TInvoiceDetails, payment: { status: TInvoiceSummary['status']; refundedMinor: number }): TInvoiceSummary {
  return {
    id,
    number: details.number,
    issuedAt: details.paidAt,
    planName: details.planName,
    cycle: details.cycle,
    periodStart: details.periodStart,
    periodEnd: details.periodEnd,
    amount: details.amountMinor,
    currency: details.currency,
    gateway: details.gateway,
    gatewayReference: details.gatewayReference,
    status: payment.status,
    refunded: payment.refundedMinor,
  };
}
