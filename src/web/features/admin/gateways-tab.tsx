import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2Icon, CircleDashedIcon, CopyIcon, CreditCardIcon, InfoIcon, KeyRoundIcon, PencilIcon, PlusIcon, WebhookIcon } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm, useWatch, type FieldErrors, type Path, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import {
  GATEWAY_DEFAULT_ADDRESSES,
  GATEWAY_NAMES,
  GATEWAY_WEBHOOK_EVENTS,
  gatewayWebhookUrl,
  ZGatewayConfiguration,
  ZGatewayName,
  type TGatewayName,
  type TPaymentGateway,
} from '../../../contract/admin';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { useAppConfig } from '../../hooks/use-app-config';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { siteOrigin } from '../../lib/site';
import { cn } from '../../lib/utils';
import { Field, FormDialogFooter, formatDay, NativeSelect, Switch } from './admin-ui';
import { useCreateGateway, usePaymentGateways, useUpdateGateway } from './api';
import { GATEWAY_LABELS, gatewayCurrency } from './labels';

const GATEWAY_TINTS: Record<TGatewayName, string> = {
  razorpay: 'bg-[oklch(0.95_0.04_255)] text-[oklch(0.45_0.16_255)]',
  stripe: 'bg-[oklch(0.95_0.04_285)] text-[oklch(0.48_0.2_285)]',
  paypal: 'bg-[oklch(0.95_0.04_230)] text-[oklch(0.42_0.13_240)]',
};

const KEY_ID_HINTS: Record<TGatewayName, string> = {
  razorpay: 'Starts with rzp_live_ or rzp_test_.',
  stripe: 'Your publishable key, pk_live_… or pk_test_….',
  paypal: 'Your REST app client ID.',
};

function GatewayMark({ name }: { name: TGatewayName }) {
  return (
    <span
      className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg text-sm font-bold', GATEWAY_TINTS[name])}
      aria-hidden
    >
      {GATEWAY_LABELS[name].slice(0, 2)}
    </span>
  );
}

function SecretState({ set, label }: { set: boolean; label: string }) {
  return set ? (
    <span className="inline-flex items-center gap-1.5 text-[13px] text-foreground">
      <CheckCircle2Icon className="size-3.5 text-success" aria-hidden /> {label} set
    </span>
  ) : (
    <span className="inline-flex items-center gap-1.5 text-[13px] text-muted-foreground">
      <CircleDashedIcon className="size-3.5" aria-hidden /> {label} not set
    </span>
  );
}

const DEFAULT_ADDRESSES: Record<TGatewayName, { apiBaseUrl: string; checkoutScriptUrl?: string }> = GATEWAY_DEFAULT_ADDRESSES;

/** The address to register at the provider: the server's public address, whatever this browser uses. */
function useWebhookAddress(name: TGatewayName): { base: string; address: string } {
  const config = useAppConfig();
  const base = (config.data?.publicUrl ?? siteOrigin()).replace(/\/+$/, '');
  return { base, address: gatewayWebhookUrl(base, name) };
}

const configText = (g: TPaymentGateway, key: 'apiBaseUrl' | 'checkoutScriptUrl' | 'webhookId'): string => {
  const value = g.configuration[key];
  return typeof value === 'string' ? value : '';
};

