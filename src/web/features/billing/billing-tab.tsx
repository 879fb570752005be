import { useMutation } from '@tanstack/react-query';
import { AlertTriangleIcon, CalendarClockIcon, CreditCardIcon, Loader2Icon, RotateCcwIcon, SparklesIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ZPlanKey, type TBillingOverview } from '../../../contract/billing';
import { parsePlanKey, type TBillingCycle, type TPlan, type TPlanCatalogue, type TPlanId } from '../../../contract/plans';
import { formatMinorUnits, planStorageKey } from '../../../contract/plan-catalogue';
import { BillingToggle } from '../../components/pricing/plan-pricing';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { useBillingOverview } from '../../hooks/use-billing-overview';
import { usePlans } from '../../hooks/use-plans';
import { toast } from '../../hooks/use-toast';
import { readApiError } from '../../lib/api';
import { formatDate } from '../../lib/utils';
import { billingApi } from './api';
import { ConfirmPaymentDialog } from './confirm-payment-dialog';
import { useCheckout, useRefreshBilling } from './use-checkout';
import { InvoicesCard } from './invoices-card';
import { actionFor, PlanCard } from './plan-card';
import { UsageMeters } from './usage-meters';
import { useContactEmails } from '../../hooks/use-app-config';

const cycleWord = (cycle: TBillingCycle) => (cycle === 'yearly' ? 'yearly' : 'monthly');

function planNameOf(plans: TPlanCatalogue, id: string): string {
  return plans.find((p) => p.id === id)?.name ?? id;
}

/** What the account's plan is, how it is paid, and what happens next. */
/** The paid period and what happens at its end. */
function PeriodDetails({ sub }: { sub: NonNullable<TBillingOverview['subscription']> }) {
  return (
    <dl className="grid gap-4 text-sm sm:grid-cols-2">
      <div>
        <dt className="text-muted-foreground">Current period</dt>
        <dd className="mt-1 font-medium" data-testid="billing-period">
          {formatDate(sub.periodStart)} – {formatDate(sub.periodEnd)}
        </dd>
      </div>
      <div>
        <dt className="text-muted-foreground">{sub.cancelAtPeriodEnd ? 'Ends on' : sub.renewal === 'automatic' ? 'Renews automatically on' : 'Paid until'}</dt>
        <dd className="mt-1 font-medium">{formatDate(sub.periodEnd)}</dd>
      </div>
    </dl>
  );
}

