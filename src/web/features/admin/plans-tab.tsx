import { zodResolver } from '@hookform/resolvers/zod';
import { InfoIcon, RotateCcwIcon, SaveIcon, StarIcon } from 'lucide-react';
import { Fragment, useEffect, useId, useState } from 'react';
import { Controller, useForm, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { ZPlanCatalogueInput } from '../../../contract/admin';
import {
  ANNUAL_DISCOUNT_PERCENT,
  apiRequestsPerMinuteOf,
  DEFAULT_PLAN_CATALOGUE,
  DEFAULT_STORAGE_MB,
  formatMinorUnits,
  storageMbOf,
  toMinorUnits,
  ZPlanId,
  type TCurrency,
  type TPlan,
  type TPlanCatalogue,
} from '../../../contract/plans';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { cn, formatBytes, formatNumber } from '../../lib/utils';
import { Field, SpinnerLabel, Switch } from './admin-ui';
import { useAdminPlans, useSavePlans } from './api';

const AMOUNT = /^\d+(\.\d{1,2})?$/;
const WHOLE = /^\d+$/;
/** People type 1,299 or 10 000; the catalogue stores plain numbers. */
const clean = (text: string) => text.trim().replace(/[,_\s]/g, '');
const MAX_GENERATIONS = 100_000_000;
const MAX_REQUESTS_PER_MINUTE = 1_000_000;

/**
 * One plan as the form holds it: numbers as typed (text), "contact sales" and "unlimited" as
 * switches. Each row is checked field by field with readable messages, turned into a plan, and
 * the whole catalogue then passes the contract's own check (the one the server runs), so the
 * rules on prices across plans and currencies are the same on both sides.
 */
const ZPlanRow = z
  .object({
    id: ZPlanId,
    name: z.string().trim().min(1, 'Give the plan a name.').max(40, 'Keep the name under 40 characters.'),
    contactSales: z.boolean(),
    usdMonthly: z.string(),
    usdAnnualPerMonth: z.string(),
    inrMonthly: z.string(),
    inrAnnualPerMonth: z.string(),
    unlimitedFormats: z.boolean(),
    formatLimit: z.string(),
    generationsPerMonth: z.string(),
    storageMb: z.string(),
    apiAccess: z.boolean(),
    apiRequestsPerMinute: z.string(),
    features: z.string(),
    popular: z.boolean(),
  })
  .superRefine((row, ctx) => {
    const problem = (field: keyof typeof row, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
    if (row.id !== 'free' && !row.contactSales) {
      for (const field of ['usdMonthly', 'inrMonthly'] as const) {
        const value = clean(row[field]);
        if (value === '') problem(field, 'Enter the monthly price, or turn on Contact sales.');
        else if (!AMOUNT.test(value)) problem(field, 'Enter an amount such as 20 or 19.99.');
      }
      for (const field of ['usdAnnualPerMonth', 'inrAnnualPerMonth'] as const) {
        const value = clean(row[field]);
        if (value !== '' && !AMOUNT.test(value)) problem(field, 'Enter an amount such as 15 or 14.99, or leave it blank.');
      }
    }
    if (!row.unlimitedFormats) {
      const value = clean(row.formatLimit);
      if (!WHOLE.test(value) || Number(value) < 1) problem('formatLimit', 'Enter a whole number, 1 or more, or turn on Unlimited.');
    }
    const generations = clean(row.generationsPerMonth);
    if (!WHOLE.test(generations) || Number(generations) > MAX_GENERATIONS) {
      problem('generationsPerMonth', `Enter a whole number from 0 to ${formatNumber(MAX_GENERATIONS)}.`);
    }
    const storage = clean(row.storageMb);
    if (!WHOLE.test(storage) || Number(storage) < 1) problem('storageMb', 'Enter whole megabytes, 1 or more.');
    const perMinute = clean(row.apiRequestsPerMinute);
    if (!WHOLE.test(perMinute) || Number(perMinute) < 1 || Number(perMinute) > MAX_REQUESTS_PER_MINUTE) {
      problem('apiRequestsPerMinute', `Enter a whole number from 1 to ${formatNumber(MAX_REQUESTS_PER_MINUTE)}.`);
    }
    if (row.features.split('\n').some((line) => line.trim().length > 120)) {
      problem('features', 'Keep each feature under 120 characters.');
    }
  })
  .transform((row): TPlan => {
    const price = (text: string) => (clean(text) === '' ? null : Number(clean(text)));
    const free = row.id === 'free';
    const priced = !free && !row.contactSales;
    return {
      id: row.id,
      name: row.name,
      formatLimit: row.unlimitedFormats ? null : Number(clean(row.formatLimit)),
      generationsPerMonth: Number(clean(row.generationsPerMonth)),
      apiAccess: row.apiAccess,
      usdMonthly: free ? 0 : priced ? price(row.usdMonthly) : null,
      usdAnnualPerMonth: free ? 0 : priced ? price(row.usdAnnualPerMonth) : null,
      inrMonthly: free ? 0 : priced ? price(row.inrMonthly) : null,
      inrAnnualPerMonth: free ? null : priced ? price(row.inrAnnualPerMonth) : null,
      features: row.features
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      popular: row.popular,
      storageMb: Number(clean(row.storageMb)),
      apiRequestsPerMinute: Number(clean(row.apiRequestsPerMinute)),
    };
  });

const ZPlansForm = z.object({ plans: z.array(ZPlanRow).pipe(ZPlanCatalogueInput) });
type TPlansFormInput = z.input<typeof ZPlansForm>;
type TPlansFormOutput = z.output<typeof ZPlansForm>;
type TPlanRow = z.input<typeof ZPlanRow>;
type TRowField = Exclude<keyof TPlanRow, 'id'>;

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

function toRow(plan: TPlan): TPlanRow {
  return {
    id: plan.id,
    name: plan.name,
    contactSales: plan.id !== 'free' && plan.usdMonthly === null,
    usdMonthly: text(plan.usdMonthly),
    usdAnnualPerMonth: text(plan.usdAnnualPerMonth),
    inrMonthly: text(plan.inrMonthly),
    inrAnnualPerMonth: text(plan.inrAnnualPerMonth),
    unlimitedFormats: plan.formatLimit === null,
    formatLimit: text(plan.formatLimit ?? 1),
    generationsPerMonth: formatNumber(plan.generationsPerMonth),
    storageMb: formatNumber(storageMbOf(plan)),
    apiAccess: plan.apiAccess,
    apiRequestsPerMinute: formatNumber(apiRequestsPerMinuteOf(plan)),
    features: plan.features.join('\n'),
    popular: plan.popular,
  };
}

/**
 * The four plans in their fixed order: a stored catalogue that lost one (edited by hand long ago)
 * gets it back from the built-in catalogue, so the form can always be saved.
 */
function completeCatalogue(stored: TPlanCatalogue): { plans: TPlanCatalogue; restored: string[] } {
  const restored: string[] = [];
  const plans = DEFAULT_PLAN_CATALOGUE.map((fallback) => {
    const found = stored.find((p) => p.id === fallback.id);
    if (!found) restored.push(fallback.name);
    return found ?? fallback;
  });
  return { plans, restored };
}

/**
 * Leaves out what the stored catalogue left to the defaults and the form did not change, so saving
 * an untouched plan does not record it as changed.
 */
function asStored(plan: TPlan, before: TPlan | undefined): TPlan {
  const next = { ...plan };
  if (before?.storageMb === undefined && next.storageMb === DEFAULT_STORAGE_MB[plan.id]) delete next.storageMb;
  if (before?.apiRequestsPerMinute === undefined && next.apiRequestsPerMinute === apiRequestsPerMinuteOf({})) delete next.apiRequestsPerMinute;
  if (before?.inrAnnualPerMonth === undefined && next.inrAnnualPerMonth === null) delete next.inrAnnualPerMonth;
  return next;
}

type TRowProps = {
  index: number;
  plan: TPlan;
  register: UseFormRegister<TPlansFormInput>;
  control: Control<TPlansFormInput, unknown, TPlansFormOutput>;
  errors: FieldErrors<TPlansFormInput>;
  onPopular: (index: number) => void;
};

function rowError(errors: FieldErrors<TPlansFormInput>, index: number, field: TRowField): string | undefined {
  return errors.plans?.[index]?.[field]?.message;
}

/** A text input for one plan's field, its hint or error announced with it. */
function RowInput({
  index,
  field,
  label,
  hint,
  prefix,
  suffix,
  register,
  errors,
  inputMode = 'numeric',
}: {
  index: number;
  field: TRowField;
  label: string;
  hint?: string | undefined;
  prefix?: string;
  suffix?: string;
  register: UseFormRegister<TPlansFormInput>;
  errors: FieldErrors<TPlansFormInput>;
  inputMode?: 'numeric' | 'decimal' | 'text';
}) {
  const id = `plan-${index}-${field}`;
  const error = rowError(errors, index, field);
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <div className="relative">
        {prefix && (
          <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted-foreground" aria-hidden>
            {prefix}
          </span>
        )}
        <Input
          id={id}
          inputMode={inputMode}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          className={cn('tabular-nums', prefix && 'pl-7', suffix && 'pr-12')}
          {...register(`plans.${index}.${field}` as const)}
        />
        {suffix && (
          <span className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-xs text-muted-foreground" aria-hidden>
            {suffix}
          </span>
        )}
      </div>
    </Field>
  );
}

/** A switch with its label beside it, bound to one of a plan's yes/no fields. */
function RowSwitch({
  index,
  field,
  label,
  control,
  onChange,
}: {
  index: number;
  field: 'contactSales' | 'unlimitedFormats' | 'apiAccess' | 'popular';
  label: string;
  control: Control<TPlansFormInput, unknown, TPlansFormOutput>;
  onChange?: (checked: boolean) => void;
}) {
  const id = `plan-${index}-${field}`;
  return (
    <div className="flex items-center gap-2.5">
      <Controller
        control={control}
        name={`plans.${index}.${field}`}
        render={({ field: f }) => (
          <Switch
            id={id}
            checked={f.value}
            onCheckedChange={(checked) => {
              f.onChange(checked);
              onChange?.(checked);
            }}
          />
        )}
      />
      <Label htmlFor={id} className="text-[13px] font-normal text-foreground">
        {label}
      </Label>
    </div>
  );
}

function storageHint(mbText: string): string | undefined {
  const mb = clean(mbText);
  return WHOLE.test(mb) && Number(mb) >= 1024 ? `${formatBytes(Number(mb) * 1024 * 1024)} of images.` : undefined;
}

const PRICE_FIELDS = [
  { currency: 'USD', symbol: '$', monthly: 'usdMonthly', annual: 'usdAnnualPerMonth' },
  { currency: 'INR', symbol: '₹', monthly: 'inrMonthly', annual: 'inrAnnualPerMonth' },
] as const;

/** "Blank: 25% off" or "$180 a year", from what is typed now. */
function annualHint(monthlyText: string, annualText: string, currency: TCurrency): string {
  const monthly = clean(monthlyText);
  const annual = clean(annualText);
  if (annual !== '' && AMOUNT.test(annual)) return `Billed ${formatMinorUnits(toMinorUnits(Number(annual) * 12), currency)} a year.`;
  if (monthly !== '' && AMOUNT.test(monthly)) {
    const derived = Math.round(Number(monthly) * (1 - ANNUAL_DISCOUNT_PERCENT / 100));
    return `Blank: ${formatMinorUnits(toMinorUnits(derived), currency)} (${ANNUAL_DISCOUNT_PERCENT}% off).`;
  }
  return `Blank: ${ANNUAL_DISCOUNT_PERCENT}% off the monthly price.`;
}

function PlanCard({ index, plan, register, control, errors, onPopular }: TRowProps) {
  const row = useWatch({ control, name: `plans.${index}` });
  const headingId = useId();
  const free = plan.id === 'free';
  const nameError = rowError(errors, index, 'name');
  const featuresError = rowError(errors, index, 'features');
  return (
    <Card className="overflow-hidden" data-testid="plan-card" aria-labelledby={headingId} role="group">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b bg-muted/30 px-4 py-3 sm:px-5">
        <div className="flex min-w-0 items-center gap-2">
          <h3 id={headingId} className="truncate text-base font-semibold tracking-tight">
            {row.name.trim() || plan.name}
          </h3>
          <Badge variant="outline" className="font-mono text-[11px]">
            {plan.id}
          </Badge>
          {row.popular && (
            <Badge variant="soft">
              <StarIcon aria-hidden /> Popular
            </Badge>
          )}
        </div>
        <RowSwitch index={index} field="popular" label="Mark as Popular" control={control} onChange={(on) => on && onPopular(index)} />
      </div>

      <div className="grid gap-6 p-4 sm:p-5 lg:grid-cols-2">
        <div className="grid content-start gap-4">
          <Field id={`plan-${index}-name`} label="Name" error={nameError}>
            <Input
              id={`plan-${index}-name`}
              autoComplete="off"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `plan-${index}-name-error` : undefined}
              {...register(`plans.${index}.name`)}
            />
          </Field>

          <div className="grid gap-3" role="group" aria-labelledby={`plan-${index}-prices`}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p id={`plan-${index}-prices`} className="text-sm font-medium">
                Prices
              </p>
              {!free && <RowSwitch index={index} field="contactSales" label="Contact sales (no price)" control={control} />}
            </div>
            {free ? (
              <p className="rounded-md bg-muted/60 px-3 py-2.5 text-[13px] text-muted-foreground">
                Free forever: $0 and ₹0. The free plan never takes a payment.
              </p>
            ) : row.contactSales ? (
              <p className="rounded-md bg-muted/60 px-3 py-2.5 text-[13px] text-muted-foreground">
                No price is shown: the pricing card offers Contact Sales, and nobody can buy it at checkout.
              </p>
            ) : (
              <div className="grid grid-cols-2 gap-3">
                {PRICE_FIELDS.map(({ currency, symbol, monthly, annual }) => (
                  <Fragment key={currency}>
                    <RowInput
                      index={index}
                      field={monthly}
                      label={`${currency} monthly`}
                      prefix={symbol}
                      inputMode="decimal"
                      register={register}
                      errors={errors}
                    />
                    <RowInput
                      index={index}
                      field={annual}
                      label={`${currency} a month, yearly`}
                      prefix={symbol}
                      inputMode="decimal"
                      hint={annualHint(row[monthly], row[annual], currency)}
                      register={register}
                      errors={errors}
                    />
                  </Fragment>
                ))}
              </div>
            )}
            {free && rowError(errors, index, 'usdMonthly') && (
              <p className="text-[12.5px] text-destructive" role="alert">
                {rowError(errors, index, 'usdMonthly')}
              </p>
            )}
          </div>
        </div>

        <div className="grid content-start gap-4">
          <fieldset className="grid gap-3">
            <legend className="mb-3 text-sm font-medium">Limits</legend>
            <div className="grid grid-cols-2 gap-3">
              <div className="grid content-start gap-2">
                {row.unlimitedFormats ? (
                  <div className="grid content-start gap-1.5">
                    <p className="text-sm leading-none font-medium">Formats</p>
                    <p className="flex h-10 items-center rounded-md border border-dashed bg-muted/40 px-3 text-sm text-muted-foreground">
                      Unlimited
                    </p>
                  </div>
                ) : (
                  <RowInput index={index} field="formatLimit" label="Formats" register={register} errors={errors} />
                )}
                <RowSwitch index={index} field="unlimitedFormats" label="Unlimited" control={control} />
              </div>
              <RowInput index={index} field="generationsPerMonth" label="Generations a month" register={register} errors={errors} />
              <RowInput
                index={index}
                field="storageMb"
                label="Image storage"
                suffix="MB"
                hint={storageHint(row.storageMb)}
                register={register}
                errors={errors}
              />
              <RowInput
                index={index}
                field="apiRequestsPerMinute"
                label="API requests a minute"
                hint={row.apiAccess ? 'Per API key.' : 'Applies once API access is on.'}
                register={register}
                errors={errors}
              />
            </div>
            <RowSwitch index={index} field="apiAccess" label="API access (keys, webhooks, custom SMTP)" control={control} />
          </fieldset>
          <Field id={`plan-${index}-features`} label="Features, one per line" error={featuresError} hint="Listed on the pricing card, in this order.">
            <Textarea
              id={`plan-${index}-features`}
              rows={4}
              className="min-h-24 text-[13px] leading-relaxed"
              aria-invalid={featuresError ? true : undefined}
              aria-describedby={`plan-${index}-features-${featuresError ? 'error' : 'hint'}`}
              {...register(`plans.${index}.features`)}
            />
          </Field>
        </div>
      </div>
    </Card>
  );
}

