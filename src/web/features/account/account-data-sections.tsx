import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { DownloadIcon, Loader2Icon, PackageIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { type TAccountExport, type TAccountExportStatus, ZDeleteAccountBody } from '../../../contract/account-data';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { LoadError } from '../../components/ui/load-error';
import { toast } from '../../hooks/use-toast';
import { api, readApiError, request } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { authKeys } from '../../lib/query-keys';
import { formatBytes, formatDate } from '../../lib/utils';
import { Field, ServerAlert, useFormMutation, SubmitButton } from './form-parts';

type TDeleteInput = z.input<typeof ZDeleteAccountBody>;
type TDeleteOutput = z.output<typeof ZDeleteAccountBody>;

const EXPORT_CONTENTS = [
  'every format, as JSON you can import again through the API, and your uploaded images',
  'every document’s PDF, with its data as JSON and CSV',
  'your invoices',
  'your profile, plan, API key names, webhooks, email settings and share links (never passwords or secrets)',
];

/** Saves a blob under a file name, as a download from the page would. */
function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function ExportProgress({ latest }: { latest: TAccountExport }) {
  if (latest.kind !== 'background') return null;
  if (latest.status === 'running') {
    const percent = latest.documentsTotal ? Math.round((latest.documentsDone / latest.documentsTotal) * 100) : 0;
    return (
      <div className="grid gap-2" role="status" data-testid="export-progress">
        <p className="text-sm">
          Preparing your export: {latest.documentsDone.toLocaleString('en-US')} of {latest.documentsTotal.toLocaleString('en-US')} documents. We will email you
          a link when it is ready.
        </p>
        <div
          className="h-2 overflow-hidden rounded-full bg-muted"
          role="progressbar"
          aria-label="Export progress"
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      </div>
    );
  }
  if (latest.status === 'ready' && latest.downloadUrl) {
    return (
      <Alert role="status" data-testid="export-ready">
        <PackageIcon />
        <AlertTitle>Your export is ready</AlertTitle>
        <AlertDescription className="grid gap-3">
          <span>
            {latest.bytes !== null ? `${formatBytes(latest.bytes)}, ` : ''}made {formatDate(latest.createdAt, true)}. The link works for you until{' '}
            {formatDate(latest.expiresAt ?? undefined, true)}.
          </span>
          <Button asChild variant="outline" className="w-full sm:w-fit">
            <a href={latest.downloadUrl} download>
              <DownloadIcon aria-hidden />
              Download export
            </a>
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  if (latest.status === 'failed') {
    return <p className="text-sm text-destructive">Your last export could not be finished. Please start a new one.</p>;
  }
  if (latest.status === 'expired') {
    return <p className="text-sm text-muted-foreground">Your last export’s link has expired. Start a new one to download your data.</p>;
  }
  return null;
}

/** Settings → Profile → Your data: one ZIP of everything in the account. */
export function YourDataCard() {
  const status = useQuery({
    queryKey: authKeys.dataExport,
    queryFn: ({ signal }) => api.get<TAccountExportStatus>('/api/user/exports/status', signal),
    refetchInterval: (query) => (query.state.data?.latest?.status === 'running' && query.state.data.latest.kind === 'background' ? 2_000 : false),
  });
  const [error, setError] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: async () => {
      const res = await request('GET', '/api/user/export');
      if (res.status === 202) return { background: true as const };
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'formwork-data.zip';
      saveBlob(await res.blob(), name);
      return { background: false as const };
    },
    onSuccess: ({ background }) => {
      void queryClient.invalidateQueries({ queryKey: authKeys.dataExport });
      toast(
        background
          ? { title: 'Export started', description: 'Your account is large, so we are preparing the file. We will email you when it is ready.' }
          : { title: 'Export downloaded' },
      );
    },
    onError: (cause) => setError(readApiError(cause, 'Could not export your data. Please try again.').message),
  });
  const data = status.data;
  const running = data?.latest?.status === 'running' && data.latest.kind === 'background';
  return (
    <Card id="your-data">
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>Download everything your account holds as one ZIP file, to keep or to take elsewhere.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ul className="grid list-disc gap-1 pl-5 text-sm text-muted-foreground">
          {EXPORT_CONTENTS.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {status.isError ? (
          <LoadError error={status.error} fallback="Could not load your exports. Reload the page to try again." />
        ) : data ? (
          <>
            {data.latest && <ExportProgress latest={data.latest} />}
            <p className="text-[13px] text-muted-foreground">
              Accounts with more than {data.backgroundAbove.toLocaleString('en-US')} {data.backgroundAbove === 1 ? 'document' : 'documents'} are prepared in the
              background, and you get a link by email. You can export {data.perDay} times a day; {data.remainingToday} left today.
            </p>
          </>
        ) : null}
        <ServerAlert message={error} />
        <Button
          className="w-full sm:w-fit"
          disabled={start.isPending || running || data?.remainingToday === 0}
          onClick={() => {
            setError(null);
            start.mutate();
          }}
        >
          {start.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <DownloadIcon aria-hidden />}
          {start.isPending ? 'Preparing...' : 'Export my data'}
        </Button>
      </CardContent>
    </Card>
  );
}

const GOES = [
  'your formats, documents and uploaded images',
  'batches, share links and emails sent from the app',
  'API keys, webhooks and your email settings',
  'any paid subscription, cancelled at once so nothing more is charged',
  'every signed-in session, and this account',
];

function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const form = useForm<TDeleteInput, unknown, TDeleteOutput>({ resolver: zodResolver(ZDeleteAccountBody), defaultValues: { password: '', code: '' } });
  const [askCode, setAskCode] = useState(false);
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: async (body: TDeleteOutput) => {
      await request('DELETE', '/api/user', { json: body });
    },
    onSuccess: () => {
      queryClient.clear();
      window.location.assign('/');
    },
    onFailure: (error) => {
      if (readApiError(error).fields.code) setAskCode(true);
    },
    failure: 'Could not delete your account. Please try again.',
  });
  return (
    <Dialog open={open} onOpenChange={(next) => !mutation.isPending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete your account?</DialogTitle>
          <DialogDescription>This cannot be undone. Export your data first if you want to keep it. Deleting removes:</DialogDescription>
        </DialogHeader>
        <ul className="grid list-disc gap-1 pl-5 text-sm">
          {GOES.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="text-sm text-muted-foreground">
          Invoices for payments you made are kept, no longer linked to an account, for the seller’s accounting records.
        </p>
        <form noValidate aria-label="Delete account" className="grid gap-4" onSubmit={onSubmit}>
          <ServerAlert message={serverError} />
          <Field form={anyForm} name="password" label="Your password" type="password" autoComplete="current-password" />
          {askCode && <Field form={anyForm} name="code" label="Code from your authenticator app" autoComplete="one-time-code" />}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={mutation.isPending} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <SubmitButton pending={mutation.isPending} label="Delete my account" pendingLabel="Deleting..." variant="destructive" />
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Settings → Profile's danger zone. */
export function DeleteAccountCard() {
  const [open, setOpen] = useState(false);
  return (
    <Card className="border-destructive/40" id="delete-account">
      <CardHeader>
        <CardTitle>Delete account</CardTitle>
        <CardDescription>Removes your account and everything in it for good. Your password is needed to confirm.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" className="w-full sm:w-fit" onClick={() => setOpen(true)}>
          <Trash2Icon aria-hidden />
          Delete my account
        </Button>
        {open && <DeleteAccountDialog open={open} onOpenChange={setOpen} />}
      </CardContent>
    </Card>
  );
}
