import { BookOpenIcon, Loader2Icon, MailIcon, PlusIcon, Trash2Icon, TriangleAlertIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ZCreateApiKeyBody, type TApiKey, type TApiKeyMode, type TCreatedApiKey } from '../../../contract/api-keys';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { LoadingText, QueryState } from '../../components/query-state';
import { toast, toastApiError } from '../../hooks/use-toast';
import { useContactEmails } from '../../hooks/use-app-config';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { mailto } from '../../lib/site';
import { NativeSelect } from '../../components/ui/native-select';
import { useFormats } from '../formats/api';
import { curlSample, FORMAT_ID_STANDIN } from '../formats/api-sample';
import { FormatApiDetails } from '../formats/format-api-dialog';
import { formatDate } from '../../lib/utils';
import { useTeamId } from '../../lib/workspace';
import { API_USAGE_DAYS } from '../../../contract/api-usage';
import { Skeleton } from '../../components/ui/skeleton';
import { usageCsvUrl, useApiKeys, useApiUsage, useCreateApiKey, useRevokeApiKey } from './api';
import { UsagePanel } from './usage-panel';
import { OnceSecret } from './once-secret';
import { WebhooksCard } from './webhooks-card';
import { useVerificationRequired, VerifyEmailNotice } from '../../components/layout/verify-email-notice';

type TKeyInput = z.input<typeof ZCreateApiKeyBody>;
type TKeyOutput = z.output<typeof ZCreateApiKeyBody>;

const MODE_TEXT: Record<TApiKeyMode, string> = {
  live: 'Live: real documents, counted against your plan',
  test: 'Test: watermarked documents, not counted, deleted after 7 days',
};

/** The new key, once. */
function NewKey({ created, onDone }: { created: TCreatedApiKey; onDone: () => void }) {
  return (
    <OnceSecret
      title={`Your new key “${created.name}”`}
      value={created.key}
      label="New API key"
      copiedTitle="API Key Copied"
      onDone={onDone}
      testId="new-api-key"
    />
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: TCreatedApiKey) => void }) {
  const id = useId();
  const form = useForm<TKeyInput, unknown, TKeyOutput>({ resolver: zodResolver(ZCreateApiKeyBody), defaultValues: { name: '', mode: 'live' } });
  const create = useCreateApiKey();
  const held = useVerificationRequired();
  const error = form.formState.errors.name?.message;
  const submit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: (key) => {
        form.reset({ name: '', mode: values.mode });
        toast({ title: 'API Key Generated', description: `${key.name} is ready. Copy it now.` });
        onCreated(key);
      },
      onError: (failure) => {
        if (isUnauthorizedError(failure)) return;
        const problem = readApiError(failure, 'The key could not be created. Please try again.');
        form.setError('name', { type: 'server', message: problem.fields['name'] ?? problem.message });
      },
    }),
  );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4" aria-label="Create an API key">
      <VerifyEmailNotice doing="create API keys" />
      <div className="grid gap-2">
        <Label htmlFor={`${id}-name`}>Key name</Label>
        <Input
          id={`${id}-name`}
          maxLength={100}
          placeholder="e.g. Billing system"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...form.register('name')}
        />
        {error && (
          <p id={`${id}-error`} className="text-sm text-destructive" role="alert">
            {error}
          </p>
        )}
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Kind</legend>
        {(['live', 'test'] as const).map((m) => (
          <label key={m} className="flex cursor-pointer items-start gap-2 text-sm">
            <input type="radio" value={m} {...form.register('mode')} className="mt-0.5 size-4 accent-[var(--color-primary)]" />
            <span>{MODE_TEXT[m]}</span>
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit" disabled={create.isPending || held}>
          {create.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <PlusIcon />}
          {create.isPending ? 'Creating...' : 'Create key'}
        </Button>
      </div>
    </form>
  );
}

/** Why a key that is not revoked answers 401 now, and what brings it back. */
const STOPPED_TEXT: Record<NonNullable<TApiKey['stopped']>, (maker: string) => string> = {
  maker_not_admin: (maker) =>
    `${maker} is no longer an admin of this team, so calls with this key are refused. It works again if they are made one; otherwise revoke it and make a new key.`,
  maker_suspended: (maker) => `${maker}’s account is suspended, so calls with this key are refused. It works again once the account is restored.`,
};

function KeyRow({ apiKey, onRevoke }: { apiKey: TApiKey; onRevoke: () => void }) {
  const inTeam = useTeamId() !== null;
  const maker = apiKey.madeBy ?? 'a deleted account';
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-testid="api-key-row">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          {apiKey.name}
          <Badge variant={apiKey.mode === 'live' ? 'success' : 'secondary'}>{apiKey.mode === 'live' ? 'Live' : 'Test'}</Badge>
          {apiKey.stopped && <Badge variant="destructive">Not working</Badge>}
        </p>
        <p className="mt-0.5 font-mono text-xs text-muted-foreground" aria-label={`Key ending in ${apiKey.last4}`}>
          fw_{apiKey.mode}_••••••••{apiKey.last4}
        </p>
        <p className="mt-0.5 text-xs text-muted-foreground">
          Created {formatDate(apiKey.createdAt)}
          {inTeam && ` by ${maker}`} · {apiKey.lastUsedAt ? `last used ${formatDate(apiKey.lastUsedAt, true)}` : 'never used'}
        </p>
        {apiKey.stopped && (
          <p className="mt-1 flex items-start gap-1.5 text-xs text-foreground">
            <TriangleAlertIcon className="mt-px size-3.5 shrink-0 text-warning" aria-hidden />
            {STOPPED_TEXT[apiKey.stopped](maker)}
          </p>
        )}
      </div>
      <Button variant="outline" size="sm" onClick={onRevoke} className="text-destructive hover:bg-destructive/10">
        <Trash2Icon /> Revoke<span className="sr-only"> {apiKey.name}</span>
      </Button>
    </li>
  );
}

