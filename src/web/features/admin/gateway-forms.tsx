import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm, useWatch, type UseFormRegisterReturn } from 'react-hook-form';
import { z } from 'zod';
import { GATEWAY_NAMES, ZGatewayName, type TGatewayName, type TPaymentGateway } from '../../../contract/admin';
import { DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { Field, FormDialogFooter, NativeSelect, Switch } from './admin-ui';
import { useCreateGateway, useUpdateGateway } from './api';
import { KEY_ID_HINTS, configText, WebhookAddress } from './gateway-card';
import { ADDRESS_KEYS, ZAddressValues, configurationFrom, sameConfiguration, checkAddresses, placeServerErrors, AddressFields } from './gateway-address-fields';
import { GATEWAY_LABELS, gatewayCurrency } from './labels';

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

export function CreateGatewayForm({ existing, onDone }: { existing: TPaymentGateway[]; onDone: () => void }) {
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
          const placed = placeServerErrors(read.fields, ['keyId', 'keySecret', 'webhookSecret', 'gatewayName', ...ADDRESS_KEYS], (field, message) =>
            setError(field as keyof TCreateForm, { message }),
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
          hint={
            configured.has(name)
              ? `${GATEWAY_LABELS[name]} is already configured; this adds another set of keys.`
              : `Prices show in ${gatewayCurrency(name)} while it is active.`
          }
        >
          <NativeSelect id="gateway-name" aria-describedby="gateway-name-hint" {...register('gatewayName')}>
            {GATEWAY_NAMES.map((n) => (
              <option key={n} value={n}>
                {GATEWAY_LABELS[n]} ({gatewayCurrency(n)})
              </option>
            ))}
          </NativeSelect>
        </Field>
        <KeyIdField id="gateway-key-id" gatewayName={name} required error={errors.keyId?.message} registration={register('keyId')} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field id="gateway-key-secret" label="Key secret" optional error={errors.keySecret?.message}>
            <Input id="gateway-key-secret" type="password" autoComplete="new-password" spellCheck={false} {...register('keySecret')} />
          </Field>
          <Field id="gateway-webhook-secret" label="Webhook secret" optional error={errors.webhookSecret?.message}>
            <Input id="gateway-webhook-secret" type="password" autoComplete="new-password" spellCheck={false} {...register('webhookSecret')} />
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
        <FormDialogFooter error={formError} pending={create.isPending} idle="Add gateway" busy="Adding..." onCancel={onDone} />
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
export function EditGatewayForm({ gateway, onDone }: { gateway: TPaymentGateway; onDone: () => void }) {
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

  return (
    <DialogContent className="max-h-[92dvh] max-w-lg overflow-y-auto">
      <form onSubmit={onSubmit} className="grid gap-5" aria-label={`Edit ${label}`} noValidate>
        <DialogHeader>
          <DialogTitle>Edit {label}</DialogTitle>
          <DialogDescription>Rotate the key ID, replace a secret or change where {label} is reached. Stored secrets are never shown.</DialogDescription>
        </DialogHeader>
        <KeyIdField id="edit-gateway-key-id" gatewayName={gateway.gatewayName} error={errors.keyId?.message} registration={register('keyId')} />
        {REPLACEABLE_SECRETS.map(({ field, id, label, isSet }) => (
          <ReplaceSecretField key={field} id={id} label={label} isSet={isSet(gateway)} error={errors[field]?.message} registration={register(field)} />
        ))}
        <AddressFields name={gateway.gatewayName} idPrefix="edit-gateway" register={register} errors={errors} />
        <FormDialogFooter error={formError} pending={update.isPending} idle="Save changes" busy="Saving..." onCancel={onDone} />
      </form>
    </DialogContent>
  );
}

/** The gateway's public key: shown in full, so set in monospace and never corrected as if it were a word. */
function KeyIdField({
  id,
  gatewayName,
  required = false,
  error,
  registration,
}: {
  id: string;
  gatewayName: TGatewayName;
  required?: boolean;
  error: string | undefined;
  registration: UseFormRegisterReturn;
}) {
  return (
    <Field id={id} label="Key ID" error={error} hint={KEY_ID_HINTS[gatewayName]}>
      <Input
        id={id}
        className="font-mono"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        aria-required={required || undefined}
        {...registration}
      />
    </Field>
  );
}

/** The secrets an edit may replace; the stored ones are never sent back, only whether they are set. */
const REPLACEABLE_SECRETS = [
  { field: 'keySecret', id: 'edit-gateway-key-secret', label: 'New key secret', isSet: (g: TPaymentGateway) => g.hasKeySecret },
  { field: 'webhookSecret', id: 'edit-gateway-webhook-secret', label: 'New webhook secret', isSet: (g: TPaymentGateway) => g.hasWebhookSecret },
] as const;

/** A stored secret is never shown: the field says whether one is set, and blank keeps it. */
function ReplaceSecretField({
  id,
  label,
  isSet,
  error,
  registration,
}: {
  id: string;
  label: string;
  isSet: boolean;
  error: string | undefined;
  registration: UseFormRegisterReturn;
}) {
  return (
    <Field id={id} label={label} optional error={error} hint={isSet ? 'Set. Leave blank to keep it, or paste a new one to replace it.' : 'Not set yet.'}>
      <Input
        id={id}
        type="password"
        autoComplete="new-password"
        spellCheck={false}
        placeholder={isSet ? '••••••••  (unchanged)' : ''}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        {...registration}
      />
    </Field>
  );
}
