import {
  ArrowDownIcon,
  CalendarClockIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  CheckCircle2Icon,
  ClockIcon,
  FileSignatureIcon,
  Loader2Icon,
  LinkIcon,
  XCircleIcon,
} from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { TSigningSession, TSignResult } from '../../../../contract/signature-requests';
import { LogoMark } from '../../../components/layout/logo';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { IconTile } from '../../../components/ui/icon-tile';
import { PdfPages } from '../../../components/ui/pdf-pages';
import { Skeleton } from '../../../components/ui/skeleton';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { errorStatus, readApiError } from '../../../lib/api';
import { cn, formatDate } from '../../../lib/utils';
import { signerBoxMarks } from './box-marks';
import { SignPanel } from './sign-panel';
import { useSigningPdf, useSigningSession } from './signer-api';

/** Keeps search engines off the page while it is shown; the link is a secret. */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

function Brand() {
  return (
    <header className="border-b bg-background/80">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4 sm:px-6">
        <LogoMark className="size-6" />
        <span className="text-[15px] font-semibold tracking-tight">Formwork</span>
        <span className="ml-auto text-xs text-muted-foreground">Signature request</span>
      </div>
    </header>
  );
}

/** A page that says one thing: the link is not valid, or it is done. Its heading takes focus, so it is read out. */
function Outcome({ icon: Icon, tone, title, children }: { icon: typeof LinkIcon; tone: 'muted' | 'success'; title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card className="mx-auto mt-6 max-w-lg px-6 py-12 text-center sm:mt-10 sm:px-10">
      <span
        className={cn(
          'mx-auto flex size-12 items-center justify-center rounded-full',
          tone === 'success' ? 'bg-emerald-50 text-emerald-700' : 'bg-muted text-muted-foreground',
        )}
      >
        <Icon className="size-6" aria-hidden />
      </span>
      <h1 ref={heading} tabIndex={-1} className="mt-5 text-xl font-semibold tracking-tight outline-none">
        {title}
      </h1>
      <div className="mt-2 text-sm text-muted-foreground">{children}</div>
    </Card>
  );
}

function DocumentHeader({ session }: { session: TSigningSession }) {
  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6">
      <div className="flex min-w-0 items-start gap-3">
        <IconTile icon={FileSignatureIcon} size="xl" tone="document" />
        <div className="min-w-0">
          <h1 className="text-lg font-semibold tracking-tight break-words sm:text-xl" dir="auto" data-testid="signing-document-name">
            {session.documentName}
          </h1>
          <p className="mt-1 text-sm text-muted-foreground">
            <bdi className="font-medium text-foreground">{session.senderName}</bdi> asks you to sign
          </p>
          <p className="mt-1 inline-flex items-center gap-1 text-xs text-muted-foreground">
            <CalendarClockIcon className="size-3.5" aria-hidden /> Open until {formatDate(session.expiresAt)}
          </p>
        </div>
      </div>
      {session.message && (
        <figure className="rounded-lg border-l-4 border-primary/40 bg-muted/50 px-4 py-3 text-sm">
          <figcaption className="text-xs text-muted-foreground">
            Message from <bdi>{session.senderName}</bdi>
          </figcaption>
          <blockquote className="mt-1 break-words whitespace-pre-line" dir="auto">
            {session.message}
          </blockquote>
        </figure>
      )}
    </Card>
  );
}

/** Steps through the signer's highlighted boxes, in the order they come in the document. */
function FieldSteps({ count, active, onGo }: { count: number; active: number; onGo: (index: number) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 border-b bg-background px-3 py-2" role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className="mr-auto text-sm text-muted-foreground" aria-live="polite">
        Your fields: <span className="font-medium text-foreground">{count > 1 ? `${active + 1} of ${count}` : 'highlighted'}</span>
      </p>
      {count > 1 && (
        <Button variant="outline" size="icon-sm" onClick={() => onGo((active + count - 1) % count)} aria-label="Previous field">
          <ChevronLeftIcon aria-hidden />
        </Button>
      )}
      <Button variant="outline" size="sm" onClick={() => onGo(count > 1 ? (active + 1) % count : 0)}>
        {count > 1 ? 'Next field' : 'Show field'} <ChevronRightIcon aria-hidden />
      </Button>
    </div>
  );
}