/** The address to register at the provider, with a copy button, and the events to send to it. */
function WebhookAddress({ name, idPrefix }: { name: TGatewayName; idPrefix: string }) {
  const { base, address } = useWebhookAddress(name);
  const id = `${idPrefix}-webhook-address`;
  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      toast({ title: 'Webhook address copied', description: `Paste it into ${GATEWAY_LABELS[name]}’s webhook settings.` });
    } catch {
      toast({ variant: 'destructive', title: 'Could not copy', description: 'Select the address and copy it yourself.' });
    }
  }
  return (
    <div className="grid gap-1.5" role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className="flex items-center gap-1.5 text-[13px] text-muted-foreground">
        <WebhookIcon className="size-3.5" aria-hidden /> Webhook address to register at {GATEWAY_LABELS[name]}
      </p>
      <div className="flex items-start gap-2">
        {/* Lines break between the parts of the address, not inside the gateway's name. */}
        <code id={id} className="min-w-0 flex-1 rounded-md border bg-muted/50 px-2.5 py-2 font-mono text-[12px] leading-snug break-words text-foreground">
          {base}
          <wbr />
          /api/billing/webhooks/
          <wbr />
          {name}
        </code>
        <Button type="button" variant="outline" size="sm" className="h-9" onClick={() => void copy()} aria-label={`Copy the ${GATEWAY_LABELS[name]} webhook address`}>
          <CopyIcon aria-hidden /> Copy
        </Button>
      </div>
      <p className="text-[12px] leading-relaxed text-muted-foreground">
        Events: {GATEWAY_WEBHOOK_EVENTS[name].map((e, i) => (
          <span key={e}>
            {i > 0 && ', '}
            <span className="font-mono text-[11.5px]">{e}</span>
          </span>
        ))}
        .
      </p>
    </div>
  );
}

/** One address a gateway is reached at: its own setting, or the provider's default. */
function AddressLine({ label, value, fallback }: { label: string; value: string; fallback: string }) {
  return (
    <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5">
      <dt className="shrink-0 text-[13px] text-muted-foreground">{label}</dt>
      <dd className="min-w-0 truncate font-mono text-[12px]" title={value || fallback}>
        {value || fallback}
        {value ? (
          <Badge variant="soft" className="ml-1.5 align-middle font-sans">
            custom
          </Badge>
        ) : (
          <span className="ml-1.5 font-sans text-[12px] text-muted-foreground">(default)</span>
        )}
      </dd>
    </div>
  );
}

