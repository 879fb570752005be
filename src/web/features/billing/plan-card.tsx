import { Loader2Icon } from 'lucide-react';
import type { TBillingOverview } from '../../../contract/billing';
import type { TBillingCycle, TPlan } from '../../../contract/plans';
import { periodCharge, planChange } from '../../../contract/plan-catalogue';
import { PlanFeatures, PriceLine } from '../../components/pricing/plan-pricing';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useContactEmails } from '../../hooks/use-app-config';
import { mailto } from '../../lib/site';
import { cn, formatDate } from '../../lib/utils';

export type TPlanAction =
  | { kind: 'current' }
  | { kind: 'scheduled' }
  | { kind: 'sales' }
  | { kind: 'managed' }
  | { kind: 'unavailable' }
  | { kind: 'upgrade'; label: string }
  | { kind: 'downgrade' };

/** What a plan's button does for this account, the same way the server decides it. */
export function actionFor(plan: TPlan, cycle: TBillingCycle, overview: TBillingOverview): TPlanAction {
  const sub = overview.subscription;
  const current = sub ? { plan: sub.planId, cycle: sub.cycle } : { plan: overview.planId, cycle };
  if (overview.managedByAdmin) return plan.id === overview.planId ? { kind: 'current' } : { kind: 'managed' };
  if (plan.id === current.plan && (plan.id === 'free' || cycle === current.cycle)) return { kind: 'current' };
  if (sub?.scheduled?.planId === plan.id && sub.scheduled.cycle === cycle) return { kind: 'scheduled' };
  if (sub?.cancelAtPeriodEnd && plan.id === 'free') return { kind: 'scheduled' };
  if (periodCharge(plan, overview.currency, cycle) === null && plan.id !== 'free') return { kind: 'sales' };
  if (!sub || sub.status === 'past_due') {
    if (plan.id === 'free') return { kind: 'current' };
    return overview.gateway ? { kind: 'upgrade', label: `Choose ${plan.name}` } : { kind: 'unavailable' };
  }
  if (plan.id === 'free') return { kind: 'downgrade' };
  const change = planChange(current, { plan: plan.id, cycle });
  if (change === 'downgrade') return { kind: 'downgrade' };
  if (!overview.gateway && sub.gateway !== 'stripe') return { kind: 'unavailable' };
  return { kind: 'upgrade', label: change === 'new-period' && plan.id === current.plan ? 'Switch to yearly' : `Upgrade to ${plan.name}` };
}

export function PlanCard(props: {
  plan: TPlan;
  cycle: TBillingCycle;
  overview: TBillingOverview;
  busy: boolean;
  disabled: boolean;
  /** Named by the address (`?checkout=`): highlighted for the user to review, never bought by itself. */
  chosen?: boolean;
  onUpgrade: () => void;
  onDowngrade: () => void;
}) {
  const { plan, cycle, overview } = props;
  const { salesEmail } = useContactEmails();
  const action = actionFor(plan, cycle, overview);
  const isCurrent = action.kind === 'current';
  return (
    <div
      data-testid={`billing-plan-${plan.id}`}
      data-chosen={props.chosen ? 'true' : undefined}
      className={cn(
        'flex scroll-mt-24 flex-col rounded-xl border bg-card p-5',
        isCurrent && 'border-primary/60 ring-1 ring-primary/40',
        props.chosen && !isCurrent && 'border-primary ring-2 ring-primary/50',
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-base font-semibold">{plan.name}</h3>
        {isCurrent && <Badge variant="soft">Your plan</Badge>}
        {!isCurrent && props.chosen && <Badge variant="default">Your choice</Badge>}
        {!isCurrent && !props.chosen && plan.popular && <Badge variant="outline">Popular</Badge>}
      </div>
      <PriceLine plan={plan} currency={overview.currency} cycle={cycle} />
      <PlanFeatures features={plan.features} className="mt-4 mb-5 flex-1" />
      {action.kind === 'current' ? (
        <Button variant="secondary" className="w-full" disabled>
          Current plan
        </Button>
      ) : action.kind === 'scheduled' ? (
        <Button variant="secondary" className="w-full" disabled>
          Starts {formatDate(overview.subscription?.periodEnd)}
        </Button>
      ) : action.kind === 'sales' ? (
        salesEmail ? (
          <Button variant="outline" className="w-full" asChild>
            <a href={mailto(salesEmail, `Formwork ${plan.name} plan`)}>Contact Sales</a>
          </Button>
        ) : (
          <p className="text-center text-sm text-muted-foreground">Ask the administrator of this installation.</p>
        )
      ) : action.kind === 'managed' ? (
        <Button variant="outline" className="w-full" disabled>
          Managed by your admin
        </Button>
      ) : action.kind === 'unavailable' ? (
        <Button variant="outline" className="w-full" disabled>
          Not available yet
        </Button>
      ) : action.kind === 'downgrade' ? (
        <Button variant="outline" className="w-full" onClick={props.onDowngrade} disabled={props.disabled}>
          {plan.id === 'free' ? 'Move to Free' : `Downgrade to ${plan.name}`}
        </Button>
      ) : (
        <Button className="w-full" onClick={props.onUpgrade} disabled={props.disabled} aria-live="polite">
          {props.busy ? (
            <>
              <Loader2Icon className="animate-spin" aria-hidden /> Processing...
            </>
          ) : (
            action.label
          )}
        </Button>
      )}
    </div>
  );
}