function DocumentPages({ token, session, className }: { token: string; session: TSigningSession; className?: string }) {
  const pdf = useSigningPdf(token, session.pdfUrl);
  // Only this signer's boxes: their labels name their role.
  const marks = useMemo(() => signerBoxMarks(session.fields, session.signer.role), [session.fields, session.signer.role]);
  const [found, setFound] = useState(0);
  const [step, setStep] = useState<{ active: number; scrollKey?: number }>({ active: 0 });
  return (
    <Card className={cn('flex flex-col overflow-hidden bg-muted/60 p-0', className)}>
      {pdf.data && found > 0 && (
        <FieldSteps
          count={found}
          active={Math.min(step.active, found - 1)}
          onGo={(active) => setStep((current) => ({ active, scrollKey: (current.scrollKey ?? 0) + 1 }))}
        />
      )}
      <div className="relative min-h-0 flex-1">
        {pdf.data ? (
          <PdfPages
            pdf={pdf.data}
            label={`Pages of ${session.documentName}`}
            className="absolute inset-0"
            marks={marks}
            activeMark={Math.min(step.active, Math.max(found - 1, 0))}
            scrollKey={step.scrollKey}
            onMarks={setFound}
          />
        ) : (
          <div className="flex h-full items-center justify-center gap-2 px-4 text-center text-sm text-muted-foreground" role="status">
            {pdf.error ? (
              'The document could not be loaded. Reload the page to try again.'
            ) : (
              <>
                <Loader2Icon className="size-4 animate-spin" aria-hidden /> Loading the document…
              </>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}

/** On phones the panel is below a long document: a bar at the bottom takes the signer there, until it is in view. */
function JumpToPanel({ panelId }: { panelId: string }) {
  const [panelInView, setPanelInView] = useState(false);
  useEffect(() => {
    const panel = document.getElementById(panelId);
    if (!panel || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setPanelInView(entry?.isIntersecting ?? false));
    observer.observe(panel);
    return () => observer.disconnect();
  }, [panelId]);
  if (panelInView) return null;
  return (
    <div className="fixed inset-x-0 bottom-0 z-40 border-t bg-background/95 px-4 py-3 shadow-elevated backdrop-blur lg:hidden">
      <div className="mx-auto flex max-w-xl items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">Read the document, then sign.</p>
        <Button
          onClick={() => {
            const panel = document.getElementById(panelId);
            panel?.scrollIntoView({ behavior: 'smooth', block: 'start' });
            panel?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
          }}
        >
          <ArrowDownIcon aria-hidden /> Go to signing
        </Button>
      </div>
    </div>
  );
}

type TOutcome = { kind: 'signed'; result: TSignResult } | { kind: 'declined' };

/** `/sign/{token}`: one signer's page, for someone without an account. */
export function SigningView({ token }: { token: string }) {
  const session = useSigningSession(token);
  const [outcome, setOutcome] = useState<TOutcome | null>(null);
  useNoIndex();
  const data = session.data;
  useDocumentTitle(outcome ? (outcome.kind === 'signed' ? 'Signed' : 'Declined') : data ? `Sign ${data.documentName}` : 'Sign a document');

  let body: ReactNode;
  if (session.isLoading) {
    body = (
      <div className="space-y-4" aria-busy>
        <Skeleton className="h-28" />
        <Skeleton className="h-[60vh]" />
      </div>
    );
  } else if (outcome?.kind === 'signed') {
    body = (
      <Outcome icon={CheckCircle2Icon} tone="success" title={outcome.result.requestStatus === 'completed' ? 'Everyone has signed.' : 'Signed.'}>
        <p className="font-medium text-foreground" dir="auto">
          {data?.documentName}
        </p>
        <p className="mt-2">
          {outcome.result.requestStatus === 'completed'
            ? 'The signed PDF is on its way to your inbox.'
            : 'You will receive the signed PDF by email once everyone has signed.'}
        </p>
      </Outcome>
    );
  } else if (outcome?.kind === 'declined') {
    body = (
      <Outcome icon={XCircleIcon} tone="muted" title="You declined to sign.">
        <bdi>{data?.senderName ?? 'The sender'}</bdi> has been told.
      </Outcome>
    );
  } else if (!data) {
    body =
      errorStatus(session.error) === 404 ? (
        <Outcome icon={LinkIcon} tone="muted" title="This signing link is not valid">
          It may have been used already, or the request has expired or was cancelled. Ask the sender for a new link.
        </Outcome>
      ) : (
        <Outcome icon={LinkIcon} tone="muted" title="The signing page could not be loaded">
          <p>{readApiError(session.error, 'Something went wrong. Try again.').message}</p>
          <Button variant="outline" className="mt-4" onClick={() => void session.refetch()}>
            Try again
          </Button>
        </Outcome>
      );
  } else if (data.turn === 'waiting') {
    body = (
      <div className="space-y-5">
        <DocumentHeader session={data} />
        <Alert variant="info">
          <ClockIcon aria-hidden />
          <AlertDescription>
            <p>
              It is not your turn yet: <bdi>{data.waitingFor.join(', ') || 'someone else'}</bdi> {data.waitingFor.length > 1 ? 'sign' : 'signs'} first. We will
              email you when it is.
            </p>
          </AlertDescription>
        </Alert>
        <DocumentPages token={token} session={data} className="h-[70dvh] lg:h-[min(80vh,1100px)]" />
      </div>
    );
  } else {
    body = (
      <div className="space-y-5 pb-20 lg:pb-0">
        <DocumentHeader session={data} />
        <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_400px]">
          {/* The document stays in view beside the panel while the signer works down it. */}
          <DocumentPages token={token} session={data} className="h-[70dvh] lg:sticky lg:top-4 lg:h-[calc(100dvh-2rem)] lg:max-h-[1200px]" />
          <div id="sign-panel" className="scroll-mt-4">
            <SignPanel
              token={token}
              session={data}
              onSigned={(result) => setOutcome({ kind: 'signed', result })}
              onDeclined={() => setOutcome({ kind: 'declined' })}
            />
          </div>
        </div>
        <JumpToPanel panelId="sign-panel" />
      </div>
    );
  }

  return (
    <div className="min-h-dvh bg-muted/40">
      <Brand />
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-10">
        {body}
        <p className="mt-8 text-center text-xs text-muted-foreground">
          Sent with Formwork.{data && !outcome && ' This page shows only the document its link was made for.'}
        </p>
      </main>
    </div>
  );
}
