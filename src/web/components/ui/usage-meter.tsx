/** A used-of-limit figure with its bar, as a `dt`/`dd` pair inside a `dl`. */
export function UsageMeter(props: {
  label: string;
  progressLabel: string;
  used: number;
  /** null: the plan sets no limit, so there is no bar. */
  limit: number | null;
  show: (value: number) => string;
  testId: string;
  /** A line under the bar (when the count resets, what happens at the limit). */
  note?: string;
}) {
  const { limit } = props;
  return (
    <div>
      <dt className="text-sm font-medium">{props.label}</dt>
      <dd className="mt-2">
        <p className="text-sm tabular-nums" data-testid={props.testId}>
          <span className="font-semibold text-foreground">{props.show(props.used)}</span>
          <span className="text-muted-foreground">{limit === null ? ' · unlimited' : ` / ${props.show(limit)}`}</span>
        </p>
        {limit !== null && <MeterBar used={props.used} limit={limit} label={props.progressLabel} />}
        {props.note && <p className="mt-1.5 text-xs text-muted-foreground">{props.note}</p>}
      </dd>
    </div>
  );
}

function MeterBar({ used, limit, label }: { used: number; limit: number; label: string }) {
  const pct = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 0;
  return (
    <div
      className="mt-2 h-1.5 max-w-xs overflow-hidden rounded-full bg-secondary"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={limit}
      aria-valuenow={used}
    >
      <div className={`h-full rounded-full ${pct >= 100 ? 'bg-destructive' : 'bg-primary'}`} style={{ width: `${pct}%` }} />
    </div>
  );
}
