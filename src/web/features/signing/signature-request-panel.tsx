import { useQueryClient } from '@tanstack/react-query';
import { BellRingIcon, CopyIcon, DownloadIcon, Loader2Icon, PenLineIcon, ShieldAlertIcon, ShieldCheckIcon, XCircleIcon } from 'lucide-react';
import { Fragment, useEffect, useRef, useState } from 'react';
import { isOpenRequest, signatureEventText, type TSignatureRequest, type TSignatureRequestDetail, type TSigner } from '../../../contract/signature-requests';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '../../components/ui/accordion';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { NativeSelect } from '../../components/ui/native-select';
import { Skeleton } from '../../components/ui/skeleton';
import { toast, toastApiError } from '../../hooks/use-toast';
import { readApiError } from '../../lib/api';
import { documentKeys } from '../../lib/query-keys';
import { formatDate } from '../../lib/utils';
import { useCancelSignatureRequest, useRemindSigners, useSignatureRequest } from './api';
import { signatureRequestKeys, signedPdfUrl, useDocumentSignatureRequests } from './document-requests';
import { RequestStatusBadge, requestStatusLabel, SignerStatusBadge } from './status-badges';

/** Events of the sender's own doing; the rest without a signer are Formwork's (sealing, expiry). */
const SENDER_EVENTS = new Set(['created', 'cancelled']);

/** When the signer got their link, opened it, and signed or declined; each time kept on one line. */
function SignerTimes({ signer }: { signer: TSigner }) {
  const times = [
    signer.notifiedAt && `Invited ${formatDate(signer.notifiedAt, true)}`,
    signer.viewedAt && `Viewed ${formatDate(signer.viewedAt, true)}`,
    signer.signedAt && `Signed ${formatDate(signer.signedAt, true)}`,
    signer.declinedAt && `Declined ${formatDate(signer.declinedAt, true)}`,
  ].filter(Boolean);
  if (times.length === 0) return <p className="text-xs text-muted-foreground">Gets their link once the signers before them have signed.</p>;
  return <Pieces className="text-xs text-muted-foreground" pieces={times as string[]} />;
}

/** Parts of a line joined by dots, wrapping between parts rather than inside one. */
function Pieces({ pieces, className }: { pieces: string[]; className?: string }) {
  return (
    <p className={className}>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {i > 0 && ' · '}
          <span className="whitespace-nowrap">{piece}</span>
        </Fragment>
      ))}
    </p>
  );
}

function SignerItem({ signer, open }: { signer: TSigner; open: boolean }) {
  const copy = () =>
    void navigator.clipboard.writeText(signer.signUrl).then(
      () => toast({ title: 'Link copied', description: `Only ${signer.name} should open it: it signs as them.` }),
      () => toast({ variant: 'destructive', title: 'The link could not be copied', description: signer.signUrl }),
    );
  return (
    <li className="grid gap-2 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-4" data-testid="signer">
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="text-sm font-medium break-words">{signer.name}</span>
          <SignerStatusBadge status={signer.status} />
        </div>
        <p className="text-xs break-words text-muted-foreground">
          {signer.email} · <span className="whitespace-nowrap">Signer {signer.role}</span> · <span className="whitespace-nowrap">Order {signer.order}</span>
        </p>
        <SignerTimes signer={signer} />
        {signer.declineReason && (
          <p className="text-xs break-words text-destructive">
            <span className="font-medium">Reason:</span> {signer.declineReason}
          </p>
        )}
      </div>
      {open && signer.status !== 'signed' && signer.status !== 'declined' && (
        <Button variant="outline" size="sm" className="justify-self-start" onClick={copy} aria-label={`Copy link for ${signer.name}`}>
          <CopyIcon aria-hidden /> Copy link
        </Button>
      )}
    </li>
  );
}

