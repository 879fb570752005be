import { CheckIcon, Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { ANNUAL_DISCOUNT_PERCENT, planStorageKey, type TBillingCycle, type TPlan } from '../../../contract/plans';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { usePlans } from '../../hooks/use-plans';
import { type TCurrency, formatMoney, planPrice } from '../../lib/plans';
import { SALES_EMAIL, SIGN_UP_HREF, mailto } from '../../lib/site';
import { cn } from '../../lib/utils';

export const SELECTED_PLAN_KEYS = {
  plan: 'selectedPlan',
  name: 'selectedPlanName',
  cycle: 'selectedBillingCycle',
} as const;

function BillingToggle({ cycle, onChange }: { cycle: TBillingCycle; onChange: (c: TBillingCycle) => void }) {
  const options: { value: TBillingCycle; label: string }[] = [
    { value: 'monthly', label: 'Monthly' },
    { value: 'yearly', label: 'Annually' },
  ];
  return (
    <div className="flex flex-wrap items-center justify-center gap-3">
      <div role="radiogroup" aria-label="Billing cycle" className="inline-flex rounded-full border bg-background p-1 shadow-xs">
        {options.map((o) => (
          <button
            key={o.value}
            type="button"
            role="radio"
            aria-checked={cycle === o.value}
            tabIndex={cycle === o.value ? 0 : -1}
            onClick={() => onChange(o.value)}
            onKeyDown={(e) => {
              if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
                e.preventDefault();
                const nextValue = cycle === 'monthly' ? 'yearly' : 'monthly';
                onChange(nextValue);
                const group = e.currentTarget.parentElement;
                requestAnimationFrame(() => group?.querySelector<HTMLButtonElement>('[aria-checked="true"]')?.focus());
              }
            }}
            className={cn(
              'h-8 cursor-pointer rounded-full px-4 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
              cycle === o.value ? 'bg-foreground text-background shadow-xs' : 'text-muted-foreground hover:text-foreground',
            )}
          >
            {o.label}
          </button>
        ))}
      </div>
      <Badge variant="success" className="px-2.5 py-1 text-[12px]">
        {ANNUAL_DISCOUNT_PERCENT}% off
      </Badge>
    </div>
  );
}

function PriceLine({ plan, currency, cycle }: { plan: TPlan; currency: TCurrency; cycle: TBillingCycle }) {
  const price = planPrice(plan, currency, cycle);
  if (price.perMonth === null) {
    return (
      <div className="mt-5">
        <p className="text-[34px] leading-none font-semibold tracking-tight">Custom</p>
        <p className="mt-2 text-sm text-muted-foreground">Contact sales for volume pricing</p>
      </div>
    );
  }
  const isFree = price.perMonth === 0;
  return (
    <div className="mt-5">
      <p className="flex items-baseline gap-1">
        <span className="text-[40px] leading-none font-semibold tracking-tight tabular-nums" data-testid={`price-${plan.id}`}>
          {formatMoney(price.perMonth, currency)}
        </span>
        <span className="text-sm text-muted-foreground">{isFree ? 'forever' : '/month'}</span>
      </p>
      <p className="mt-2 min-h-5 text-sm text-muted-foreground">
        {isFree
          ? 'No credit card required'
          : price.perYear !== null
            ? `billed annually (${formatMoney(price.perYear, currency)}/year)`
            : 'billed monthly'}
      </p>
    </div>
  );
}

export function PricingSection() {
  const { plans, currency } = usePlans();
  const [cycle, setCycle] = useState<TBillingCycle>('monthly');
  const [processing, setProcessing] = useState<string | null>(null);

  const choose = (plan: TPlan) => {
    if (plan.id === 'free') {
      window.location.href = SIGN_UP_HREF;
      return;
    }
    setProcessing(plan.id);
    try {
      localStorage.setItem(SELECTED_PLAN_KEYS.plan, planStorageKey(plan.id, cycle));
      localStorage.setItem(SELECTED_PLAN_KEYS.name, plan.name);
      localStorage.setItem(SELECTED_PLAN_KEYS.cycle, cycle);
    } catch {
      // storage can be unavailable (private mode); sign-in still proceeds
    }
    // A visitor choosing a paid plan is new here: create the account, then the checkout follows.
    window.location.href = SIGN_UP_HREF;
  };

  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-16 py-20 outline-none sm:py-28">
      <div className="container-page">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold text-primary">Pricing</p>
          <h2 id="pricing-title" className="mt-2 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            Simple plans that grow with your paperwork
          </h2>
          <p className="mt-4 text-muted-foreground">Start free. Upgrade when your team needs more documents, templates and support.</p>
        </div>
        <div className="mt-10">
          <BillingToggle cycle={cycle} onChange={setCycle} />
        </div>
        <div className="mt-10 grid gap-5 md:grid-cols-2 xl:grid-cols-4">
          {plans.map((plan) => {
            const isEnterprise = plan.usdMonthly === null && plan.inrMonthly === null;
            const busy = processing === plan.id;
            return (
              <div
                key={plan.id}
                data-testid={`plan-${plan.id}`}
                className={cn(
                  'relative flex flex-col rounded-2xl border bg-card p-6 shadow-card',
                  plan.popular && 'border-primary/60 shadow-elevated ring-1 ring-primary/40',
                )}
              >
                {plan.popular && (
                  <Badge className="absolute -top-3 left-6 px-2.5 py-1 text-[12px] shadow-xs">Popular</Badge>
                )}
                <h3 className="text-lg font-semibold">{plan.name}</h3>
                <PriceLine plan={plan} currency={currency} cycle={cycle} />
                <ul className="mt-6 mb-8 flex-1 space-y-3 text-sm">
                  {plan.features.map((f) => (
                    <li key={f} className="flex gap-2.5">
                      <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                      <span>{f}</span>
                    </li>
                  ))}
                </ul>
                {isEnterprise ? (
                  <Button variant="outline" className="w-full" asChild>
                    <a href={mailto(SALES_EMAIL, 'Formwork Enterprise plan')}>Contact Sales</a>
                  </Button>
                ) : (
                  <Button
                    variant={plan.popular ? 'default' : 'outline'}
                    className="w-full"
                    onClick={() => choose(plan)}
                    disabled={processing !== null}
                    aria-live="polite"
                  >
                    {busy ? (
                      <>
                        <Loader2Icon className="animate-spin" aria-hidden /> Processing...
                      </>
                    ) : plan.id === 'free' ? (
                      'Get Started Free'
                    ) : (
                      `Choose ${plan.name}`
                    )}
                  </Button>
                )}
              </div>
            );
          })}
        </div>
        <p className="mt-8 text-center text-xs text-muted-foreground">
          Prices in {currency}. An API call is one generated document. Annual plans are billed once a year.
        </p>
      </div>
    </section>
  );
}