function CurrentPlanCard({
  overview,
  plans,
  onPayAgain,
  paying,
}: {
  overview: TBillingOverview;
  plans: TPlanCatalogue;
  onPayAgain: (planKey: string) => void;
  paying: boolean;
}) {
  const sub = overview.subscription;
  const [confirmCancel, setConfirmCancel] = useState(false);
  const refresh = useRefreshBilling();
  const cancel = useMutation({
    mutationFn: billingApi.cancel,
    onSuccess: async () => {
      setConfirmCancel(false);
      await refresh();
      toast({
        title: 'Plan Cancelled',
        description: `Your plan stays until ${formatDate(sub?.periodEnd)}, then your account moves to Free. Nothing is deleted.`,
      });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: readApiError(error, 'Could not cancel the plan. Please try again.').message }),
  });
  const resume = useMutation({
    mutationFn: billingApi.resume,
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Plan Kept', description: `Your ${planNameOf(plans, sub?.planId ?? '')} plan continues.` });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: readApiError(error, 'Could not change the plan. Please try again.').message }),
  });

  const name = planNameOf(plans, overview.planId);
  const status = !sub
    ? { label: 'Active', variant: 'success' as const }
    : sub.status === 'past_due'
      ? { label: 'Payment due', variant: 'destructive' as const }
      : sub.cancelAtPeriodEnd
        ? { label: 'Cancelled', variant: 'secondary' as const }
        : { label: 'Active', variant: 'success' as const };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your plan</CardTitle>
        <CardDescription>
          {sub
            ? `Paid with ${gatewayName(sub.gateway)}, billed ${cycleWord(sub.cycle)}.`
            : overview.managedByAdmin
              ? 'Set up for you by your administrator.'
              : freeSummary(plans)}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-2xl font-semibold tracking-tight" data-testid="billing-plan">
            {name}
          </p>
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>

        {sub && <PeriodDetails sub={sub} />}

        {sub?.status === 'past_due' && (
          <Alert variant="destructive">
            <AlertTriangleIcon aria-hidden />
            <AlertTitle>Your renewal has not been paid</AlertTitle>
            <AlertDescription>
              <p>
                Your {name} plan stays until {formatDate(sub.graceEndsAt ?? sub.periodEnd)}. After that your account returns to Free: nothing is deleted, and
                formats beyond the Free plan's one become read-only.
              </p>
            </AlertDescription>
          </Alert>
        )}
        {sub?.payAgain && (
          <Alert variant="info">
            <CalendarClockIcon aria-hidden />
            <AlertTitle>{sub.status === 'past_due' ? 'Pay now to keep your plan' : `Your next period starts on ${formatDate(sub.payAgain.due)}`}</AlertTitle>
            <AlertDescription>
              <p>
                {gatewayName(sub.gateway)} payments do not renew by themselves. Pay {formatMinorUnits(sub.payAgain.amount, sub.payAgain.currency)} for the{' '}
                {planNameOf(plans, parsePlanKey(sub.payAgain.planKey).plan)} plan ({cycleWord(parsePlanKey(sub.payAgain.planKey).cycle)}) to continue.
              </p>
              <Button className="mt-2" size="sm" onClick={() => onPayAgain(sub.payAgain!.planKey)} disabled={paying}>
                {paying ? <Loader2Icon className="animate-spin" aria-hidden /> : <CreditCardIcon aria-hidden />}
                {paying ? 'Processing...' : `Pay ${formatMinorUnits(sub.payAgain.amount, sub.payAgain.currency)} now`}
              </Button>
            </AlertDescription>
          </Alert>
        )}
        {sub?.cancelAtPeriodEnd && (
          <Alert>
            <CalendarClockIcon aria-hidden />
            <AlertTitle>Your plan ends on {formatDate(sub.periodEnd)}</AlertTitle>
            <AlertDescription>
              <p>Then your account moves to Free. Changed your mind? Keep the plan and it carries on as before.</p>
              <Button className="mt-2" size="sm" variant="outline" onClick={() => resume.mutate()} disabled={resume.isPending}>
                <RotateCcwIcon aria-hidden /> Keep my {name} plan
              </Button>
            </AlertDescription>
          </Alert>
        )}
        {sub?.scheduled && !sub.cancelAtPeriodEnd && (
          <Alert>
            <CalendarClockIcon aria-hidden />
            <AlertTitle>
              Moving to {planNameOf(plans, sub.scheduled.planId)} ({cycleWord(sub.scheduled.cycle)}) on {formatDate(sub.periodEnd)}
            </AlertTitle>
            <AlertDescription>
              <p>You keep everything in {name} until then.</p>
              <Button className="mt-2" size="sm" variant="outline" onClick={() => resume.mutate()} disabled={resume.isPending}>
                <RotateCcwIcon aria-hidden /> Stay on {name}
              </Button>
            </AlertDescription>
          </Alert>
        )}

        <UsageMeters usage={overview.usage} />

        {sub && !sub.cancelAtPeriodEnd && (
          <div className="border-t pt-4">
            <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={() => setConfirmCancel(true)}>
              Cancel plan
            </Button>
          </div>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title={`Cancel your ${name} plan?`}
        description={`Your plan stays until ${formatDate(sub?.periodEnd)}, then your account moves to Free. Your formats and documents are kept; formats beyond one become read-only.`}
        confirmLabel="Cancel plan"
        pendingLabel="Cancelling..."
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate()}
      />
    </Card>
  );
}

/** The free plan in a line, from the catalogue an admin may have changed. */
function freeSummary(plans: TPlanCatalogue): string {
  const free = plans.find((p) => p.id === 'free');
  if (!free) return 'Upgrade any time.';
  const formats = free.formatLimit === null ? 'unlimited formats' : `${free.formatLimit} ${free.formatLimit === 1 ? 'format' : 'formats'}`;
  return `Free forever: ${formats} and ${free.generationsPerMonth.toLocaleString('en-US')} documents a month. Upgrade any time.`;
}

const gatewayName = (gateway: string) => ({ razorpay: 'Razorpay', stripe: 'Stripe', paypal: 'PayPal' })[gateway] ?? gateway;