function AuditTrail({ request }: { request: TSignatureRequestDetail }) {
  const { audit } = request;
  const names = new Map(request.signers.map((s) => [s.id, s.name]));
  return (
    <Accordion type="single" collapsible className="rounded-lg border px-3">
      <AccordionItem value="audit">
        <AccordionTrigger className="py-3">
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            Audit trail <span className="font-normal text-muted-foreground">({audit.events.length} events)</span>
            {audit.intact ? (
              <span className="inline-flex items-center gap-1 text-xs font-normal text-[oklch(0.45_0.12_155)]">
                <ShieldCheckIcon className="size-3.5" aria-hidden /> Audit trail intact
              </span>
            ) : (
              <span className="inline-flex items-center gap-1 text-xs font-normal text-destructive">
                <ShieldAlertIcon className="size-3.5" aria-hidden /> Audit trail broken
              </span>
            )}
          </span>
        </AccordionTrigger>
        <AccordionContent>
          {!audit.intact && audit.problem && (
            <p className="mb-2 text-sm break-words text-destructive" role="alert">
              {audit.problem}
            </p>
          )}
          <ol className="grid gap-2 text-xs" data-testid="audit-events">
            {audit.events.map((event) => (
              <li key={event.seq} className="grid gap-0.5 border-l-2 border-border pl-3">
                <span className="font-medium text-foreground">{signatureEventText(event.type)}</span>
                <Pieces
                  pieces={[
                    formatDate(event.at, true),
                    event.signerId ? (names.get(event.signerId) ?? 'A signer') : SENDER_EVENTS.has(event.type) ? 'You' : 'Formwork',
                    ...(event.ip ? [`IP ${event.ip}`] : []),
                  ]}
                />
              </li>
            ))}
          </ol>
        </AccordionContent>
      </AccordionItem>
    </Accordion>
  );
}

/** The dates that matter for the request's status, as parts of a line. */
function requestDates(request: TSignatureRequest): string[] {
  const sent = `Sent ${formatDate(request.createdAt, true)}`;
  if (request.completedAt) return [sent, `Completed ${formatDate(request.completedAt, true)}`];
  if (request.endedAt) return [sent, `${requestStatusLabel(request.status)} ${formatDate(request.endedAt, true)}`];
  return [sent, `Open until ${formatDate(request.expiresAt)}`];
}

