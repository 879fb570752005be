import { ChevronDownIcon, Loader2Icon, PlusIcon, PowerIcon, SendIcon, Trash2Icon, TriangleAlertIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_SIGNATURE_HEADER,
  ZCreateWebhookBody,
  type TCreateWebhookBody,
  type TCreatedWebhookEndpoint,
  type TWebhookEndpoint,
  type TWebhookEvent,
} from '../../../contract/webhooks';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/data-table';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { LoadError } from '../../components/ui/load-error';
import { LoadingText, QueryState } from '../../components/query-state';
import { toast, toastApiError } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { cn, formatDate } from '../../lib/utils';
import { OnceSecret } from './once-secret';
import { useCreateWebhook, useDeleteWebhook, useEnableWebhook, useSendTestWebhook, useWebhookDeliveries, useWebhooks } from './api';

const DELIVERY_COLUMNS = [
  { header: 'Event', className: 'px-3 py-2 font-medium' },
  { header: 'Result', className: 'px-3 py-2 font-medium' },
  { header: 'Attempts', className: 'px-3 py-2 text-right font-medium' },
  { header: 'Sent', className: 'hidden px-3 py-2 font-medium sm:table-cell' },
];

const EVENT_TEXT: Record<TWebhookEvent, string> = {
  'document.created': 'A document was generated',
  'batch.completed': 'A batch made every document',
  'batch.failed': 'A batch ended with rows that failed',
  'signature_request.sent': 'A signer was sent a document to sign',
  'signature_request.viewed': 'A signer opened their signing link',
  'signature_request.signed': 'A signer signed',
  'signature_request.completed': 'Everyone signed and the PDF was sealed',
  'signature_request.declined': 'A signer declined to sign',
  'signature_request.expired': 'A request expired unsigned',
  'team.member_added': 'Someone joined the team',
  'team.member_removed': 'Someone left or was removed from the team',
};

