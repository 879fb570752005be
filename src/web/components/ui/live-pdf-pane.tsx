import { AlertCircleIcon, CheckCircle2Icon, ExternalLinkIcon, FileTextIcon, Loader2Icon } from 'lucide-react';
import type { LivePdfState } from '../../hooks/use-live-pdf';
import { cn } from '../../lib/utils';
import { Button } from './button';
import { PdfPages } from './pdf-pages';
import { PaperSketch } from './paper-sketch';

/** A PDF that re-renders as its source changes (see hooks/use-live-pdf), with its status. */
export function LivePdfPane({
  state,
  hasContent,
  emptyHint,
  frameTitle,
  className,
}: {
  state: LivePdfState;
  hasContent: boolean;
  /** Shown instead of a PDF while there is nothing to render. */
  emptyHint: string;
  frameTitle: string;
  className?: string;
}) {
  const url = state.status === 'idle' ? null : state.url;
  const pdf = state.status === 'idle' ? null : state.pdf;
  return (
    <section aria-labelledby="preview-title" className={cn('flex h-full flex-col', className)} data-testid="preview-pane">
      <div className="mb-2.5 flex items-center gap-2">
        <h2 id="preview-title" className="text-[11px] font-semibold tracking-wider text-muted-foreground/90 uppercase">
          Live PDF preview
        </h2>
        <span className="ml-auto flex items-center gap-1.5 text-xs text-muted-foreground" aria-live="polite" data-testid="preview-status">
          {state.status === 'rendering' && (
            <>
              <Loader2Icon className="size-3.5 animate-spin" aria-hidden /> Rendering...
            </>
          )}
          {state.status === 'ready' && (
            <>
              <CheckCircle2Icon className="size-3.5 text-success" aria-hidden /> Up to date
            </>
          )}
          {state.status === 'error' && (
            <>
              <AlertCircleIcon className="size-3.5 text-destructive" aria-hidden /> Not updated
            </>
          )}
        </span>
        {url && (
          <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" asChild>
            <a href={url} target="_blank" rel="noreferrer" aria-label="Open the preview PDF in a new tab">
              <ExternalLinkIcon className="size-3.5" />
            </a>
          </Button>
        )}
      </div>
      {state.status === 'error' && (
        <p className="mb-2 rounded-md border border-destructive/20 bg-destructive/5 px-3 py-2 text-xs text-destructive" role="alert">
          {state.message}
        </p>
      )}
      <div className="relative min-h-[420px] flex-1 overflow-hidden rounded-lg border bg-[oklch(0.94_0.005_275)] shadow-inner">
        {!hasContent ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-6 text-center">
            <PaperSketch />
            <div>
              <p className="text-sm font-medium text-foreground">Your PDF appears here</p>
              <p className="mt-1 max-w-56 text-xs text-muted-foreground">{emptyHint}</p>
            </div>
          </div>
        ) : pdf ? (
          <PdfPages pdf={pdf} label={frameTitle} className="absolute inset-0" />
        ) : (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 text-sm text-muted-foreground">
            {state.status === 'error' ? <FileTextIcon className="size-5" aria-hidden /> : <Loader2Icon className="size-5 animate-spin" aria-hidden />}
            {state.status === 'error' ? 'Fix the problem above to see the PDF.' : 'Rendering your PDF...'}
          </div>
        )}
        {state.status === 'rendering' && url && (
          <div className="pointer-events-none absolute top-2 right-2 rounded-full bg-background/90 px-2 py-1 text-[11px] font-medium text-muted-foreground shadow-card">
            Updating...
          </div>
        )}
      </div>
    </section>
  );
}