export function GatewaysTab() {
  const gateways = usePaymentGateways(true);
  const updateGateway = useUpdateGateway();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TPaymentGateway | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const list = gateways.data ?? [];
  const active = list.find((g) => g.isActive);

  function toggle(g: TPaymentGateway, isActive: boolean) {
    setPendingId(g.id);
    updateGateway.mutate(
      { id: g.id, update: { isActive } },
      {
        onSuccess: (updated) => {
          toast({
            title: 'Payment gateway updated successfully',
            description: updated.isActive
              ? `${GATEWAY_LABELS[updated.gatewayName]} is now the active gateway. Prices show in ${gatewayCurrency(updated.gatewayName)}.`
              : `${GATEWAY_LABELS[updated.gatewayName]} is now inactive.`,
          });
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          toast({ variant: 'destructive', title: 'Failed to update payment gateway', description: readApiError(err).message });
        },
        onSettled: () => setPendingId(null),
      },
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <Alert variant="info" className="sm:max-w-2xl">
          <InfoIcon aria-hidden />
          <AlertTitle>
            {active
              ? `Prices show in ${gatewayCurrency(active.gatewayName)}: ${GATEWAY_LABELS[active.gatewayName]} is active`
              : 'No active gateway: prices show in USD'}
          </AlertTitle>
          <AlertDescription>
            <p>
              Only one gateway takes payments at a time, and it sets the price currency: INR for Razorpay, USD for Stripe and
              PayPal. Turning a gateway on turns the others off. Register each gateway’s webhook address at the provider, so
              renewals, failures and refunds reach Formwork.
            </p>
          </AlertDescription>
        </Alert>
        {list.length > 0 && (
          <Button onClick={() => setCreating(true)} className="shrink-0">
            <PlusIcon aria-hidden /> Add gateway
          </Button>
        )}
      </div>

      {gateways.isLoading ? (
        <div className="grid gap-3 md:grid-cols-2" aria-hidden>
          {[0, 1].map((i) => (
            <Skeleton key={i} className="h-40" />
          ))}
        </div>
      ) : gateways.error ? (
        <LoadError error={gateways.error} fallback="Could not load payment gateways." />
      ) : list.length === 0 ? (
        <EmptyStateCard
          icon={CreditCardIcon}
          title="No payment gateways"
          description="Add Razorpay, Stripe or PayPal with your API keys so customers can pay for plans."
          action={
            <Button onClick={() => setCreating(true)}>
              <PlusIcon aria-hidden /> Add gateway
            </Button>
          }
          className="py-14"
        />
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label="Payment gateways">
          {list.map((g) => {
            const switchId = `gateway-active-${g.id}`;
            return (
              <li key={g.id} data-testid="gateway-card">
                <Card className={cn('h-full p-5 transition-shadow', g.isActive && 'ring-2 ring-primary/25')}>
                  <div className="flex items-start gap-3">
                    <GatewayMark name={g.gatewayName} />
                    <div className="min-w-0 flex-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <h3 className="text-base font-semibold tracking-tight">{GATEWAY_LABELS[g.gatewayName]}</h3>
                        {g.isActive ? (
                          <Badge variant="success">Active</Badge>
                        ) : (
                          <Badge variant="secondary">Inactive</Badge>
                        )}
                      </div>
                      <p className="mt-0.5 text-xs text-muted-foreground">
                        Charges in {gatewayCurrency(g.gatewayName)} · added {formatDay(g.createdAt)}
                      </p>
                    </div>
                    <div className="flex items-center gap-2">
                      <Label htmlFor={switchId} className="sr-only">
                        {`${GATEWAY_LABELS[g.gatewayName]} active`}
                      </Label>
                      <Switch
                        id={switchId}
                        checked={g.isActive}
                        disabled={pendingId === g.id}
                        onCheckedChange={(checked) => toggle(g, checked)}
                      />
                    </div>
                  </div>
                  <dl className="mt-4 grid gap-2.5 border-t pt-4">
                    <div className="flex min-w-0 items-center gap-2">
                      <dt className="flex shrink-0 items-center gap-1.5 text-[13px] text-muted-foreground">
                        <KeyRoundIcon className="size-3.5" aria-hidden /> Key ID
                      </dt>
                      <dd className="min-w-0 truncate rounded bg-muted px-1.5 py-0.5 font-mono text-[12.5px]" title={g.keyId}>
                        {g.keyId}
                      </dd>
                    </div>
                    <div className="flex flex-wrap items-center gap-x-5 gap-y-1.5">
                      <dt className="sr-only">Secrets</dt>
                      <dd>
                        <SecretState set={g.hasKeySecret} label="Key secret" />
                      </dd>
                      <dd>
                        <SecretState set={g.hasWebhookSecret} label="Webhook secret" />
                      </dd>
                    </div>
                    <AddressLine label="API" value={configText(g, 'apiBaseUrl')} fallback={DEFAULT_ADDRESSES[g.gatewayName].apiBaseUrl} />
                    {g.gatewayName === 'razorpay' && (
                      <AddressLine
                        label="Checkout script"
                        value={configText(g, 'checkoutScriptUrl')}
                        fallback={DEFAULT_ADDRESSES.razorpay.checkoutScriptUrl ?? ''}
                      />
                    )}
                    {g.gatewayName === 'paypal' && (
                      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                        <dt className="text-[13px] text-muted-foreground">Webhook ID</dt>
                        <dd className="min-w-0 truncate font-mono text-[12px]">
                          {configText(g, 'webhookId') || (
                            <span className="font-sans text-[13px] text-destructive">Not set: PayPal’s events cannot be verified</span>
                          )}
                        </dd>
                      </div>
                    )}
                  </dl>
                  <div className="mt-4 border-t pt-4">
                    <WebhookAddress name={g.gatewayName} idPrefix={`gateway-${g.id}`} />
                  </div>
                  <div className="mt-3 flex justify-end">
                    <Button variant="outline" size="sm" onClick={() => setEditing(g)}>
                      <PencilIcon aria-hidden /> Edit<span className="sr-only"> {GATEWAY_LABELS[g.gatewayName]}</span>
                    </Button>
                  </div>
                </Card>
              </li>
            );
          })}
        </ul>
      )}

      <Dialog open={creating} onOpenChange={setCreating}>
        {creating && <CreateGatewayForm existing={list} onDone={() => setCreating(false)} />}
      </Dialog>
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        {editing && <EditGatewayForm key={editing.id} gateway={editing} onDone={() => setEditing(null)} />}
      </Dialog>
    </div>
  );
}

type TAddressValues = { apiBaseUrl: string; checkoutScriptUrl: string; webhookId: string };
const ADDRESS_KEYS = ['apiBaseUrl', 'checkoutScriptUrl', 'webhookId'] as const;
const ZAddressValues = {
  apiBaseUrl: z.string().trim(),
  checkoutScriptUrl: z.string().trim(),
  webhookId: z.string().trim(),
};

/**
 * The gateway's configuration with these fields in it: a blank field is left out (the provider's
 * real address), fields another gateway does not use are dropped, and keys this form does not
 * know are kept as they were.
 */
function configurationFrom(values: TAddressValues, name: TGatewayName, base: Record<string, unknown> = {}): Record<string, unknown> {
  const rest = Object.fromEntries(Object.entries(base).filter(([key]) => !(ADDRESS_KEYS as readonly string[]).includes(key)));
  const apiBaseUrl = values.apiBaseUrl.trim();
  const checkoutScriptUrl = values.checkoutScriptUrl.trim();
  const webhookId = values.webhookId.trim();
  return {
    ...rest,
    ...(apiBaseUrl ? { apiBaseUrl } : {}),
    ...(name === 'razorpay' && checkoutScriptUrl ? { checkoutScriptUrl } : {}),
    ...(name === 'paypal' && webhookId ? { webhookId } : {}),
  };
}

/** Equal whatever the order of their keys (the database may keep them in its own). */
function sameConfiguration(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const sorted = (c: Record<string, unknown>) => JSON.stringify(Object.entries(c).sort(([x], [y]) => x.localeCompare(y)));
  return sorted(a) === sorted(b);
}

/** The contract's own check of a configuration, its messages put on the matching fields. */
function checkAddresses(values: TAddressValues, name: TGatewayName, ctx: z.RefinementCtx) {
  const parsed = ZGatewayConfiguration.safeParse(configurationFrom(values, name));
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'apiBaseUrl');
    ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
  }
}

