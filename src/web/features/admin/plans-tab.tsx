import { zodResolver } from '@hookform/resolvers/zod';
import { InfoIcon, RotateCcwIcon, SaveIcon, StarIcon } from 'lucide-react';
import { Fragment, useEffect, useId, useState } from 'react';
import { Controller, useForm, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { TPlan, TPlanCatalogue } from '../../../contract/plans';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue';
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
import { cn } from '../../lib/utils';
import { Field, SpinnerLabel, Switch } from './admin-ui';
import { useAdminPlans, useSavePlans } from './api';
import {
  annualHint,
  asStored,
  completeCatalogue,
  PRICE_FIELDS,
  storageHint,
  toRow,
  ZPlansForm,
  type TPlansFormInput,
  type TPlanRow,
  type TPlansFormOutput,
  type TRowField,
} from './plans-form';

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
  field: 'contactSales' | 'unlimitedFormats' | 'unlimitedSignatureRequests' | 'apiAccess' | 'popular';
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

type TRowSectionProps = Omit<TRowProps, 'plan' | 'onPopular'> & { row: TPlanRow };

/** A limit that can be switched to unlimited: its input, or a placeholder saying so, with the switch below. */
function UnlimitedOr({
  index,
  field,
  unlimitedField,
  label,
  unlimited,
  register,
  control,
  errors,
}: Omit<TRowSectionProps, 'row'> & {
  field: 'formatLimit' | 'signatureRequestsPerMonth';
  unlimitedField: 'unlimitedFormats' | 'unlimitedSignatureRequests';
  label: string;
  unlimited: boolean;
}) {
  return (
    <div className="grid content-start gap-2">
      {unlimited ? (
        <div className="grid content-start gap-1.5">
          <p className="text-sm leading-none font-medium">{label}</p>
          <p className="flex h-10 items-center rounded-md border border-dashed bg-muted/40 px-3 text-sm text-muted-foreground">Unlimited</p>
        </div>
      ) : (
        <RowInput index={index} field={field} label={label} register={register} errors={errors} />
      )}
      <RowSwitch index={index} field={unlimitedField} label="Unlimited" control={control} />
    </div>
  );
}

/** A plan's prices: none for the free plan or a contact-sales one, else monthly and yearly in each currency. */
function PlanPrices({ index, free, row, register, control, errors }: TRowSectionProps & { free: boolean }) {
  return (
    <div className="grid gap-3" role="group" aria-labelledby={`plan-${index}-prices`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={`plan-${index}-prices`} className="text-sm font-medium">
          Prices
        </p>
        {!free && <RowSwitch index={index} field="contactSales" label="Contact sales (no price)" control={control} />}
      </div>
      {free ? (
        <p className="rounded-md bg-muted/60 px-3 py-2.5 text-[13px] text-muted-foreground">Free forever: $0 and ₹0. The free plan never takes a payment.</p>
      ) : row.contactSales ? (
        <p className="rounded-md bg-muted/60 px-3 py-2.5 text-[13px] text-muted-foreground">
          No price is shown: the pricing card offers Contact Sales, and nobody can buy it at checkout.
        </p>
      ) : (
        <div className="grid grid-cols-2 gap-3">
          {PRICE_FIELDS.map(({ currency, symbol, monthly, annual }) => (
            <Fragment key={currency}>
              <RowInput index={index} field={monthly} label={`${currency} monthly`} prefix={symbol} inputMode="decimal" register={register} errors={errors} />
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
  );
}

/** A plan's limits: what it may hold, send and call, and whether it has API access at all. */
function PlanLimits({ index, row, register, control, errors }: TRowSectionProps) {
  const bound = { index, register, control, errors };
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-3 text-sm font-medium">Limits</legend>
      <div className="grid grid-cols-2 gap-3">
        <UnlimitedOr {...bound} field="formatLimit" unlimitedField="unlimitedFormats" label="Formats" unlimited={row.unlimitedFormats} />
        <RowInput index={index} field="generationsPerMonth" label="Documents a month" register={register} errors={errors} />
        <UnlimitedOr
          {...bound}
          field="signatureRequestsPerMonth"
          unlimitedField="unlimitedSignatureRequests"
          label="Signature requests a month"
          unlimited={row.unlimitedSignatureRequests}
        />
        <RowInput index={index} field="storageMb" label="Image storage" suffix="MB" hint={storageHint(row.storageMb)} register={register} errors={errors} />
        <RowInput
          index={index}
          field="apiRequestsPerMinute"
          label="API requests a minute"
          hint={row.apiAccess ? 'Per API key.' : 'Applies once API access is on.'}
          register={register}
          errors={errors}
        />
        <RowInput
          index={index}
          field="emailsPerHour"
          label="Email recipients an hour"
          hint="Documents sent by email, To and Cc counted; mail merges are spread out to stay within it."
          register={register}
          errors={errors}
        />
      </div>
      <RowSwitch index={index} field="apiAccess" label="API access (keys, webhooks, custom SMTP)" control={control} />
    </fieldset>
  );
}

function PlanCard({ index, plan, register, control, errors, onPopular }: TRowProps) {
  const row = useWatch({ control, name: `plans.${index}` });
  const headingId = useId();
  const nameError = rowError(errors, index, 'name');
  const featuresError = rowError(errors, index, 'features');
  const section = { index, row, register, control, errors };
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
          <PlanPrices {...section} free={plan.id === 'free'} />
        </div>

        <div className="grid content-start gap-4">
          <PlanLimits {...section} />
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
      const catalogue = data.plans.map((plan) =>
        asStored(
          plan,
          stored.find((p) => p.id === plan.id),
        ),
      );
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
            Prices show in the active gateway’s currency: INR with Razorpay, USD with Stripe or PayPal. New checkouts charge the new prices at once; a user’s
            own limit, set in Users, stays theirs.
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