function RequestDetail({ requestId, onSendAgain, onClose }: { requestId: string; onSendAgain?: () => void; onClose: () => void }) {
  const detail = useSignatureRequest(requestId);
  const remind = useRemindSigners();
  const cancel = useCancelSignatureRequest();
  const [confirming, setConfirming] = useState(false);
  const client = useQueryClient();
  const lastStatus = useRef<string | null>(null);
  const status = detail.data?.status ?? null;
  const documentId = detail.data?.documentId;
  useEffect(() => {
    // Signers change the document's status from elsewhere: the lists behind the panel follow.
    if (lastStatus.current && status && lastStatus.current !== status) {
      void client.invalidateQueries({ queryKey: documentKeys.all });
      if (documentId) void client.invalidateQueries({ queryKey: signatureRequestKeys.ofDocument(documentId) });
    }
    lastStatus.current = status;
  }, [client, status, documentId]);

  if (!detail.data) {
    return detail.error ? (
      <p className="text-sm text-destructive" role="alert">
        {readApiError(detail.error, 'Could not load the request.').message}
      </p>
    ) : (
      <div className="grid gap-3" aria-busy>
        <Skeleton className="h-6 w-40" />
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  const request = detail.data;
  const open = isOpenRequest(request.status);
  const sendReminder = () =>
    remind.mutate(request.id, {
      onSuccess: () => toast({ title: 'Reminder sent', description: 'Everyone whose turn it is and who has not signed gets their link again.' }),
      onError: toastApiError('No reminder sent'),
    });
  const cancelRequest = () =>
    cancel.mutate(request.id, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: 'Request cancelled', description: 'The signing links no longer work.' });
      },
      onError: (error) => {
        setConfirming(false);
        toastApiError('The request could not be cancelled')(error);
      },
    });

  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <RequestStatusBadge status={request.status} />
        <Pieces className="text-xs text-muted-foreground" pieces={requestDates(request)} />
      </div>
      {request.message && <p className="rounded-lg bg-muted/50 px-3 py-2 text-sm break-words whitespace-pre-line">{request.message}</p>}
      <section aria-label="Signers">
        <ul className="divide-y rounded-lg border px-3 sm:px-4">
          {request.signers.map((signer) => (
            <SignerItem key={signer.id} signer={signer} open={open} />
          ))}
        </ul>
        {request.cc.length > 0 && <p className="mt-2 text-xs break-words text-muted-foreground">Copy of the signed PDF to {request.cc.join(', ')}</p>}
      </section>
      <AuditTrail request={request} />
      <DialogFooter className="sm:justify-between">
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          {open && (
            <Button variant="ghost" className="text-destructive hover:bg-destructive/10 hover:text-destructive" onClick={() => setConfirming(true)}>
              <XCircleIcon aria-hidden /> Cancel request
            </Button>
          )}
          {!open && request.status !== 'completed' && onSendAgain && (
            <Button variant="outline" onClick={onSendAgain}>
              <PenLineIcon aria-hidden /> Send again
            </Button>
          )}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="outline" onClick={onClose}>
            Done
          </Button>
          {open && (
            <Button onClick={sendReminder} disabled={remind.isPending}>
              {remind.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <BellRingIcon aria-hidden />}
              Send reminder
            </Button>
          )}
          {request.status === 'completed' && (
            <Button asChild>
              <a href={signedPdfUrl(request.id)} download>
                <DownloadIcon aria-hidden /> Download signed PDF
              </a>
            </Button>
          )}
        </div>
      </DialogFooter>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Cancel this signature request?"
        description="The signers’ links stop working and the document goes back to Generated. Signatures already given are not kept."
        confirmLabel="Yes, cancel it"
        pendingLabel="Cancelling..."
        pending={cancel.isPending}
        onConfirm={cancelRequest}
      />
    </div>
  );
}

/**
 * Where a document's signature request stands: each signer's progress and link, reminders, cancel,
 * the signed PDF and the audit trail. Polls while the request is open. Earlier requests of the
 * same document can be picked from a list.
 */
export function SignatureRequestPanel({
  document,
  onOpenChange,
  onSendAgain,
}: {
  document: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
  onSendAgain?: () => void;
}) {
  const requests = useDocumentSignatureRequests(document?.id ?? '', document !== null);
  const [picked, setPicked] = useState<string | null>(null);
  const list = requests.data ?? [];
  const current = list.find((r) => r.id === picked) ?? list[0];
  return (
    <Dialog open={document !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        {document && (
          <>
            <DialogHeader>
              <DialogTitle>Signature status</DialogTitle>
              <DialogDescription className="break-words">
                <span className="font-medium text-foreground">{document.name}</span>
              </DialogDescription>
            </DialogHeader>
            {list.length > 1 && (
              <NativeSelect size="sm" aria-label="Request" value={current?.id} onChange={(e) => setPicked(e.target.value)} className="sm:w-80">
                {list.map((r, index) => (
                  <option key={r.id} value={r.id}>
                    {index === 0 ? 'Latest' : 'Earlier'}: {requestStatusLabel(r.status)}, sent {formatDate(r.createdAt, true)}
                  </option>
                ))}
              </NativeSelect>
            )}
            {current ? (
              <RequestDetail
                key={current.id}
                requestId={current.id}
                // Only once the newest request has ended: the server keeps one open request per document.
                onSendAgain={current.id === list[0]?.id ? onSendAgain : undefined}
                onClose={() => onOpenChange(false)}
              />
            ) : requests.isLoading ? (
              <Skeleton className="h-32" />
            ) : requests.error ? (
              <p className="text-sm text-destructive" role="alert">
                {readApiError(requests.error, 'Could not load the signature requests.').message}
              </p>
            ) : (
              <p className="text-sm text-muted-foreground">This document has not been sent for signature.</p>
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
