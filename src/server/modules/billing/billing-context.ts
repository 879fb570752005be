import type { TInvoiceDetails } from '../../../contract/billing.ts';
import type { TPlan, TPlanCatalogue, TPlanId } from '../../../contract/plans.ts';
import { AppError } from '../../http/app-error.ts';
import type { TPdfService } from '../pdf/index.ts';
import type { TQuotaService } from '../quota/index.ts';
import type { TSystemService } from '../system/index.ts';
import type { TBillingQueries, TBillingRepository, TSubscriptionRow } from './billing.repository.ts';
import { planIn } from './billing-terms.ts';
import { GatewayRefusal, gatewayTitle, type TGatewayName } from './gateways/gateway-http.ts';
import type { TGatewayOpener, TOpenGateway } from './gateways/open-gateway.ts';

type TLog = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };

/** What the billing service is built from (see `createBillingService`). */
export type TBillingDeps = {
  repository: TBillingRepository;
  system: Pick<TSystemService, 'planCatalogue' | 'seller'>;
  quota: Pick<TQuotaService, 'generations' | 'storage' | 'signatureRequestsUsed'>;
  openGateway: TGatewayOpener;
  pdf: Pick<TPdfService, 'render'>;
  publicUrl: string;
  log: TLog;
  /** Emails a user a notice through the installation's mail server; false when it could not. */
  notify?: (ownerId: string, notice: { subject: string; text: string }) => Promise<boolean>;
  /** The clock; tests move it to reach renewals and grace periods. */
  now?: () => Date;
};

/**
 * What a transaction needs from outside it, read before it starts: on the embedded database one
 * connection serves everything, so a query outside the transaction would wait for it forever.
 */
export type TSettleContext = { catalogue: TPlanCatalogue; seller: TInvoiceDetails['seller'] };

export type TGatewayOf<N extends TGatewayName> = Extract<TOpenGateway, { name: N }>;

/** The state every billing use case shares: its dependencies, the clock, and the gateway helpers. */
export type TBillingContext = ReturnType<typeof createBillingContext>;

export function createBillingContext(deps: TBillingDeps) {
  const now = deps.now ?? (() => new Date());
  const repo = deps.repository;
  const log = deps.log;

  const planOf = async (planId: TPlanId): Promise<TPlan> => planIn(await deps.system.planCatalogue(), planId);

  async function settleContext(): Promise<TSettleContext> {
    const [catalogue, seller] = await Promise.all([deps.system.planCatalogue(), deps.system.seller()]);
    return { catalogue, seller };
  }

  async function gatewayFor<N extends TGatewayName>(name: N): Promise<TGatewayOf<N>> {
    const row = await repo.gatewayNamed(name);
    if (!row) throw new AppError('unavailable', `${gatewayTitle(name)} is not set up. Please contact support.`);
    const gateway = deps.openGateway(row);
    if (gateway.name !== name) throw new Error('unreachable');
    return gateway as TGatewayOf<N>;
  }

  async function activeGatewayOrThrow(): Promise<TOpenGateway> {
    const row = await repo.activeGateway();
    if (!row) {
      throw new AppError('unavailable', 'Payments are not available yet: no payment gateway is turned on. Nothing was charged; please contact support.');
    }
    return deps.openGateway(row);
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
    log.error({ gateway, status: error.status, body: error.body }, 'payment gateway refused a request');
    return new AppError(
      'unavailable',
      `${gatewayTitle(gateway)} refused the request, so nothing was charged. The payment settings need an administrator's attention; please contact support.`,
    );
  }

  return { deps, repo, log, now, planOf, settleContext, gatewayFor, activeGatewayOrThrow, gatewayCall, gatewayFailure };
}

/** The subscription that still holds a plan (active, or in its grace period). */
export async function currentSubscription(tx: TBillingQueries, ownerId: string, lock = false): Promise<TSubscriptionRow | undefined> {
  const sub = await tx.subscription(ownerId, lock);
  return sub && sub.status !== 'ended' ? sub : undefined;
}

/** Ends a subscription: the account returns to free, its formats and documents all kept. */
export async function endSubscription(tx: TBillingQueries, sub: TSubscriptionRow, eventAt?: Date) {
  await tx.updateSubscription(sub.ownerId, {
    status: 'ended',
    graceEndsAt: null,
    scheduledPlanId: null,
    scheduledCycle: null,
    ...(eventAt ? { lastEventAt: eventAt } : {}),
  });
  await tx.setUserPlan(sub.ownerId, 'free', null);
}
