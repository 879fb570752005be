import { CheckCircle2Icon, CircleDashedIcon, CopyIcon, KeyRoundIcon, PencilIcon, WebhookIcon } from 'lucide-react';
import { GATEWAY_DEFAULT_ADDRESSES, GATEWAY_WEBHOOK_EVENTS, gatewayWebhookUrl, type TGatewayName, type TPaymentGateway } from '../../../contract/admin';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { useAppConfig } from '../../hooks/use-app-config';
import { toast } from '../../hooks/use-toast';
import { siteOrigin } from '../../lib/site';
import { cn } from '../../lib/utils';
import { formatDay, Switch } from './admin-ui';
import { GATEWAY_LABELS, gatewayCurrency } from './labels';

export const GATEWAY_TINTS: Record<TGatewayName, string> = {
  razorpay: 'bg-[oklch(0.95_0.04_255)] text-[oklch(0.45_0.16_255)]',
  stripe: 'bg-[oklch(0.95_0.04_285)] text-[oklch(0.48_0.2_285)]',
  paypal: 'bg-[oklch(0.95_0.04_230)] text-[oklch(0.42_0.13_240)]',
};

export const KEY_ID_HINTS: Record<TGatewayName, string> = {
  razorpay: 'Starts with rzp_live_ or rzp_test_.',
  stripe: 'Your publishable key, pk_live_… or pk_test_….',
  paypal: 'Your REST app client ID.',
};

function GatewayMark({ name }: { name: TGatewayName }) {
  return (
    <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg text-sm font-bold', GATEWAY_TINTS[name])} aria-hidden>
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

export const DEFAULT_ADDRESSES: Record<TGatewayName, { apiBaseUrl: string; checkoutScriptUrl?: string }> = GATEWAY_DEFAULT_ADDRESSES;

/** The address to register at the provider: the server's public address, whatever this browser uses. */
function useWebhookAddress(name: TGatewayName): { base: string; address: string } {
  const config = useAppConfig();
  const base = (config.data?.publicUrl ?? siteOrigin()).replace(/\/+$/, '');
  return { base, address: gatewayWebhookUrl(base, name) };
}

export const configText = (g: TPaymentGateway, key: 'apiBaseUrl' | 'checkoutScriptUrl' | 'webhookId'): string => {
  const value = g.configuration[key];
  return typeof value === 'string' ? value : '';
};

/** The address to register at the provider, with a copy button, and the events to send to it. */
export function WebhookAddress({ name, idPrefix }: { name: TGatewayName; idPrefix: string }) {
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
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="h-9"
          onClick={() => void copy()}
          aria-label={`Copy the ${GATEWAY_LABELS[name]} webhook address`}
        >
          <CopyIcon aria-hidden /> Copy
        </Button>
      </div>
      <p className="text-[12px] leading-relaxed text-muted-foreground">
        Events:{' '}
        {GATEWAY_WEBHOOK_EVENTS[name].map((e, i) => (
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

/** One configured gateway: its state and switch, keys, addresses and webhook address, and Edit. */
export function GatewayCard({
  g,
  pending,
  onToggle,
  onEdit,
}: {
  g: TPaymentGateway;
  pending: boolean;
  onToggle: (isActive: boolean) => void;
  onEdit: () => void;
}) {
  const switchId = `gateway-active-${g.id}`;
  return (
    <Card className={cn('h-full p-5 transition-shadow', g.isActive && 'ring-2 ring-primary/25')}>
      <div className="flex items-start gap-3">
        <GatewayMark name={g.gatewayName} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-base font-semibold tracking-tight">{GATEWAY_LABELS[g.gatewayName]}</h3>
            {g.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Inactive</Badge>}
          </div>
          <p className="mt-0.5 text-xs text-muted-foreground">
            Charges in {gatewayCurrency(g.gatewayName)} · added {formatDay(g.createdAt)}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Label htmlFor={switchId} className="sr-only">
            {`${GATEWAY_LABELS[g.gatewayName]} active`}
          </Label>
          <Switch id={switchId} checked={g.isActive} disabled={pending} onCheckedChange={(checked) => onToggle(checked)} />
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
          <AddressLine label="Checkout script" value={configText(g, 'checkoutScriptUrl')} fallback={DEFAULT_ADDRESSES.razorpay.checkoutScriptUrl ?? ''} />
        )}
        {g.gatewayName === 'paypal' && (
          <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
            <dt className="text-[13px] text-muted-foreground">Webhook ID</dt>
            <dd className="min-w-0 truncate font-mono text-[12px]">
              {configText(g, 'webhookId') || <span className="font-sans text-[13px] text-destructive">Not set: PayPal’s events cannot be verified</span>}
            </dd>
          </div>
        )}
      </dl>
      <div className="mt-4 border-t pt-4">
        <WebhookAddress name={g.gatewayName} idPrefix={`gateway-${g.id}`} />
      </div>
      <div className="mt-3 flex justify-end">
        <Button variant="outline" size="sm" onClick={onEdit}>
          <PencilIcon aria-hidden /> Edit<span className="sr-only"> {GATEWAY_LABELS[g.gatewayName]}</span>
        </Button>
      </div>
    </Card>
  );
}
