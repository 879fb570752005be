import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { Button } from './button';
import { formatNumber } from '../../lib/utils';

/**
 * Previous / Next over an offset-paged list. `total` may be unknown (null): then Next is offered
 * while the current page is full.
 */
export function Pager({
  label,
  offset,
  pageSize,
  shown,
  total,
  busy,
  onChange,
}: {
  label: string;
  offset: number;
  pageSize: number;
  shown: number;
  total: number | null;
  busy?: boolean;
  onChange: (offset: number) => void;
}) {
  const hasPrev = offset > 0;
  const hasNext = total !== null ? offset + shown < total : shown === pageSize;
  if (!hasPrev && !hasNext) return null;
  const range = shown > 0 ? `${formatNumber(offset + 1)}–${formatNumber(offset + shown)}` : '0';
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 border-t px-4 py-3 sm:px-5">
      <p className="text-xs text-muted-foreground tabular-nums" aria-live="polite">
        {range}
        {total !== null ? ` of ${formatNumber(total)}` : ''}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={!hasPrev || busy} onClick={() => onChange(Math.max(0, offset - pageSize))}>
          <ChevronLeftIcon aria-hidden /> Previous
        </Button>
        <Button variant="outline" size="sm" disabled={!hasNext || busy} onClick={() => onChange(offset + pageSize)}>
          Next <ChevronRightIcon aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