/** Call the API: pick a format, see its id and example data, and a sample call that works as it is. */
function QuickStartCard() {
  const id = useId();
  const formats = useFormats();
  const list = formats.data ?? [];
  const [chosenId, setChosenId] = useState<string | undefined>();
  const format = list.find((f) => f.id === chosenId) ?? list[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Call the API</CardTitle>
        <CardDescription>
          Send the key as a bearer token, with a format’s id and its <code className="font-mono">data</code>.{' '}
          <code className="font-mono">GET /api/v1/formats</code> lists your formats, and <code className="font-mono">GET /api/v1/formats/{'{id}'}</code> answers
          this example as <code className="font-mono">example</code>.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <QueryState query={formats} loading={<LoadingText>Loading formats...</LoadingText>} errorText="Could not load your formats.">
          {() =>
            format ? (
              <div className="space-y-4">
                <div className="grid gap-2">
                  <Label htmlFor={`${id}-format`}>Format</Label>
                  <NativeSelect id={`${id}-format`} value={format.id} onChange={(e) => setChosenId(e.target.value)} className="sm:max-w-sm">
                    {list.map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.name}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
                <FormatApiDetails format={format} />
              </div>
            ) : (
              <div className="space-y-3">
                <p className="text-sm text-muted-foreground">Create a format first: its id and example data appear here, ready to send.</p>
                <pre
                  role="region"
                  aria-label="Sample call"
                  tabIndex={0}
                  className="overflow-x-auto rounded-lg bg-slate-950 p-4 text-[0.8125rem] leading-relaxed text-slate-100"
                >
                  <code>{curlSample({ formatId: FORMAT_ID_STANDIN, data: {} })}</code>
                </pre>
              </div>
            )
          }
        </QueryState>
        <Button variant="outline" asChild>
          <a href="/docs/api">
            <BookOpenIcon /> API reference
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

function UsageCard() {
  const [keyId, setKeyId] = useState<string | undefined>();
  const usage = useApiUsage(keyId, true);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Usage</CardTitle>
        <CardDescription>Every call made with your keys in the last {API_USAGE_DAYS} days, by UTC day.</CardDescription>
      </CardHeader>
      <CardContent>
        <UsagePanel
          usage={usage}
          keyId={keyId}
          onKeyChange={setKeyId}
          csvHref={usageCsvUrl(keyId)}
          loading={
            <div className="space-y-3" role="status" aria-label="Loading usage">
              <Skeleton className="h-16 w-full" />
              <Skeleton className="h-[260px] w-full" />
            </div>
          }
          errorText="Could not load your usage."
        />
      </CardContent>
    </Card>
  );
}

/** Settings → API Access: the plan's keys, or how to get them. */
export function ApiAccessTab({ hasAccess }: { hasAccess: boolean }) {
  const keys = useApiKeys(hasAccess);
  const revoke = useRevokeApiKey();
  const [created, setCreated] = useState<TCreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<TApiKey | null>(null);
  const { salesEmail } = useContactEmails();

  if (!hasAccess) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>API access comes with the Enterprise plan</CardTitle>
          <CardDescription>
            Generate documents from your own software: create keys here, call the API, and every document counts against one monthly quota with the ones made in
            the app.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {salesEmail ? (
            <Button asChild>
              <a href={mailto(salesEmail, 'Formwork Enterprise plan and API access')}>
                <MailIcon /> Contact Sales
              </a>
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground">Ask the administrator of this installation for the Enterprise plan.</p>
          )}
        </CardContent>
      </Card>
    );
  }

  return (
    <div className="space-y-6">
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}
      <Card>
        <CardHeader>
          <CardTitle>API keys</CardTitle>
          <CardDescription>Each key acts as you. Give each app its own, so you can revoke one without stopping the others.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <QueryState
            query={keys}
            loading={<LoadingText>Loading keys...</LoadingText>}
            errorText="Could not load your keys."
            isEmpty={(keys.data ?? []).length === 0}
            empty={<p className="text-sm text-muted-foreground">No keys yet.</p>}
          >
            <ul className="divide-y" aria-label="API keys">
              {(keys.data ?? []).map((k) => (
                <KeyRow key={k.id} apiKey={k} onRevoke={() => setRevoking(k)} />
              ))}
            </ul>
          </QueryState>
          <div className="border-t pt-5">
            <CreateKeyForm onCreated={setCreated} />
          </div>
        </CardContent>
      </Card>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <TriangleAlertIcon className="mt-px size-3.5 shrink-0 text-warning" aria-hidden />
        Keys are stored hashed: we cannot show a key again. If one is lost, revoke it and create another.
      </p>
      <QuickStartCard />
      <UsageCard />
      <WebhooksCard />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        description="Requests with this key are refused from the next one on. This cannot be undone."
        confirmLabel="Revoke key"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              toast({ title: 'API Key Revoked', description: `${revoking.name} no longer works.` });
              setRevoking(null);
            },
            onError: toastApiError('Error', 'The key could not be revoked.'),
          });
        }}
      />
    </div>
  );
}
