import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import type { TBillingCycle, TPlan } from '../../../contract/plans';
import { planStorageKey } from '../../../contract/plan-catalogue';
import { BillingToggle, PlanFeatures, PriceLine } from '../../components/pricing/plan-pricing';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { usePlans } from '../../hooks/use-plans';
import { rememberPlanChoice } from '../../lib/plans';
import { useContactEmails } from '../../hooks/use-app-config';
import { SIGN_UP_HREF, mailto } from '../../lib/site';
import { cn } from '../../lib/utils';

export function PricingSection() {
  const { plans, currency } = usePlans();
  const { salesEmail } = useContactEmails();
  const [cycle, setCycle] = useState<TBillingCycle>('monthly');
  const [processing, setProcessing] = useState<string | null>(null);

  const choose = (plan: TPlan) => {
    if (plan.id === 'free') {
      window.location.href = SIGN_UP_HREF;
      return;
    }
    setProcessing(plan.id);
    rememberPlanChoice(planStorageKey(plan.id, cycle), plan.name, cycle);
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
                {plan.popular && <Badge className="absolute -top-3 left-6 px-2.5 py-1 text-[12px] shadow-xs">Popular</Badge>}
                <h3 className="text-lg font-semibold">{plan.name}</h3>
                <PriceLine plan={plan} currency={currency} cycle={cycle} />
                <PlanFeatures features={plan.features} className="mt-6 mb-8 flex-1" />
                {isEnterprise ? (
                  // Sold by the sales team: without a sales address there is no one to write to.
                  salesEmail && (
                    <Button variant="outline" className="w-full" asChild>
                      <a href={mailto(salesEmail, 'Formwork Enterprise plan')}>Contact Sales</a>
                    </Button>
                  )
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
          Prices in {currency}. A document is one PDF generated, in the app or through the API. Annual plans are billed once a year.
        </p>
      </div>
    </section>
  );
}
