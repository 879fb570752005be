import { type FieldErrors, type Path, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { ZGatewayConfiguration, type TGatewayConfiguration, type TGatewayName } from '../../../contract/admin';
import { Input } from '../../components/ui/input';
import { Field } from './admin-ui';
import { DEFAULT_ADDRESSES } from './gateway-card';
import { GATEWAY_LABELS } from './labels';

type TAddressValues = { apiBaseUrl: string; checkoutScriptUrl: string; webhookId: string };
export const ADDRESS_KEYS = ['apiBaseUrl', 'checkoutScriptUrl', 'webhookId'] as const;
export const ZAddressValues = {
  apiBaseUrl: z.string().trim(),
  checkoutScriptUrl: z.string().trim(),
  webhookId: z.string().trim(),
};

const isSingleValue = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * The gateway's configuration with these fields in it: a blank field is left out (the provider's
 * real address), fields another gateway does not use are dropped, and keys this form does not
 * know are kept as they were when they hold a single value, the only kind the contract takes.
 */
export function configurationFrom(values: TAddressValues, name: TGatewayName, base: Record<string, unknown> = {}): TGatewayConfiguration {
  const rest: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(base)) if (!(ADDRESS_KEYS as readonly string[]).includes(key) && isSingleValue(value)) rest[key] = value;
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
export function sameConfiguration(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const sorted = (c: Record<string, unknown>) => JSON.stringify(Object.entries(c).sort(([x], [y]) => x.localeCompare(y)));
  return sorted(a) === sorted(b);
}

/** The contract's own check of a configuration, its messages put on the matching fields. */
export function checkAddresses(values: TAddressValues, name: TGatewayName, ctx: z.RefinementCtx) {
  const parsed = ZGatewayConfiguration.safeParse(configurationFrom(values, name));
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'apiBaseUrl');
    ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
  }
}

/** Server field errors (`keyId`, `configuration.apiBaseUrl`) on the form's own fields; false when none matched. */
export function placeServerErrors(fields: Readonly<Record<string, string>>, known: readonly string[], set: (field: string, message: string) => void): boolean {
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

export function AddressFields<T extends TAddressValues>({
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
      <Field
        id={`${idPrefix}-apiBaseUrl`}
        label="API base address"
        optional
        error={message('apiBaseUrl')}
        hint={`Default: ${DEFAULT_ADDRESSES[name].apiBaseUrl}`}
      >
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