/** Server field errors (`keyId`, `configuration.apiBaseUrl`) on the form's own fields; false when none matched. */
function placeServerErrors(fields: Readonly<Record<string, string>>, known: readonly string[], set: (field: string, message: string) => void): boolean {
  let placed = false;
  for (const [path, message] of Object.entries(fields)) {
    const field = path.replace(/^configuration\./, '');
    if (known.includes(field)) {
      set(field, message);
      placed = true;
    }
  }
  return placed;
}

function AddressFields<T extends TAddressValues>({
  name,
  idPrefix,
  register,
  errors,
}: {
  name: TGatewayName;
  idPrefix: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  const message = (field: keyof TAddressValues) => (errors[field as keyof FieldErrors<T>] as { message?: string } | undefined)?.message;
  const input = (field: keyof TAddressValues, placeholder: string) => {
    const id = `${idPrefix}-${field}`;
    const error = message(field);
    return (
      <Input
        id={id}
        className="font-mono text-[13px]"
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        {...register(field as Path<T>)}
      />
    );
  };
  return (
    <fieldset className="grid gap-4 rounded-lg border p-3.5">
      <legend className="px-1 text-sm font-medium">Addresses</legend>
      <p className="-mt-2 text-[13px] text-muted-foreground">
        Leave blank for {GATEWAY_LABELS[name]}’s own. Point them elsewhere only for a test or staging stand-in.
      </p>
      <Field id={`${idPrefix}-apiBaseUrl`} label="API base address" optional error={message('apiBaseUrl')} hint={`Default: ${DEFAULT_ADDRESSES[name].apiBaseUrl}`}>
        {input('apiBaseUrl', DEFAULT_ADDRESSES[name].apiBaseUrl)}
      </Field>
      {name === 'razorpay' && (
        <Field
          id={`${idPrefix}-checkoutScriptUrl`}
          label="Checkout script address"
          optional
          error={message('checkoutScriptUrl')}
          hint="The script that opens Razorpay Checkout on the payment page."
        >
          {input('checkoutScriptUrl', DEFAULT_ADDRESSES.razorpay.checkoutScriptUrl ?? '')}
        </Field>
      )}
      {name === 'paypal' && (
        <Field
          id={`${idPrefix}-webhookId`}
          label="Webhook ID"
          optional
          error={message('webhookId')}
          hint="The ID PayPal gives the webhook you register; without it PayPal’s events cannot be verified."
        >
          {input('webhookId', 'WH-…')}
        </Field>
      )}
    </fieldset>
  );
}

const ZCreateForm = z
  .object({
    gatewayName: ZGatewayName,
    keyId: z.string().trim().min(1, 'Enter the key ID.').max(200, 'Keep the key ID under 200 characters.'),
    keySecret: z.string().max(500, 'Keep the secret under 500 characters.'),
    webhookSecret: z.string().max(500, 'Keep the secret under 500 characters.'),
    isActive: z.boolean(),
    ...ZAddressValues,
  })
  .superRefine((data, ctx) => checkAddresses(data, data.gatewayName, ctx));
type TCreateForm = z.infer<typeof ZCreateForm>;

function CreateGatewayForm({ existing, onDone }: { existing: TPaymentGateway[]; onDone: () => void }) {
  const create = useCreateGateway();
  const [formError, setFormError] = useState<string | null>(null);
  const configured = new Set(existing.map((g) => g.gatewayName));
  const first = GATEWAY_NAMES.find((n) => !configured.has(n)) ?? 'razorpay';
  const form = useForm<TCreateForm>({
    resolver: zodResolver(ZCreateForm),
    defaultValues: {
      gatewayName: first,
      keyId: '',
      keySecret: '',
      webhookSecret: '',
      isActive: existing.length === 0,
      apiBaseUrl: '',
      checkoutScriptUrl: '',
      webhookId: '',
    },
  });
  const { register, handleSubmit, control, setError, formState } = form;
  const name = useWatch({ control, name: 'gatewayName' });
  const isActive = useWatch({ control, name: 'isActive' });
  const errors = formState.errors;

  const onSubmit = handleSubmit((data) => {
    setFormError(null);
    create.mutate(
      {
        gatewayName: data.gatewayName,
        isActive: data.isActive,
        keyId: data.keyId.trim(),
        ...(data.keySecret ? { keySecret: data.keySecret } : {}),
        ...(data.webhookSecret ? { webhookSecret: data.webhookSecret } : {}),
        configuration: configurationFrom(data, data.gatewayName),
      },
      {
        onSuccess: (g) => {
          toast({
            title: 'Payment gateway created successfully',
            description: `${GATEWAY_LABELS[g.gatewayName]} is ${g.isActive ? 'active' : 'saved and inactive'}.`,
          });
          onDone();
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          const read = readApiError(err, 'Please try again.');
          const placed = placeServerErrors(
            read.fields,
            ['keyId', 'keySecret', 'webhookSecret', 'gatewayName', ...ADDRESS_KEYS],
            (field, message) => setError(field as keyof TCreateForm, { message }),
          );
          if (!placed) setFormError(read.message);
          toast({ variant: 'destructive', title: 'Failed to create payment gateway', description: read.message });
        },
      },
    );
  });

  return (
    <DialogContent className="max-h-[92dvh] max-w-lg overflow-y-auto">
      <form onSubmit={onSubmit} className="grid gap-5" aria-label="Add payment gateway" noValidate>
        <DialogHeader>
          <DialogTitle>Add payment gateway</DialogTitle>
          <DialogDescription>Paste the API keys from your provider’s dashboard. Secrets are stored encrypted and never shown again.</DialogDescription>
        </DialogHeader>
        <Field
          id="gateway-name"
          label="Gateway"
          error={errors.gatewayName?.message}
          hint={configured.has(name) ? `${GATEWAY_LABELS[name]} is already configured; this adds another set of keys.` : `Prices show in ${gatewayCurrency(name)} while it is active.`}
        >
          <NativeSelect id="gateway-name" aria-describedby="gateway-name-hint" {...register('gatewayName')}>
            {GATEWAY_NAMES.map((n) => (
              <option key={n} value={n}>
                {GATEWAY_LABELS[n]} ({gatewayCurrency(n)})
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="gateway-key-id" label="Key ID" error={errors.keyId?.message} hint={KEY_ID_HINTS[name]}>
          <Input
            id="gateway-key-id"
            className="font-mono"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors.keyId ? true : undefined}
            aria-describedby={errors.keyId ? 'gateway-key-id-error' : 'gateway-key-id-hint'}
            aria-required
            {...register('keyId')}
          />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field id="gateway-key-secret" label="Key secret" optional error={errors.keySecret?.message}>
            <Input id="gateway-key-secret" type="password" autoComplete="new-password" spellCheck={false} {...register('keySecret')} />
          </Field>
          <Field id="gateway-webhook-secret" label="Webhook secret" optional error={errors.webhookSecret?.message}>
            <Input
              id="gateway-webhook-secret"
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              {...register('webhookSecret')}
            />
          </Field>
        </div>
        <WebhookAddress name={name} idPrefix="new-gateway" />
        <AddressFields name={name} idPrefix="gateway" register={register} errors={errors} />
        <div className="flex items-start justify-between gap-4 rounded-lg border p-3.5">
          <div className="grid gap-1">
            <Label htmlFor="gateway-active">Active</Label>
            <p className="text-[13px] text-muted-foreground">
              {isActive ? 'Takes payments right away; any other active gateway is switched off.' : 'Saved, but not used for payments yet.'}
            </p>
          </div>
          <Controller
            control={control}
            name="isActive"
            render={({ field }) => <Switch id="gateway-active" checked={field.value} onCheckedChange={field.onChange} />}
          />
        </div>
        <FormDialogFooter
          error={formError}
          pending={create.isPending}
          idle="Add gateway"
          busy="Adding..."
          onCancel={onDone}
        />
      </form>
    </DialogContent>
  );
}

const editSchema = (name: TGatewayName) =>
  z
    .object({
      keyId: z.string().trim().min(1, 'Enter the key ID.').max(200, 'Keep the key ID under 200 characters.'),
      keySecret: z.string().max(500, 'Keep the secret under 500 characters.'),
      webhookSecret: z.string().max(500, 'Keep the secret under 500 characters.'),
      ...ZAddressValues,
    })
    .superRefine((data, ctx) => checkAddresses(data, name, ctx));
type TEditForm = z.infer<ReturnType<typeof editSchema>>;

/**
 * Changes a gateway's keys and addresses: a blank secret keeps the stored one, a new one replaces
 * it. Only what changed is sent, so the audit log records only that.
 */
function EditGatewayForm({ gateway, onDone }: { gateway: TPaymentGateway; onDone: () => void }) {
  const update = useUpdateGateway();
  const [formError, setFormError] = useState<string | null>(null);
  const [schema] = useState(() => editSchema(gateway.gatewayName));
  const form = useForm<TEditForm>({
    resolver: zodResolver(schema),
    defaultValues: {
      keyId: gateway.keyId,
      keySecret: '',
      webhookSecret: '',
      apiBaseUrl: configText(gateway, 'apiBaseUrl'),
      checkoutScriptUrl: configText(gateway, 'checkoutScriptUrl'),
      webhookId: configText(gateway, 'webhookId'),
    },
  });
  const { register, handleSubmit, setError, formState } = form;
  const errors = formState.errors;
  const label = GATEWAY_LABELS[gateway.gatewayName];

  const onSubmit = handleSubmit((data) => {
    setFormError(null);
    const configuration = configurationFrom(data, gateway.gatewayName, gateway.configuration);
    const changes = {
      ...(data.keyId.trim() !== gateway.keyId ? { keyId: data.keyId.trim() } : {}),
      ...(data.keySecret ? { keySecret: data.keySecret } : {}),
      ...(data.webhookSecret ? { webhookSecret: data.webhookSecret } : {}),
      ...(sameConfiguration(configuration, gateway.configuration) ? {} : { configuration }),
    };
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    update.mutate(
      { id: gateway.id, update: changes },
      {
        onSuccess: () => {
          toast({ title: 'Payment gateway updated successfully', description: `${label} is saved.` });
          onDone();
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          const read = readApiError(err, 'Please try again.');
          const placed = placeServerErrors(read.fields, ['keyId', 'keySecret', 'webhookSecret', ...ADDRESS_KEYS], (field, message) =>
            setError(field as keyof TEditForm, { message }),
          );
          if (!placed) setFormError(read.message);
          toast({ variant: 'destructive', title: 'Failed to update payment gateway', description: read.message });
        },
      },
    );
  });

  const secretHint = (set: boolean) => (set ? 'Set. Leave blank to keep it, or paste a new one to replace it.' : 'Not set yet.');

  return (
    <DialogContent className="max-h-[92dvh] max-w-lg overflow-y-auto">
      <form onSubmit={onSubmit} className="grid gap-5" aria-label={`Edit ${label}`} noValidate>
        <DialogHeader>
          <DialogTitle>Edit {label}</DialogTitle>
          <DialogDescription>Rotate the key ID, replace a secret or change where {label} is reached. Stored secrets are never shown.</DialogDescription>
        </DialogHeader>
        <Field id="edit-gateway-key-id" label="Key ID" error={errors.keyId?.message} hint={KEY_ID_HINTS[gateway.gatewayName]}>
          <Input
            id="edit-gateway-key-id"
            className="font-mono"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors.keyId ? true : undefined}
            aria-describedby={errors.keyId ? 'edit-gateway-key-id-error' : 'edit-gateway-key-id-hint'}
            {...register('keyId')}
          />
        </Field>
        <Field id="edit-gateway-key-secret" label="New key secret" optional error={errors.keySecret?.message} hint={secretHint(gateway.hasKeySecret)}>
          <Input
            id="edit-gateway-key-secret"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            placeholder={gateway.hasKeySecret ? '••••••••  (unchanged)' : ''}
            aria-describedby={errors.keySecret ? 'edit-gateway-key-secret-error' : 'edit-gateway-key-secret-hint'}
            {...register('keySecret')}
          />
        </Field>
        <Field
          id="edit-gateway-webhook-secret"
          label="New webhook secret"
          optional
          error={errors.webhookSecret?.message}
          hint={secretHint(gateway.hasWebhookSecret)}
        >
          <Input
            id="edit-gateway-webhook-secret"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            placeholder={gateway.hasWebhookSecret ? '••••••••  (unchanged)' : ''}
            aria-describedby={errors.webhookSecret ? 'edit-gateway-webhook-secret-error' : 'edit-gateway-webhook-secret-hint'}
            {...register('webhookSecret')}
          />
        </Field>
        <AddressFields name={gateway.gatewayName} idPrefix="edit-gateway" register={register} errors={errors} />
        <FormDialogFooter error={formError} pending={update.isPending} idle="Save changes" busy="Saving..." onCancel={onDone} />
      </form>
    </DialogContent>
  );
}
