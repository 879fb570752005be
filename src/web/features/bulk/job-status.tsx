import { CheckCircle2Icon, CircleAlertIcon, CircleSlashIcon, ClockIcon, Loader2Icon } from 'lucide-react';
import type { TBulkJob, TBulkJobStatus } from '../../../contract/bulk';
import { Badge } from '../../components/ui/badge';
import { plural } from '../../../contract/text';
import { cn, formatNumber } from '../../lib/utils';

export const STATUS_LABELS: Record<TBulkJobStatus, string> = {
  draft: 'Not started',
  queued: 'Queued',
  running: 'Generating',
  completed: 'Completed',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/** A completed job whose rows did not all make it reads differently from a clean one. */
export function jobStatusLabel(job: Pick<TBulkJob, 'status' | 'failed'>): string {
  if (job.status === 'completed' && job.failed > 0) return 'Completed with errors';
  return STATUS_LABELS[job.status];
}

export function JobStatusBadge({ job, className }: { job: Pick<TBulkJob, 'status' | 'failed'>; className?: string }) {
  const { status } = job;
  const withErrors = status === 'completed' && job.failed > 0;
  const variant =
    status === 'completed' && !withErrors ? 'success' : status === 'failed' || withErrors ? 'destructive' : status === 'cancelled' ? 'secondary' : 'soft';
  const Icon =
    status === 'running'
      ? Loader2Icon
      : status === 'queued'
        ? ClockIcon
        : status === 'cancelled'
          ? CircleSlashIcon
          : status === 'completed' && !withErrors
            ? CheckCircle2Icon
            : CircleAlertIcon;
  return (
    <Badge variant={variant} className={className} data-testid="job-status">
      <Icon className={cn(status === 'running' && 'animate-spin motion-reduce:animate-none')} aria-hidden />
      {jobStatusLabel(job)}
    </Badge>
  );
}

// One helper for counts with nouns everywhere; bulk's files import it from here as they always have.
export { plural };

/** "about 40 s", "about 3 min", "about 1 h 20 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  const rest = min % 60;
  return rest ? `${h} h ${rest} min` : `${h} h`;
}

export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  return `${rate < 10 ? rate.toFixed(1) : formatNumber(Math.round(rate))} docs/s`;
}

/** Seconds between two ISO times, or null. */
export function elapsedSeconds(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  const ms = new Date(to).getTime() - new Date(from).getTime();
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : null;
}

/** The one-line outcome of a job, for lists and headings. */
export function jobSummary(job: TBulkJob): string {
  const parts = [`${formatNumber(job.done)} of ${plural(job.total, 'document')}`];
  if (job.failed > 0) parts.push(`${formatNumber(job.failed)} failed`);
  if (job.skipped > 0) parts.push(`${plural(job.skipped, 'row')} skipped`);
  return parts.join(' · ');
}
