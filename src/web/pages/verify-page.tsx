import { useMutation } from '@tanstack/react-query';
import { CircleAlertIcon, FileCheck2Icon, FileXIcon, Loader2Icon, ShieldAlertIcon, ShieldCheckIcon, UploadCloudIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type DragEvent, type ReactNode, type Ref } from 'react';
import type { TVerifyResult } from '../../contract/signature-requests';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { MarketingLayout } from '../features/marketing/marketing-layout';
import { useDocumentTitle } from '../hooks/use-document-title';
import { api } from '../lib/api';
import { cn, formatDate } from '../lib/utils';

/** The server's own limit (verify.routes.ts): a larger file is refused here before it is sent. */
const MAX_MB = 50;
// The success token is a light green meant for fills; text in it needs a darker shade to be read.
const SUCCESS_TEXT = 'text-[oklch(0.42_0.12_155)]';

function useVerify() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.upload<TVerifyResult>('/api/verify', form);
    },
  });
}

function DropZone({ busy, fileName, onFile }: { busy: boolean; fileName: string | null; onFile: (file: File) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const hintId = useId();
  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (file) onFile(file);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!busy) take(event.dataTransfer.files);
  };
  return (
    <div
      data-testid="verify-drop-zone"
      onDragEnter={(e) => {
        e.preventDefault();
        if (!busy) setDragging(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = busy ? 'none' : 'copy';
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      className={cn(
        'flex flex-col items-center justify-center rounded-xl border-2 border-dashed px-5 py-10 text-center transition-colors',
        dragging ? 'border-primary bg-primary-soft' : 'border-input bg-muted/30',
      )}
    >
      <span className="mb-3 flex size-11 items-center justify-center rounded-full bg-background shadow-card ring-1 ring-border" aria-hidden>
        {busy ? <Loader2Icon className="size-5 animate-spin text-primary" /> : <UploadCloudIcon className="size-5 text-primary" />}
      </span>
      {busy ? (
        <p role="status" className="text-sm font-medium break-all">
          Checking {fileName ?? 'the PDF'}…
        </p>
      ) : (
        <>
          <p className="text-sm font-medium">{dragging ? 'Drop the PDF to check it' : 'Drag the signed PDF here, or choose it'}</p>
          <p id={hintId} className="mt-1 text-sm text-muted-foreground">
            A PDF up to {MAX_MB} MB. It is checked and not kept.
          </p>
          <Button className="mt-4" size="lg" onClick={() => inputRef.current?.click()} aria-describedby={hintId}>
            Choose a PDF
          </Button>
        </>
      )}
      <input
        ref={inputRef}
        type="file"
        accept="application/pdf,.pdf"
        aria-label="Signed PDF to check"
        className="sr-only"
        tabIndex={-1}
        disabled={busy}
        onChange={(e) => {
          const files = e.target.files;
          take(files);
          // Emptied, so the same file can be chosen again.
          e.target.value = '';
        }}
      />
    </div>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

/** What the server said of the file, in words a recipient can act on. */
function ResultCard({ result, fileName, headingRef }: { result: TVerifyResult; fileName: string; headingRef: Ref<HTMLHeadingElement> }) {
  const installation = window.location.hostname;
  const request = result.request;
  return (
    <Card
      data-testid="verify-result"
      className={cn('overflow-hidden border-2 p-0', result.valid ? 'border-success/60' : 'border-destructive/50')}
      aria-labelledby="verify-result-title"
    >
      <div className={cn('flex items-start gap-3 px-5 py-4 sm:px-6', result.valid ? 'bg-success-soft' : 'bg-destructive/5')}>
        {result.valid ? (
          <ShieldCheckIcon className={cn('mt-0.5 size-6 shrink-0', SUCCESS_TEXT)} aria-hidden />
        ) : (
          <ShieldAlertIcon className="mt-0.5 size-6 shrink-0 text-destructive" aria-hidden />
        )}
        <div className="min-w-0">
          <h2
            id="verify-result-title"
            ref={headingRef}
            tabIndex={-1}
            className={cn('text-lg font-semibold tracking-tight outline-none', result.valid ? SUCCESS_TEXT : 'text-destructive')}
          >
            {result.valid ? `Sealed by ${installation} and unchanged` : 'Not verified'}
          </h2>
          <p className="mt-1 text-sm break-all text-muted-foreground">{fileName}</p>
          {result.reason && <p className="mt-2 text-sm text-foreground">{result.reason}</p>}
        </div>
      </div>
      {request && (
        <dl className="space-y-3 px-5 py-5 sm:px-6">
          <Detail label="Document">{request.documentName}</Detail>
          {request.completedAt && <Detail label="Completed">{formatDate(request.completedAt, true)}</Detail>}
          <Detail label={request.signers.length === 1 ? 'Signer' : 'Signers'}>
            <ul className="space-y-2">
              {request.signers.map((signer) => (
                <li key={`${signer.email}-${signer.name}`}>
                  <span className="block">{signer.name}</span>
                  <span className="block font-normal break-all text-muted-foreground">{signer.email}</span>
                  <span className="block font-normal text-muted-foreground">
                    {signer.signedAt ? `Signed ${formatDate(signer.signedAt, true)}` : 'Not signed'}
                  </span>
                </li>
              ))}
            </ul>
          </Detail>
          <Detail label="Audit trail">
            {request.auditIntact ? (
              <span className={cn('inline-flex items-center gap-1.5', SUCCESS_TEXT)}>
                <FileCheck2Icon className="size-4 shrink-0" aria-hidden /> Intact: every event is as it was recorded
              </span>
            ) : (
              <span className="inline-flex items-start gap-1.5 text-destructive">
                <FileXIcon className="mt-0.5 size-4 shrink-0" aria-hidden /> Broken: the request’s recorded events were changed after the fact
              </span>
            )}
          </Detail>
        </dl>
      )}
      <div className="border-t px-5 py-3 sm:px-6">
        <p className="text-xs text-muted-foreground">
          SHA-256 <span className="font-mono break-all">{result.sha256}</span>
        </p>
      </div>
    </Card>
  );
}

/** `/verify`: anyone holding a signed PDF checks that this installation sealed it and nothing changed since. */
export function VerifyPage() {
  useDocumentTitle('Verify a signed PDF');
  const verify = useVerify();
  const [fileName, setFileName] = useState<string | null>(null);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const result = verify.data;

  // The answer appears below the drop zone; keyboard and screen-reader users are taken to it.
  useEffect(() => {
    if (result) headingRef.current?.focus();
  }, [result]);

  const check = (file: File) => {
    setFileName(file.name);
    verify.reset();
    if (file.size > MAX_MB * 1024 * 1024) {
      setTooLarge(`${file.name} is larger than ${MAX_MB} MB, more than any sealed document here.`);
      return;
    }
    setTooLarge(null);
    verify.mutate(file);
  };
  const error = tooLarge ?? verify.error?.message ?? null;

  return (
    <MarketingLayout>
      <section aria-labelledby="verify-title" className="mx-auto w-full max-w-2xl px-4 py-12 sm:px-6 sm:py-20">
        <h1 id="verify-title" className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          Verify a signed PDF
        </h1>
        <p className="mt-3 text-base text-pretty text-muted-foreground">
          Documents signed here are sealed when the last signer signs. Check a copy you hold: the seal shows whether it came from this site and whether anything
          in it changed since.
        </p>
        <div className="mt-8">
          <DropZone busy={verify.isPending} fileName={fileName} onFile={check} />
        </div>
        <div aria-live="polite" className="mt-6 space-y-4">
          {error && (
            <p role="alert" className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm text-destructive">
              <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>{error}</span>
            </p>
          )}
          {result && fileName && <ResultCard result={result} fileName={fileName} headingRef={headingRef} />}
        </div>
      </section>
    </MarketingLayout>
  );
}
