import { CalendarClockIcon, DownloadIcon, ExternalLinkIcon, FileTextIcon, LinkIcon, Loader2Icon } from 'lucide-react';
import { LogoMark } from '../../components/layout/logo';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PdfPages } from '../../components/ui/pdf-pages';
import { Skeleton } from '../../components/ui/skeleton';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { errorStatus, readApiError } from '../../lib/api';
import { formatBytes, formatDate } from '../../lib/utils';
import { sharedPdfUrl, useSharedDocument, useSharedPdf } from './api';
import { IconTile } from '../../components/ui/icon-tile';

function Brand() {
  return (
    <header className="border-b bg-background/80">
      <div className="mx-auto flex h-14 max-w-5xl items-center gap-2 px-4 sm:px-6">
        <LogoMark className="size-6" />
        <span className="text-[15px] font-semibold tracking-tight">Formwork</span>
        <span className="ml-auto text-xs text-muted-foreground">Shared document</span>
      </div>
    </header>
  );
}

function Unavailable({ error }: { error: unknown }) {
  const notFound = errorStatus(error) === 404;
  return (
    <Card className="mx-auto mt-10 max-w-lg px-6 py-12 text-center sm:px-10">
      <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <LinkIcon className="size-5" aria-hidden />
      </span>
      <h1 className="mt-5 text-xl font-semibold tracking-tight">{notFound ? 'This link no longer opens a document' : 'The document could not be loaded'}</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        {notFound
          ? 'It may have expired, or its owner turned it off. Ask whoever sent it to you for a new link.'
          : readApiError(error, 'Something went wrong. Reload the page to try again.').message}
      </p>
    </Card>
  );
}

/** `/s/{token}`: a document someone shared, for a visitor without an account. */
export function SharedDocument({ token }: { token: string }) {
  const shared = useSharedDocument(token);
  const pdf = useSharedPdf(token, shared.isSuccess);
  useDocumentTitle(shared.data?.name ?? 'Shared document');
  const doc = shared.data;

  return (
    <div className="min-h-dvh bg-muted/40">
      <Brand />
      <main className="mx-auto max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
        {shared.isLoading ? (
          <div className="space-y-4" aria-busy>
            <Skeleton className="h-28" />
            <Skeleton className="h-[60vh]" />
          </div>
        ) : !doc ? (
          <Unavailable error={shared.error} />
        ) : (
          <div className="space-y-5">
            <Card className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6">
              <div className="flex min-w-0 items-start gap-3">
                <IconTile icon={FileTextIcon} size="xl" tone="document" />
                <div className="min-w-0">
                  <h1 className="text-lg font-semibold tracking-tight break-words sm:text-xl" data-testid="shared-name">
                    {doc.name}
                  </h1>
                  <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-muted-foreground">
                    <span>PDF · {formatBytes(doc.sizeBytes)}</span>
                    <span>Created {formatDate(doc.createdAt)}</span>
                    <span className="inline-flex items-center gap-1">
                      <CalendarClockIcon className="size-3.5" aria-hidden /> Link open until {formatDate(doc.expiresAt)}
                    </span>
                  </p>
                </div>
              </div>
              <div className="flex shrink-0 flex-col gap-2 sm:flex-row">
                <Button asChild size="lg">
                  <a href={sharedPdfUrl(token, true)} download>
                    <DownloadIcon aria-hidden /> Download PDF
                  </a>
                </Button>
                <Button asChild variant="outline" size="lg">
                  <a href={sharedPdfUrl(token)} target="_blank" rel="noopener">
                    <ExternalLinkIcon aria-hidden /> Open
                  </a>
                </Button>
              </div>
            </Card>
            <Card className="relative h-[min(78vh,1100px)] overflow-hidden bg-muted/60 p-0">
              {pdf.data ? (
                <PdfPages pdf={pdf.data} label={`Pages of ${doc.name}`} className="absolute inset-0" />
              ) : (
                <div className="flex h-full items-center justify-center gap-2 text-sm text-muted-foreground" role="status">
                  {pdf.error ? (
                    'The preview could not be loaded. Download the PDF instead.'
                  ) : (
                    <>
                      <Loader2Icon className="size-4 animate-spin" aria-hidden /> Loading the preview…
                    </>
                  )}
                </div>
              )}
            </Card>
          </div>
        )}
        <p className="mt-8 text-center text-xs text-muted-foreground">Made with Formwork. This page shows only the document its link was made for.</p>
      </main>
    </div>
  );
}
