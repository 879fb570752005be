import { CheckIcon } from 'lucide-react';
import type { TBillingCycle, TPlan } from '../../../contract/plans';
import { ANNUAL_DISCOUNT_PERCENT } from '../../../contract/plan-catalogue';
import { type TCurrency, formatMoney, planPrice } from '../../lib/plans';
import { cn } from '../../lib/utils';
import { Badge } from '../ui/badge';

/*
 * How a plan's price reads, shared by the landing page's pricing and the billing tab, so both
 * always say the same thing from the same catalogue.
 */

export function BillingToggle({ cycle, onChange }: { cycle: TBillingCycle; onChange: (c: TBillingCycle) => void }) {
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

export function PriceLine({ plan, currency, cycle }: { plan: TPlan; currency: TCurrency; cycle: TBillingCycle }) {
  const price = planPrice(plan, currency, cycle);
  if (price.perMonth === null) {
    return (
      <div className="mt-5">
        <p className="text-[34px] leading-none font-semibold tracking-tight">Custom</p>
        <p className="mt-2 text-sm text-muted-foreground">Priced on request, not bought online</p>
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
        {isFree ? 'No credit card required' : price.perYear !== null ? `billed annually (${formatMoney(price.perYear, currency)}/year)` : 'billed monthly'}
      </p>
    </div>
  );
}

export function PlanFeatures({ features, className }: { features: string[]; className?: string }) {
  return (
    <ul className={cn('space-y-3 text-sm', className)}>
      {features.map((f) => (
        <li key={f} className="flex gap-2.5">
          <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <span>{f}</span>
        </li>
      ))}
    </ul>
  );
}