const failed = (failure: unknown, fallback: string) => toastApiError('Error', fallback)(failure);

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const deliveries = useWebhookDeliveries(endpointId);
  if (deliveries.isLoading) {
    return (
      <p className="px-3 py-2 text-sm text-muted-foreground" role="status">
        Loading deliveries...
      </p>
    );
  }
  if (deliveries.error) return <LoadError error={deliveries.error} fallback="Could not load the deliveries." />;
  const rows = deliveries.data ?? [];
  if (rows.length === 0) return <p className="px-3 py-2 text-sm text-muted-foreground">No deliveries yet. Send a test event to try the endpoint.</p>;
  return (
    <div className="max-h-72 overflow-auto" role="region" aria-label="Deliveries" tabIndex={0}>
      <DataTable className="w-full text-sm" caption="Last 50 deliveries, newest first" head="sticky" columns={DELIVERY_COLUMNS}>
        {rows.map((d) => (
          <tr key={d.id} className="align-top">
            <th scope="row" className="px-3 py-2 text-left font-mono text-xs font-normal">
              {d.event}
            </th>
            <td className="px-3 py-2">
              <Badge variant={d.status === 'delivered' ? 'success' : d.status === 'failed' ? 'destructive' : 'secondary'}>
                {d.status === 'delivered' ? 'Delivered' : d.status === 'failed' ? 'Failed' : 'Retrying'}
                {d.responseStatus !== null && ` · ${d.responseStatus}`}
              </Badge>
              {d.error && <p className="mt-1 text-xs text-muted-foreground">{d.error}</p>}
              {d.nextAttemptAt && <p className="mt-1 text-xs text-muted-foreground">Next attempt {formatDate(d.nextAttemptAt, true)}</p>}
              <p className="mt-1 text-xs text-muted-foreground sm:hidden">Sent {formatDate(d.createdAt, true)}</p>
            </td>
            <td className="px-3 py-2 text-right tabular-nums">{d.attempts}</td>
            <td className="hidden px-3 py-2 whitespace-nowrap text-muted-foreground sm:table-cell">{formatDate(d.createdAt, true)}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

function EndpointRow({ endpoint, onDelete }: { endpoint: TWebhookEndpoint; onDelete: () => void }) {
  const [open, setOpen] = useState(false);
  const sendTest = useSendTestWebhook();
  const enable = useEnableWebhook();
  const logId = useId();
  return (
    <li className="py-4" data-testid="webhook-row">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{endpoint.url}</p>
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            {endpoint.events.map((e) => (
              <Badge key={e} variant="outline" className="font-mono text-[0.6875rem]">
                {e}
              </Badge>
            ))}
            {endpoint.disabledAt ? <Badge variant="destructive">Turned off</Badge> : <Badge variant="success">Active</Badge>}
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={sendTest.isPending}
            onClick={() =>
              sendTest.mutate(endpoint.id, {
                onSuccess: () => {
                  toast({ title: 'Test event sent', description: 'Its delivery shows in the log below.' });
                  setOpen(true);
                },
                onError: (failure) => failed(failure, 'The test event could not be sent.'),
              })
            }
          >
            {sendTest.isPending ? <Loader2Icon className="animate-spin" /> : <SendIcon />} Send test event
          </Button>
          <Button variant="outline" size="sm" onClick={onDelete} aria-label={`Delete the endpoint ${endpoint.url}`}>
            <Trash2Icon /> Delete
          </Button>
        </div>
      </div>
      {endpoint.disabledAt && (
        <Alert variant="destructive" className="mt-3">
          <TriangleAlertIcon />
          <AlertTitle>Deliveries to this endpoint are turned off</AlertTitle>
          <AlertDescription className="space-y-2">
            <p>{endpoint.disabledReason}</p>
            <Button
              size="sm"
              variant="outline"
              disabled={enable.isPending}
              onClick={() =>
                enable.mutate(endpoint.id, {
                  onSuccess: () => toast({ title: 'Endpoint turned on', description: 'New events are delivered again.' }),
                  onError: (failure) => failed(failure, 'The endpoint could not be turned on.'),
                })
              }
            >
              <PowerIcon /> Turn on again
            </Button>
          </AlertDescription>
        </Alert>
      )}
      <div className="mt-3 rounded-lg border">
        <button
          type="button"
          className="flex w-full cursor-pointer items-center justify-between rounded-lg px-3 py-2 text-left text-sm font-medium hover:bg-muted/60"
          aria-expanded={open}
          aria-controls={logId}
          onClick={() => setOpen((v) => !v)}
        >
          Delivery log
          <ChevronDownIcon className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden />
        </button>
        <div id={logId} hidden={!open} className="border-t">
          {open && <DeliveryLog endpointId={endpoint.id} />}
        </div>
      </div>
    </li>
  );
}

function AddEndpointForm({ onCreated }: { onCreated: (endpoint: TCreatedWebhookEndpoint) => void }) {
  const urlId = useId();
  const form = useForm<TCreateWebhookBody>({ resolver: zodResolver(ZCreateWebhookBody), defaultValues: { url: '', events: ['document.created'] } });
  const [formError, setFormError] = useState<string | null>(null);
  const errors = { url: form.formState.errors.url?.message, events: form.formState.errors.events?.message, form: formError };
  const create = useCreateWebhook();
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(values, {
      onSuccess: (endpoint) => {
        form.setValue('url', '');
        toast({ title: 'Endpoint added', description: 'Copy its signing secret now.' });
        onCreated(endpoint);
      },
      onError: (failure) => {
        if (isUnauthorizedError(failure)) return;
        const problem = readApiError(failure, 'The endpoint could not be added. Please try again.');
        const { url, events } = problem.fields;
        if (url) form.setError('url', { type: 'server', message: url });
        if (events) form.setError('events', { type: 'server', message: events });
        if (!url && !events) setFormError(problem.message);
      },
    });
  });
  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
      <div className="grid gap-1.5">
        <Label htmlFor={urlId}>Endpoint URL</Label>
        <Input
          id={urlId}
          type="url"
          inputMode="url"
          placeholder="https://example.com/formwork/webhooks"
          {...form.register('url', { setValueAs: (value: string) => value.trim() })}
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={errors.url ? `${urlId}-error` : undefined}
        />
        {errors.url && (
          <p id={`${urlId}-error`} className="text-sm text-destructive">
            {errors.url}
          </p>
        )}
      </div>
      <fieldset className="space-y-2" aria-invalid={errors.events ? true : undefined}>
        <legend className="mb-1 text-sm font-medium">Events</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className="flex cursor-pointer items-start gap-2 text-sm">
            <input type="checkbox" className="mt-0.5 size-4 accent-[var(--color-primary)]" value={event} {...form.register('events')} />
            <span>
              <span className="font-mono text-xs">{event}</span> <span className="text-muted-foreground">— {EVENT_TEXT[event]}</span>
            </span>
          </label>
        ))}
        {errors.events && <p className="text-sm text-destructive">{errors.events}</p>}
      </fieldset>
      {errors.form && (
        <p className="text-sm text-destructive" role="alert">
          {errors.form}
        </p>
      )}
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />} Add endpoint
      </Button>
    </form>
  );
}

/** Settings → API Access → Webhooks: where events are sent, their signing secrets and delivery logs. */
export function WebhooksCard() {
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook();
  const [created, setCreated] = useState<TCreatedWebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<TWebhookEndpoint | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>
          Formwork posts JSON to your endpoints when documents and batches are made, signed in the <code className="font-mono">{WEBHOOK_SIGNATURE_HEADER}</code>{' '}
          header. Failed deliveries are retried for about a day.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {created && (
          <OnceSecret
            title={`Signing secret for ${created.url}`}
            value={created.secret}
            label="Webhook signing secret"
            copiedTitle="Secret Copied"
            onDone={() => setCreated(null)}
            testId="new-webhook-secret"
          />
        )}
        <QueryState
          query={webhooks}
          loading={<LoadingText>Loading endpoints...</LoadingText>}
          errorText="Could not load your endpoints."
          isEmpty={(webhooks.data ?? []).length === 0}
          empty={<p className="text-sm text-muted-foreground">No endpoints yet.</p>}
        >
          <ul className="divide-y" aria-label="Webhook endpoints">
            {(webhooks.data ?? []).map((endpoint) => (
              <EndpointRow key={endpoint.id} endpoint={endpoint} onDelete={() => setDeleting(endpoint)} />
            ))}
          </ul>
        </QueryState>
        <div className="border-t pt-5">
          <AddEndpointForm onCreated={setCreated} />
        </div>
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this endpoint?"
        description={`${deleting?.url ?? ''} gets no more events, and its delivery log is deleted. This cannot be undone.`}
        confirmLabel="Delete endpoint"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast({ title: 'Endpoint deleted', description: deleting.url });
              setDeleting(null);
            },
            onError: (failure) => failed(failure, 'The endpoint could not be deleted.'),
          });
        }}
      />
    </Card>
  );
}
