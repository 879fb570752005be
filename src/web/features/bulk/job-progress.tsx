import { DownloadIcon, FilesIcon, FileWarningIcon, Loader2Icon, SquareIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { TBulkJob } from '../../../contract/bulk';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { cn, formatNumber } from '../../lib/utils';
import { errorsCsvUrl, isActive, MERGED_PDF_MAX_DOCUMENTS, mergedPdfUrl, useCancelJob, zipUrl } from './api';
import { elapsedSeconds, formatDuration, formatRate, JobStatusBadge, plural } from './job-status';

function percentOf(job: TBulkJob): number {
  if (job.total === 0) return job.status === 'completed' ? 100 : 0;
  return Math.min(100, Math.floor(((job.done + job.failed) / job.total) * 100));
}

function headline(job: TBulkJob): string {
  switch (job.status) {
    case 'queued':
      return 'Waiting to start…';
    case 'running':
      return 'Generating documents…';
    case 'completed':
      return job.failed > 0 ? 'Finished, with some rows that failed' : 'All documents are ready';
    case 'cancelled':
      return 'Batch cancelled';
    case 'failed':
      return 'The batch stopped';
    default:
      return 'Not started';
  }
}

/** What happened, in a sentence or two, once the job has stopped. */
function outcome(job: TBulkJob): string {
  const parts: string[] = [];
  if (job.status === 'completed') {
    parts.push(
      job.done === job.total ? `${plural(job.done, 'document')} generated.` : `${formatNumber(job.done)} of ${plural(job.total, 'document')} generated.`,
    );
  } else if (job.status === 'cancelled') {
    parts.push(`Cancelled after ${formatNumber(job.done)} of ${plural(job.total, 'document')}. The documents already generated are kept.`);
  } else {
    parts.push(`${formatNumber(job.done)} of ${plural(job.total, 'document')} were generated before it stopped. They are kept.`);
  }
  if (job.failed > 0) parts.push(`${plural(job.failed, 'row')} could not be rendered.`);
  if (job.skipped > 0) parts.push(`${plural(job.skipped, 'row')} with invalid values ${job.skipped === 1 ? 'was' : 'were'} skipped.`);
  if ((job.failed > 0 || job.skipped > 0) && job.status !== 'failed') parts.push('The error report lists each one.');
  return parts.join(' ');
}

/**
 * Screen readers hear the status changes and every quarter of the way, not every poll: a live
 * region that changed each second would talk over everything else.
 */
function useAnnouncement(job: TBulkJob): string {
  const [text, setText] = useState('');
  const last = useRef<{ status: string; quarter: number } | null>(null);
  const percent = percentOf(job);
  useEffect(() => {
    const quarter = Math.floor(percent / 25);
    const prev = last.current;
    last.current = { status: job.status, quarter };
    if (prev && prev.status === job.status && (prev.quarter === quarter || !isActive(job.status))) return;
    if (!prev && !isActive(job.status)) return;
    const done = `${formatNumber(job.done + job.failed)} of ${formatNumber(job.total)} rows done.`;
    setText(isActive(job.status) ? `${headline(job)} ${done}` : `${headline(job)}. ${outcome(job)}`);
  }, [job, percent]);
  return text;
}

function Stat({ label, value, tone }: { label: string; value: string; tone?: 'bad' }) {
  return (
    <div className="min-w-0 rounded-lg border bg-muted/30 px-3 py-2.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={cn('mt-0.5 truncate text-sm font-semibold tabular-nums', tone === 'bad' && 'text-destructive')}>{value}</dd>
    </div>
  );
}

/**
 * A bulk job's live progress and, once it stops, its outcome with the downloads. The caller polls
 * (useBulkJob); this only shows what it is given and offers Cancel while the job runs.
 */
export function JobProgress({ job }: { job: TBulkJob }) {
  const cancel = useCancelJob(job.id);
  const [confirming, setConfirming] = useState(false);
  const active = isActive(job.status);
  const percent = percentOf(job);
  const announcement = useAnnouncement(job);
  const settled = job.done + job.failed;
  const took = elapsedSeconds(job.startedAt, job.finishedAt);
  const problems = job.failed + job.skipped;

  const runCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: 'Batch cancelled', description: 'Documents already generated are kept.' });
      },
      onError: (error) => {
        setConfirming(false);
        if (isUnauthorizedError(error)) return;
        toast({ variant: 'destructive', title: 'Could not cancel', description: readApiError(error).message });
      },
    });

  return (
    <section aria-labelledby="job-progress-title" className="space-y-5" data-testid="job-progress">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <JobStatusBadge job={job} />
          <h2 id="job-progress-title" className="text-base font-semibold">
            {headline(job)}
          </h2>
        </div>
        {active && (
          <Button variant="outline" size="sm" onClick={() => setConfirming(true)} disabled={cancel.isPending}>
            {cancel.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SquareIcon aria-hidden />}
            Cancel batch
          </Button>
        )}
      </div>

      <div>
        <div className="mb-2 flex items-baseline justify-between gap-3">
          <p className="text-sm">
            <span className="text-2xl font-semibold tabular-nums" data-testid="job-done">
              {formatNumber(settled)}
            </span>{' '}
            <span className="text-muted-foreground">of {plural(job.total, 'row')} done</span>
          </p>
          <span className="text-sm font-medium text-muted-foreground tabular-nums">{percent}%</span>
        </div>
        <div
          role="progressbar"
          aria-label="Batch progress"
          aria-valuemin={0}
          aria-valuemax={job.total}
          aria-valuenow={settled}
          aria-valuetext={`${formatNumber(settled)} of ${formatNumber(job.total)} rows done`}
          className="h-2.5 overflow-hidden rounded-full bg-secondary"
        >
          <div
            className={cn(
              'h-full rounded-full transition-[width] duration-700 ease-out motion-reduce:transition-none',
              job.status === 'failed' || (job.status === 'completed' && job.failed > 0)
                ? 'bg-destructive'
                : job.status === 'completed'
                  ? 'bg-success'
                  : job.status === 'cancelled'
                    ? 'bg-muted-foreground/50'
                    : 'bg-primary',
            )}
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {active ? (
          <>
            <Stat label="Speed" value={formatRate(job.ratePerSecond)} />
            <Stat
              label="Time left"
              value={job.etaSeconds !== null ? `About ${formatDuration(job.etaSeconds)}` : job.status === 'queued' ? 'Starting soon' : 'Estimating…'}
            />
          </>
        ) : (
          <>
            <Stat label="Generated" value={formatNumber(job.done)} />
            <Stat label="Time taken" value={took !== null ? formatDuration(took) : '—'} />
          </>
        )}
        <Stat label="Failed" value={formatNumber(job.failed)} tone={job.failed > 0 ? 'bad' : undefined} />
        <Stat label="Skipped (invalid)" value={formatNumber(job.skipped)} />
      </dl>

      {!active && (
        <div className="space-y-4 rounded-lg border bg-muted/30 p-4" data-testid="job-outcome">
          <div className="space-y-1 text-sm">
            <p>{outcome(job)}</p>
            {/* A cancelled job's message only repeats the sentence above; others say why it stopped (e.g. the plan's limit). */}
            {job.message && job.status !== 'cancelled' && <p className="text-muted-foreground">{job.message}</p>}
          </div>
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            {job.done > 0 && (
              <Button asChild>
                <a href={zipUrl(job.id)} download>
                  <DownloadIcon aria-hidden /> Download ZIP ({plural(job.done, 'PDF')})
                </a>
              </Button>
            )}
            {job.done > 0 && job.done <= MERGED_PDF_MAX_DOCUMENTS && (
              <Button variant="outline" asChild>
                <a href={mergedPdfUrl(job.id)} download>
                  <FilesIcon aria-hidden /> Download as one PDF
                </a>
              </Button>
            )}
            {problems > 0 && (
              <Button variant="outline" asChild>
                <a href={errorsCsvUrl(job.id)} download>
                  <FileWarningIcon aria-hidden /> Download error CSV
                </a>
              </Button>
            )}
          </div>
        </div>
      )}

      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        pending={cancel.isPending}
        title="Cancel this batch?"
        description={`The ${plural(job.done, 'document')} already generated will be kept. The remaining ${plural(
          Math.max(0, job.total - settled),
          'row',
        )} will not be generated. You can't resume a cancelled batch.`}
        confirmLabel="Yes, cancel batch"
        pendingLabel="Cancelling..."
        onConfirm={runCancel}
      />
    </section>
  );
}
