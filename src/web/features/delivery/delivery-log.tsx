import { CheckCircle2Icon, Clock3Icon, Loader2Icon, MailIcon, TriangleAlertIcon } from 'lucide-react';
import type { TDelivery, TDeliveryStatus } from '../../../contract/delivery';
import { Badge } from '../../components/ui/badge';
import { formatDate } from '../../lib/utils';

const STATUS: Record<TDeliveryStatus, { label: string; variant: 'success' | 'secondary' | 'destructive' | 'soft'; icon: typeof MailIcon }> = {
  queued: { label: 'Queued', variant: 'secondary', icon: Clock3Icon },
  sending: { label: 'Sending', variant: 'soft', icon: Loader2Icon },
  sent: { label: 'Sent', variant: 'success', icon: CheckCircle2Icon },
  failed: { label: 'Failed', variant: 'destructive', icon: TriangleAlertIcon },
};

/** Where an email stands; a queued email that already failed once is "Retrying". */
export function DeliveryStatusBadge({ status, retrying = false }: { status: TDeliveryStatus; retrying?: boolean }) {
  const { label: plain, variant, icon: Icon } = STATUS[status];
  const label = retrying && status === 'queued' ? 'Retrying' : plain;
  return (
    <Badge variant={variant} data-testid="delivery-status-badge">
      <Icon className={status === 'sending' ? 'animate-spin motion-reduce:animate-none' : undefined} aria-hidden /> {label}
    </Badge>
  );
}

const time = (iso: string) => formatDate(iso, true);

/** One email in a document's log: to whom, where it stands, the times, and the mail server's answer. */
function DeliveryItem({ delivery: d, documentName }: { delivery: TDelivery; documentName?: string }) {
  const retrying = d.status === 'queued' && d.error;
  return (
    <li className="grid gap-1.5 py-3" data-testid="delivery-row">
      <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 text-sm font-medium wrap-anywhere">
          {d.to.join(', ')}
          {d.cc.length > 0 && <span className="font-normal text-muted-foreground"> · Cc {d.cc.join(', ')}</span>}
        </p>
        <DeliveryStatusBadge status={d.status} retrying={Boolean(retrying)} />
      </div>
      {documentName && <p className="text-[13px] break-words text-muted-foreground">{documentName}</p>}
      {d.subject !== documentName && <p className="text-[13px] break-words text-muted-foreground">“{d.subject}”</p>}
      <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted-foreground">
        <div className="flex gap-1">
          <dt>Queued</dt>
          <dd className="tabular-nums">{time(d.createdAt)}</dd>
        </div>
        {d.sentAt && (
          <div className="flex gap-1">
            <dt>Sent</dt>
            <dd className="tabular-nums">{time(d.sentAt)}</dd>
          </div>
        )}
        {d.attempts > 1 && (
          <div className="flex gap-1">
            <dt>Attempts</dt>
            <dd className="tabular-nums">{d.attempts}</dd>
          </div>
        )}
        {d.transport && (
          <div className="flex gap-1">
            <dt className="sr-only">Server</dt>
            <dd>{d.transport === 'own' ? 'Your mail server' : 'Formwork’s mail server'}</dd>
          </div>
        )}
        {d.attachment === 'link' && <dd>PDF sent as a link (too large to attach)</dd>}
      </dl>
      {(d.error || d.smtpResponse) && (
        <div className={d.status === 'failed' ? 'text-[13px] text-destructive' : 'text-[13px] text-muted-foreground'}>
          {d.error && <p className="break-words">{d.error}</p>}
          {retrying && d.nextAttemptAt && (
            <p>Trying again at {new Date(d.nextAttemptAt).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}.</p>
          )}
          {d.smtpResponse && !d.error?.includes(d.smtpResponse) && (
            <p className="font-mono text-xs wrap-anywhere" title="The mail server’s answer">
              {d.smtpResponse}
            </p>
          )}
        </div>
      )}
    </li>
  );
}

export function DeliveryLog({ deliveries, documentNames }: { deliveries: TDelivery[]; documentNames?: Record<string, string> }) {
  return (
    <ul className="divide-y" aria-label="Emails">
      {deliveries.map((d) => (
        <DeliveryItem key={d.id} delivery={d} documentName={documentNames?.[d.id]} />
      ))}
    </ul>
  );
}