function PlansForm({ stored }: { stored: TPlanCatalogue }) {
  const save = useSavePlans();
  const [{ plans: initial, restored }] = useState(() => completeCatalogue(stored));
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TPlansFormInput, unknown, TPlansFormOutput>({
    resolver: zodResolver(ZPlansForm),
    defaultValues: { plans: initial.map(toRow) },
  });
  const { register, control, handleSubmit, setError, setValue, reset, getValues, formState } = form;
  const errors = formState.errors;
  const rootError = errors.plans?.message ?? errors.plans?.root?.message;

  // A save elsewhere (another tab of this browser) refreshes the stored catalogue: follow it unless
  // this form holds edits.
  const { isDirty } = formState;
  useEffect(() => {
    if (!isDirty) reset({ plans: completeCatalogue(stored).plans.map(toRow) });
  }, [stored, isDirty, reset]);

  function onPopular(index: number) {
    getValues('plans').forEach((row, i) => {
      if (i !== index && row.popular) setValue(`plans.${i}.popular`, false, { shouldDirty: true });
    });
  }

  const onSubmit = handleSubmit(
    (data) => {
      setFormError(null);
      const catalogue = data.plans.map((plan) => asStored(plan, stored.find((p) => p.id === plan.id)));
      save.mutate(catalogue, {
        onSuccess: (saved) => {
          reset({ plans: completeCatalogue(saved).plans.map(toRow) });
          toast({ title: 'Plans saved', description: 'The pricing page, billing and checkout use the new catalogue now.' });
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          const read = readApiError(err, 'Please try again.');
          let placed = false;
          for (const [path, message] of Object.entries(read.fields)) {
            const [index, field] = path.split('.');
            if (index !== undefined && /^\d+$/.test(index) && field && field in toRow(DEFAULT_PLAN_CATALOGUE[0]!)) {
              setError(`plans.${Number(index)}.${field as TRowField}`, { type: 'server', message });
              placed = true;
            }
          }
          if (!placed) setFormError(read.message);
          toast({ variant: 'destructive', title: 'Failed to save plans', description: read.message });
        },
      });
    },
    () => setFormError('Some fields need a look: see the messages under them.'),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Plan catalogue" className="space-y-4">
      <Alert variant="info">
        <InfoIcon aria-hidden />
        <AlertTitle>One catalogue for the pricing page, billing and checkout</AlertTitle>
        <AlertDescription>
          <p>
            Prices show in the active gateway’s currency: INR with Razorpay, USD with Stripe or PayPal. New checkouts charge the
            new prices at once; a user’s own limit, set in Users, stays theirs.
          </p>
        </AlertDescription>
      </Alert>
      {restored.length > 0 && (
        <Alert>
          <InfoIcon aria-hidden />
          <AlertTitle>Restored from the defaults: {restored.join(', ')}</AlertTitle>
          <AlertDescription>
            <p>The stored catalogue was missing {restored.length === 1 ? 'this plan' : 'these plans'}. Saving stores all four.</p>
          </AlertDescription>
        </Alert>
      )}
      {initial.map((plan, index) => (
        <PlanCard key={plan.id} index={index} plan={plan} register={register} control={control} errors={errors} onPopular={onPopular} />
      ))}
      <div className="sticky bottom-0 z-10 -mx-4 border-t bg-background/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border sm:px-5 sm:shadow-card">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-h-5 text-[13px]" aria-live="polite">
            {formError || rootError ? (
              <p className="text-destructive" role="alert">
                {rootError ?? formError}
              </p>
            ) : formState.isDirty ? (
              <p className="text-foreground">You have unsaved changes.</p>
            ) : (
              <p className="text-muted-foreground">All changes saved.</p>
            )}
          </div>
          <div className="flex gap-2">
            <Button
              variant="outline"
              disabled={!formState.isDirty || save.isPending}
              onClick={() => {
                setFormError(null);
                reset();
              }}
              className="flex-1 sm:flex-none"
            >
              <RotateCcwIcon aria-hidden /> Discard changes
            </Button>
            <Button type="submit" disabled={save.isPending} className="flex-1 sm:flex-none">
              {!save.isPending && <SaveIcon aria-hidden />}
              <SpinnerLabel pending={save.isPending} idle="Save plans" busy="Saving..." />
            </Button>
          </div>
        </div>
      </div>
    </form>
  );
}

/** The plan catalogue, edited plan by plan and saved as a whole. */
export function PlansTab() {
  const plans = useAdminPlans();
  if (plans.isLoading) {
    return (
      <div className="space-y-4" aria-hidden>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-72" />
        ))}
      </div>
    );
  }
  if (plans.error || !plans.data) return <LoadError error={plans.error} fallback="Could not load the plan catalogue." />;
  return <PlansForm stored={plans.data} />;
}
