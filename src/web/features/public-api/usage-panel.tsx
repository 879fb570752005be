import { DownloadIcon } from 'lucide-react';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { API_LATENCY_DAYS, API_USAGE_DAYS, type TApiUsage } from '../../../contract/api-usage';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { QueryState, type QueryStatus } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { Skeleton } from '../../components/ui/skeleton';
import { shortDay, USAGE_SERIES } from './usage-series';

const UsageChart = lazy(() => import('./usage-chart'));

const count = (n: number) => n.toLocaleString('en-US');
const ms = (n: number | null) => (n === null ? '—' : `${count(n)} ms`);

const NUMBER_HEAD = 'px-3 py-2 text-right font-medium';
const DAY_COLUMNS: readonly DataTableColumn[] = [
  { header: 'Day', className: 'px-3 py-2 text-left font-medium' },
  ...USAGE_SERIES.map((s) => ({ header: s.label, className: NUMBER_HEAD })),
  { header: 'p50', className: NUMBER_HEAD },
  { header: 'p95', className: NUMBER_HEAD },
];

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="min-w-0 rounded-lg border bg-muted/40 px-3 py-2.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold tabular-nums">{value}</dd>
      {hint && <dd className="text-xs text-muted-foreground">{hint}</dd>}
    </div>
  );
}

/** Which key's figures show, and their CSV. */
function KeyBar({
  keys,
  keyId,
  onKeyChange,
  csvHref,
}: {
  keys: TApiUsage['keys'];
  keyId: string | undefined;
  onKeyChange: (keyId: string | undefined) => void;
  csvHref: string;
}) {
  const selectId = useId();
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="grid gap-1.5 sm:w-64">
        <Label htmlFor={selectId}>Key</Label>
        <NativeSelect id={selectId} value={keyId ?? ''} onChange={(e) => onKeyChange(e.target.value || undefined)}>
          <option value="">All keys</option>
          {keys.map((k) => (
            <option key={k.id} value={k.id}>
              {k.name} (…{k.last4}){k.revoked ? ', revoked' : ''}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button variant="outline" asChild>
        <a href={csvHref} download>
          <DownloadIcon /> Export CSV
        </a>
      </Button>
    </div>
  );
}

/**
 * The last 30 days of API calls: totals, latency, a chart by status class with documents
 * generated, and the same figures as a table for screen readers and for reading exact numbers.
 * Shared by Settings → API Access and the admin panel. The key chooser stays above the figures
 * while one key's figures load or fail, so another key (or All keys) can always be chosen.
 */
export function UsagePanel({
  usage,
  keyId,
  onKeyChange,
  csvHref,
  loading,
  errorText,
}: {
  usage: QueryStatus & { data: TApiUsage | undefined };
  keyId: string | undefined;
  onKeyChange: (keyId: string | undefined) => void;
  csvHref: string;
  loading: ReactNode;
  errorText: string;
}) {
  // The keys the last answer named: a key's own answer may fail, and the list must not go with it.
  const [keys, setKeys] = useState<TApiUsage['keys'] | null>(null);
  if (usage.data && usage.data.keys !== keys) setKeys(usage.data.keys);
  return (
    <div className="space-y-5">
      {keys && <KeyBar keys={keys} keyId={keyId} onKeyChange={onKeyChange} csvHref={csvHref} />}
      <QueryState query={usage} loading={loading} errorText={errorText}>
        {() => usage.data && <UsageFigures usage={usage.data} />}
      </QueryState>
    </div>
  );
}

function UsageFigures({ usage }: { usage: TApiUsage }) {
  const { totals, latency } = usage;
  const errors = totals.clientErrors + totals.serverErrors;
  const summary = `${count(totals.requests)} requests and ${count(totals.documents)} documents generated in the last ${API_USAGE_DAYS} days.`;
  return (
    <div className="space-y-5">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Requests" value={count(totals.requests)} />
        <Stat label="Errors" value={count(errors)} hint={totals.requests ? `${((errors / totals.requests) * 100).toFixed(1)}% of requests` : undefined} />
        <Stat label="Documents" value={count(totals.documents)} />
        <Stat
          label="Latency p50 / p95"
          value={latency.p50Ms === null || latency.p95Ms === null ? '—' : `${count(latency.p50Ms)} / ${count(latency.p95Ms)} ms`}
          hint={`last ${API_LATENCY_DAYS} days`}
        />
      </dl>

      <figure className="space-y-2">
        <figcaption className="sr-only">{summary} The table below has the figures for each day.</figcaption>
        <div aria-hidden="true" data-testid="usage-chart">
          <Suspense fallback={<Skeleton className="h-[260px] w-full" />}>
            <UsageChart days={usage.days} />
          </Suspense>
        </div>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-hidden="true">
          {USAGE_SERIES.map((s) => (
            <li key={s.key} className="flex items-center gap-1.5">
              <span className={s.kind === 'bar' ? 'size-2.5 rounded-sm' : 'h-0.5 w-3.5 rounded-full'} style={{ backgroundColor: s.color }} />
              {s.label}
            </li>
          ))}
        </ul>
      </figure>

      <details className="group rounded-lg border">
        <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-medium hover:bg-muted/60">Show the figures for each day</summary>
        <div className="max-h-80 overflow-auto border-t" role="region" aria-label="Figures for each day" tabIndex={0}>
          <DataTable className="w-full text-sm tabular-nums" caption={`API usage per day, last ${API_USAGE_DAYS} days`} head="sticky" columns={DAY_COLUMNS}>
            {[...usage.days].reverse().map((d) => (
              <tr key={d.day}>
                <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap">
                  {shortDay(d.day)}
                </th>
                {USAGE_SERIES.map((s) => (
                  <td key={s.key} className="px-3 py-1.5 text-right">
                    {count(d[s.key] as number)}
                  </td>
                ))}
                <td className="px-3 py-1.5 text-right whitespace-nowrap">{ms(d.p50Ms)}</td>
                <td className="px-3 py-1.5 text-right whitespace-nowrap">{ms(d.p95Ms)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      </details>
    </div>
  );
}