/** The plans to move to, priced in the active gateway's currency. */
function PlansCard({
  overview,
  plans,
  start,
  paying,
  chosen,
}: {
  overview: TBillingOverview;
  plans: TPlanCatalogue;
  start: (planKey: string) => void;
  paying: string | null;
  chosen: TChosenPlan | null;
}) {
  const sub = overview.subscription;
  const [cycle, setCycle] = useState<TBillingCycle>(chosen?.cycle ?? sub?.cycle ?? 'monthly');
  // A plan named by the address shows in its own cycle.
  const [shownChoice, setShownChoice] = useState(chosen);
  if (chosen !== shownChoice) {
    setShownChoice(chosen);
    if (chosen) setCycle(chosen.cycle);
  }
  const [downgradeTo, setDowngradeTo] = useState<{ plan: TPlan; cycle: TBillingCycle } | null>(null);
  const refresh = useRefreshBilling();
  const downgrade = useMutation({
    mutationFn: (target: { plan: TPlan; cycle: TBillingCycle }) =>
      target.plan.id === 'free' ? billingApi.cancel() : billingApi.downgrade(planStorageKey(target.plan.id, target.cycle)),
    onSuccess: async (_, target) => {
      setDowngradeTo(null);
      await refresh();
      toast({
        title: 'Change Scheduled',
        description: `You move to ${target.plan.name} on ${formatDate(sub?.periodEnd)}. Until then nothing changes.`,
      });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: readApiError(error, 'Could not schedule the change. Please try again.').message }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change plan</CardTitle>
        <CardDescription>
          Upgrades start at once: you pay only the difference for the rest of your period. Downgrades wait for the end of the period you paid for.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <BillingToggle cycle={cycle} onChange={setCycle} />
        {!overview.gateway && !overview.managedByAdmin && (
          <Alert>
            <AlertTriangleIcon aria-hidden />
            <AlertTitle>Payments are not available yet</AlertTitle>
            <AlertDescription>
              <p>No payment method has been set up for this Formwork. Contact support to upgrade.</p>
            </AlertDescription>
          </Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              cycle={cycle}
              overview={overview}
              busy={paying === planStorageKey(plan.id, cycle)}
              disabled={paying !== null}
              chosen={chosen?.plan === plan.id && chosen.cycle === cycle}
              onUpgrade={() => start(planStorageKey(plan.id, cycle))}
              onDowngrade={() => setDowngradeTo({ plan, cycle })}
            />
          ))}
        </div>
        <p className="text-xs text-muted-foreground">
          Prices in {overview.currency}. An API call is one generated document. Annual plans are billed once a year.
        </p>
      </CardContent>
      <ConfirmDialog
        open={downgradeTo !== null}
        onOpenChange={(open) => !open && setDowngradeTo(null)}
        title={downgradeTo?.plan.id === 'free' ? 'Move to Free?' : `Move to ${downgradeTo?.plan.name} (${cycleWord(downgradeTo?.cycle ?? 'monthly')})?`}
        description={
          downgradeTo?.plan.id === 'free'
            ? `Your paid plan stays until ${formatDate(sub?.periodEnd)}, then your account moves to Free. Formats beyond one become read-only; nothing is deleted.`
            : `Your current plan stays until ${formatDate(sub?.periodEnd)}. From then on you pay the ${downgradeTo?.plan.name} price, with its limits.`
        }
        confirmLabel="Schedule the change"
        pendingLabel="Scheduling..."
        pending={downgrade.isPending}
        onConfirm={() => downgradeTo && downgrade.mutate(downgradeTo)}
      />
    </Card>
  );
}

type TChosenPlan = { plan: TPlanId; cycle: TBillingCycle };

/** `?checkout=premium_yearly` as a plan, or null for anything that is not a plan key. */
function chosenPlanOf(value: string | null): TChosenPlan | null {
  const parsed = ZPlanKey.safeParse(value);
  return parsed.success ? parsePlanKey(parsed.data) : null;
}

/**
 * What the tab says about a plan the address named: how to go on with it, in the words of the
 * button its card shows. Nothing is bought until the user clicks that button and confirms.
 */
