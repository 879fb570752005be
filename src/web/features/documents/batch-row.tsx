import { ArrowRightIcon, DownloadIcon, Layers3Icon } from 'lucide-react';
import { Link } from 'wouter';
import type { TBulkJob } from '../../../contract/bulk';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../lib/utils';
import { batchHref, isActive, zipUrl } from '../bulk/api';
import { JobStatusBadge, jobSummary, plural } from '../bulk/job-status';
import { formatDate } from '../../lib/utils';
import { documentGrid } from './document-row';
import { batchTime } from './use-document-timeline';
import { IconAction } from './icon-action';
import { IconTile } from '../../components/ui/icon-tile';

function BatchIcon() {
  return <IconTile icon={Layers3Icon} className="hidden sm:flex" />;
}

function BatchBadge() {
  return (
    <Badge variant="soft" className="px-1.5 py-0 text-[10px]">
      Batch
    </Badge>
  );
}

/** One bulk batch on Recent Documents: what it made, how it went, and a way into its page. */
export function BatchRow({ job }: { job: TBulkJob }) {
  const active = isActive(job.status);
  // When it started: the timeline places batches by that, so the dates read in order.
  const when = new Date(batchTime(job)).toISOString();
  const percent = job.total > 0 ? Math.floor(((job.done + job.failed) / job.total) * 100) : 0;
  const title = `${job.formatName} batch`;
  return (
    <li
      data-testid="batch-row"
      className={cn('grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-1 bg-primary-soft/25 px-4 py-3.5 sm:px-5', documentGrid(true))}
    >
      <div className="flex min-w-0 items-center gap-3">
        <BatchIcon />
        <div className="min-w-0">
          <Link
            href={batchHref(job.id)}
            className="line-clamp-2 text-sm font-medium break-words text-foreground underline-offset-4 hover:underline md:line-clamp-1"
          >
            {title}
          </Link>
          <p className="mt-0.5 text-xs text-foreground/80 tabular-nums">{jobSummary(job)}</p>
          <p className="truncate text-xs text-muted-foreground" title={job.fileName}>
            {job.fileName}
            <span className="md:hidden"> · {formatDate(when, true)}</span>
          </p>
          <div className="mt-1 flex flex-wrap items-center gap-1.5">
            <BatchBadge />
            <JobStatusBadge job={job} className="px-1.5 py-0 text-[10px]" />
            {active && (
              <span className="flex items-center gap-2 text-xs text-muted-foreground tabular-nums">
                <span
                  className="h-1.5 w-20 overflow-hidden rounded-full bg-secondary"
                  role="progressbar"
                  aria-label={`${title} progress`}
                  aria-valuemin={0}
                  aria-valuemax={job.total}
                  aria-valuenow={job.done + job.failed}
                >
                  <span className="block h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
                </span>
                {percent}%
              </span>
            )}
          </div>
        </div>
      </div>
      <span className="hidden text-sm text-muted-foreground tabular-nums md:block">{formatDate(when, true)}</span>
      <span className={cn('hidden truncate text-sm md:block', job.formatId ? 'text-foreground' : 'text-muted-foreground italic')}>
        {job.formatName || 'Unknown'}
      </span>
      <div className="flex items-center justify-end">
        {job.done > 0 && !active && (
          <IconAction label={`Download ZIP of ${title} (${plural(job.done, 'PDF')})`} icon={DownloadIcon} href={zipUrl(job.id)} download />
        )}
        <IconAction label={`Open ${title}`} icon={ArrowRightIcon} href={batchHref(job.id)} />
      </div>
    </li>
  );
}
