import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2Icon, CircleDashedIcon, CreditCardIcon, InfoIcon, KeyRoundIcon, PencilIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { GATEWAY_NAMES, ZGatewayName, type TGatewayName, type TPaymentGateway } from '../../../contract/admin';
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
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { cn } from '../../lib/utils';
import { Field, FormDialogFooter, formatDay, NativeSelect, Switch } from './admin-ui';
import { useCreateGateway, usePaymentGateways, useUpdateGateway } from './api';

export const GATEWAY_LABELS: Record<TGatewayName, string> = {
  razorpay: 'Razorpay',
  stripe: 'Stripe',
  paypal: 'PayPal',
};

/** The price currency follows the active gateway (docs/decisions.md). */
export function gatewayCurrency(name: TGatewayName): 'INR' | 'USD' {
  return name === 'razorpay' ? 'INR' : 'USD';
}

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
      <CircleDashedIcon className="size-3.5" aria-hidden /> No {label.toLowerCase()}
    </span>
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
              PayPal. Activating a gateway deactivates the others.
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
                  <dl className="mt-4 grid gap-3 border-t pt-4">
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
                      <dd className="ml-auto">
                        <Button
                          variant="ghost"
                          size="sm"
                          className="-my-1 -mr-2"
                          onClick={() => setEditing(g)}
                        >
                          <PencilIcon aria-hidden /> Edit keys<span className="sr-only"> of {GATEWAY_LABELS[g.gatewayName]}</span>
                        </Button>
                      </dd>
                    </div>
                  </dl>
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

const ZCreateForm = z.object({
  gatewayName: ZGatewayName,
  keyId: z.string().trim().min(1, 'Enter the key ID.').max(200, 'Keep the key ID under 200 characters.'),
  keySecret: z.string().max(500, 'Keep the secret under 500 characters.'),
  webhookSecret: z.string().max(500, 'Keep the secret under 500 characters.'),
  isActive: z.boolean(),
});
type TCreateForm = z.infer<typeof ZCreateForm>;

function CreateGatewayForm({ existing, onDone }: { existing: TPaymentGateway[]; onDone: () => void }) {
  const create = useCreateGateway();
  const [formError, setFormError] = useState<string | null>(null);
  const configured = new Set(existing.map((g) => g.gatewayName));
  const first = GATEWAY_NAMES.find((n) => !configured.has(n)) ?? 'razorpay';
  const form = useForm<TCreateForm>({
    resolver: zodResolver(ZCreateForm),
    defaultValues: { gatewayName: first, keyId: '', keySecret: '', webhookSecret: '', isActive: existing.length === 0 },
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
        configuration: {},
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
          let placed = false;
          for (const [field, message] of Object.entries(read.fields)) {
            if (field === 'keyId' || field === 'keySecret' || field === 'webhookSecret' || field === 'gatewayName') {
              setError(field, { message });
              placed = true;
            }
          }
          if (!placed) setFormError(read.message);
          toast({ variant: 'destructive', title: 'Failed to create payment gateway', description: read.message });
        },
      },
    );
  });

  return (
    <DialogContent className="max-w-lg">
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
          <NativeSelect id="gateway-name" {...register('gatewayName')}>
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

const ZEditForm = z.object({
  keyId: z.string().trim().min(1, 'Enter the key ID.').max(200, 'Keep the key ID under 200 characters.'),
  keySecret: z.string().max(500, 'Keep the secret under 500 characters.'),
  webhookSecret: z.string().max(500, 'Keep the secret under 500 characters.'),
});
type TEditForm = z.infer<typeof ZEditForm>;

/** Rotates a gateway's keys: a blank secret keeps the stored one, a new one replaces it. */
function EditGatewayForm({ gateway, onDone }: { gateway: TPaymentGateway; onDone: () => void }) {
  const update = useUpdateGateway();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TEditForm>({
    resolver: zodResolver(ZEditForm),
    defaultValues: { keyId: gateway.keyId, keySecret: '', webhookSecret: '' },
  });
  const { register, handleSubmit, setError, formState } = form;
  const errors = formState.errors;
  const label = GATEWAY_LABELS[gateway.gatewayName];

  const onSubmit = handleSubmit((data) => {
    setFormError(null);
    update.mutate(
      {
        id: gateway.id,
        update: {
          keyId: data.keyId.trim(),
          ...(data.keySecret ? { keySecret: data.keySecret } : {}),
          ...(data.webhookSecret ? { webhookSecret: data.webhookSecret } : {}),
        },
      },
      {
        onSuccess: () => {
          toast({ title: 'Payment gateway updated successfully', description: `${label} keys are saved.` });
          onDone();
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          const read = readApiError(err, 'Please try again.');
          let placed = false;
          for (const [field, message] of Object.entries(read.fields)) {
            if (field === 'keyId' || field === 'keySecret' || field === 'webhookSecret') {
              setError(field, { message });
              placed = true;
            }
          }
          if (!placed) setFormError(read.message);
          toast({ variant: 'destructive', title: 'Failed to update payment gateway', description: read.message });
        },
      },
    );
  });

  const secretHint = (set: boolean) => (set ? 'A secret is stored. Leave blank to keep it, or paste a new one to replace it.' : 'None stored yet.');

  return (
    <DialogContent className="max-w-lg">
      <form onSubmit={onSubmit} className="grid gap-5" aria-label={`Edit ${label} keys`} noValidate>
        <DialogHeader>
          <DialogTitle>Edit {label} keys</DialogTitle>
          <DialogDescription>Rotate the key ID or replace a secret. Stored secrets are never shown.</DialogDescription>
        </DialogHeader>
        <Field id="edit-gateway-key-id" label="Key ID" error={errors.keyId?.message} hint={KEY_ID_HINTS[gateway.gatewayName]}>
          <Input
            id="edit-gateway-key-id"
            className="font-mono"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors.keyId ? true : undefined}
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
            {...register('webhookSecret')}
          />
        </Field>
        <FormDialogFooter
          error={formError}
          pending={update.isPending}
          idle="Save keys"
          busy="Saving..."
          onCancel={onDone}
        />
      </form>
    </DialogContent>
  );
}