function ChosenPlanNotice({
  chosen,
  overview,
  plans,
  onReview,
  busy,
}: {
  chosen: TChosenPlan;
  overview: TBillingOverview;
  plans: TPlanCatalogue;
  onReview: () => void;
  busy: boolean;
}) {
  const { salesEmail } = useContactEmails();
  const plan = plans.find((p) => p.id === chosen.plan);
  if (!plan) return null;
  const action = actionFor(plan, chosen.cycle, overview);
  const named = plan.id === 'free' ? plan.name : `${plan.name} (${cycleWord(chosen.cycle)})`;
  let text: string;
  if (action.kind === 'upgrade') text = `You chose ${named}. Review it below and confirm to pay.`;
  else if (action.kind === 'current') text = `You chose ${named}: that is already your plan.`;
  else if (action.kind === 'sales')
    text = salesEmail
      ? `You chose ${named}. It is arranged with the sales team: use Contact Sales below.`
      : `You chose ${named}. It is arranged by the administrator of this installation: ask them for it.`;
  else if (action.kind === 'downgrade') text = `You chose ${named}. A move down starts when your current period ends: review it below.`;
  else return null;
  return (
    <Alert variant="info" data-testid="chosen-plan-notice">
      <SparklesIcon aria-hidden />
      <AlertTitle>{text}</AlertTitle>
      {action.kind === 'upgrade' && (
        <AlertDescription>
          <p>Nothing is charged until you see the price and confirm it.</p>
          <Button className="mt-2" size="sm" onClick={onReview} disabled={busy}>
            {busy ? <Loader2Icon className="animate-spin" aria-hidden /> : null}
            {busy ? 'Processing...' : `Review ${named}`}
          </Button>
        </AlertDescription>
      )}
    </Alert>
  );
}

/**
 * Settings → Billing: the plan and its period, usage against the limits, the plans to move to,
 * and the invoices. `?checkout=basic_monthly` (the plan chosen before signing up, or any link)
 * only preselects that plan: paying for it always takes the user's click on the plan and on the
 * confirmation that shows the price.
 */
export function BillingTab() {
  const { plans } = usePlans();
  const overview = useBillingOverview();
  const checkout = useCheckout();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const query = new URLSearchParams(search);
  const requested = query.get('checkout');
  const cancelled = query.get('payment') === 'cancelled';
  const [chosen, setChosen] = useState<TChosenPlan | null>(() => chosenPlanOf(requested));
  const [lastRequested, setLastRequested] = useState(requested);
  if (requested !== null && requested !== lastRequested) {
    setLastRequested(requested);
    setChosen(chosenPlanOf(requested));
  }

  useEffect(() => {
    if (!cancelled) return;
    navigate(`${location}?tab=billing`, { replace: true });
    toast({ title: 'Payment Cancelled', description: 'Nothing was charged. Choose a plan whenever you are ready.' });
  }, [cancelled, navigate, location]);

  useEffect(() => {
    if (requested === null) return;
    // The address no longer names the plan, so a reload or Back shows the tab as it is.
    navigate(`${location}?tab=billing`, { replace: true });
  }, [requested, navigate, location]);

  if (overview.isError) return <LoadError error={overview.error} fallback="Could not load your plan. Please reload the page." />;
  if (!overview.data) {
    return (
      <div className="space-y-6" aria-busy="true">
        <Skeleton className="h-64 w-full rounded-xl" />
        <Skeleton className="h-96 w-full rounded-xl" />
      </div>
    );
  }
  const chosenKey = chosen ? planStorageKey(chosen.plan, chosen.cycle) : null;
  return (
    <div className="space-y-6">
      {chosen && chosenKey && (
        <ChosenPlanNotice
          chosen={chosen}
          overview={overview.data}
          plans={plans}
          onReview={() => void checkout.choose(chosenKey)}
          busy={checkout.busy === chosenKey}
        />
      )}
      <CurrentPlanCard overview={overview.data} plans={plans} onPayAgain={(key) => void checkout.choose(key)} paying={checkout.busy !== null} />
      <PlansCard overview={overview.data} plans={plans} start={(key) => void checkout.choose(key)} paying={checkout.busy} chosen={chosen} />
      <InvoicesCard />
      <ConfirmPaymentDialog quote={checkout.quote} paying={checkout.paying} onConfirm={() => void checkout.confirm()} onDismiss={checkout.dismiss} />
    </div>
  );
}
