import { CheckCircle2Icon, ChevronDownIcon, CircleAlertIcon, CircleDashedIcon, Loader2Icon, PencilIcon, TriangleAlertIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { columnLetter, type TBulkUpload, type TColumnMapping } from '../../../contract/bulk';
import { PLACEHOLDER_TYPE_NAMES, placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { cn, formatNumber } from '../../lib/utils';

export function columnName(columns: readonly string[], index: number): string {
  const header = columns[index]?.trim();
  return header ? header : `Column ${columnLetter(index)}`;
}

const selectClasses =
  'h-9 w-full min-w-0 cursor-pointer appearance-none truncate rounded-md border border-input bg-background py-1.5 pr-9 pl-3 text-sm shadow-xs outline-none transition-[border-color,box-shadow] focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60';

type FieldState = 'auto' | 'manual' | 'empty' | 'missing';

function fieldState(placeholder: TPlaceholder, mapping: TColumnMapping, auto: TColumnMapping | null): FieldState {
  const column = mapping[placeholder.name] ?? null;
  if (column === null) return placeholder.required ? 'missing' : 'empty';
  if (auto && (auto[placeholder.name] ?? null) === column) return 'auto';
  return auto ? 'manual' : 'auto';
}

const STATE_TEXT: Record<FieldState, string> = {
  auto: 'Matched automatically',
  manual: 'Chosen by you',
  empty: 'No column: left empty',
  missing: 'Required: choose a column',
};

function StateIcon({ state }: { state: FieldState }) {
  if (state === 'auto') return <CheckCircle2Icon className="size-4 text-success" aria-hidden />;
  if (state === 'manual') return <PencilIcon className="size-4 text-primary" aria-hidden />;
  if (state === 'missing') return <CircleAlertIcon className="size-4 text-destructive" aria-hidden />;
  return <CircleDashedIcon className="size-4 text-muted-foreground" aria-hidden />;
}

/** How many fields found a column, and what is left to do. */
function MappingSummary({ draft, placeholders }: { draft: TBulkUpload; placeholders: readonly TPlaceholder[] }) {
  const { mapping } = draft;
  const matched = placeholders.filter((p) => mapping[p.name] != null).length;
  const allMatched = matched === placeholders.length;
  const missingRequired = placeholders.filter((p) => p.required && mapping[p.name] == null);
  return (
    <div className="flex min-w-0 items-start gap-2.5">
      {allMatched ? (
        <CheckCircle2Icon className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
      ) : missingRequired.length > 0 ? (
        <CircleAlertIcon className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
      ) : (
        <TriangleAlertIcon className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden />
      )}
      <div className="min-w-0 text-sm">
        <p className="font-medium" data-testid="mapping-summary">
          {allMatched
            ? `All ${formatNumber(placeholders.length)} fields matched a column.`
            : `${formatNumber(matched)} of ${formatNumber(placeholders.length)} fields matched a column.`}
        </p>
        <p className="text-muted-foreground">
          {allMatched
            ? draft.unusedColumns.length > 0
              ? 'Some columns of your file are not used; they are listed below.'
              : 'Every column of your file fills a field.'
            : missingRequired.length > 0
              ? `Choose a column for ${missingRequired.map(placeholderLabel).join(', ')}: ${missingRequired.length === 1 ? 'it is required, so every row is invalid without it.' : 'they are required, so every row is invalid without them.'}`
              : 'Choose a column for the rest below, or leave them empty in every document.'}
        </p>
      </div>
    </div>
  );
}

interface MappingRowProps {
  placeholder: TPlaceholder;
  placeholders: readonly TPlaceholder[];
  columns: readonly string[];
  state: FieldState;
  selectId: string;
  column: number | null;
  /** Which field each column fills now. */
  usedBy: ReadonlyMap<number, string>;
  pending: boolean;
  onChoose: (name: string, value: string) => void;
}

/** One field, how it got its column, and the column chosen for it. */
function MappingRow({ placeholder: p, placeholders, columns, state, selectId, column, usedBy, pending, onChoose }: MappingRowProps) {
  return (
    <li data-testid="mapping-row" className="grid gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,260px)] sm:items-center sm:gap-4">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <label htmlFor={selectId} className="text-sm font-medium break-words">
            {placeholderLabel(p)}
            {p.required && (
              <>
                <span className="ml-0.5 text-destructive" aria-hidden>
                  *
                </span>
                <span className="sr-only"> (required)</span>
              </>
            )}
          </label>
          <Badge variant="outline" className="font-mono text-[10px] font-normal text-muted-foreground">
            {PLACEHOLDER_TYPE_NAMES[p.type]}
          </Badge>
        </div>
        <p
          className={cn('mt-1 flex items-center gap-1.5 text-xs', state === 'missing' ? 'text-destructive' : 'text-muted-foreground')}
          data-testid="mapping-state"
        >
          <StateIcon state={state} />
          {STATE_TEXT[state]}
        </p>
      </div>
      <div className="relative">
        <select
          id={selectId}
          className={cn(selectClasses, column === null && 'text-muted-foreground', state === 'missing' && 'border-destructive')}
          value={column === null ? '' : String(column)}
          disabled={pending}
          aria-invalid={state === 'missing' || undefined}
          onChange={(e) => onChoose(p.name, e.target.value)}
        >
          <option value="">No column (leave empty)</option>
          {columns.map((_, i) => {
            const other = usedBy.get(i);
            const otherPlaceholder = other && other !== p.name ? placeholders.find((x) => x.name === other) : undefined;
            return (
              <option key={i} value={String(i)} className="text-foreground">
                {`${columnLetter(i)} · ${columnName(columns, i)}${otherPlaceholder ? ` (now fills ${placeholderLabel(otherPlaceholder)})` : ''}`}
              </option>
            );
          })}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      </div>
    </li>
  );
}

/** Columns of the file that fill no field, so they are ignored. */
function UnusedColumns({ draft }: { draft: TBulkUpload }) {
  if (draft.unusedColumns.length === 0) return null;
  const { columns } = draft;
  return (
    <div className="text-sm" data-testid="unused-columns">
      <p className="text-muted-foreground">
        {draft.unusedColumns.length === 1 ? 'This column is not used and will be ignored:' : 'These columns are not used and will be ignored:'}
      </p>
      <ul className="mt-2 flex flex-wrap gap-1.5">
        {draft.unusedColumns.map((i) => (
          <li key={i}>
            <Badge variant="secondary" className="max-w-[16rem] font-normal">
              <span className="truncate">
                {columnLetter(i)} · {columnName(columns, i)}
              </span>
            </Badge>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Which spreadsheet column fills which field. Columns are matched automatically by name (the
 * Excel template always matches in full); the rest can be chosen by hand. Choosing a column that
 * another field uses moves it, since one column fills one field.
 */
export function MappingPanel({
  draft,
  placeholders,
  autoMapping,
  pending,
  onChange,
}: {
  draft: TBulkUpload;
  placeholders: readonly TPlaceholder[];
  /** The mapping as the upload matched it, to tell automatic matches from the person's choices. */
  autoMapping: TColumnMapping | null;
  pending: boolean;
  onChange: (mapping: TColumnMapping) => void;
}) {
  const { columns, mapping } = draft;
  const allMatched = placeholders.every((p) => mapping[p.name] != null);
  const [open, setOpen] = useState(!allMatched || draft.unusedColumns.length > 0);
  const listId = useId();
  const usedBy = new Map<number, string>();
  for (const p of placeholders) {
    const c = mapping[p.name];
    if (c != null) usedBy.set(c, p.name);
  }

  const choose = (name: string, value: string) => {
    const column = value === '' ? null : Number(value);
    const next: TColumnMapping = {};
    for (const p of placeholders) next[p.name] = mapping[p.name] ?? null;
    if (column !== null) {
      for (const p of placeholders) if (next[p.name] === column) next[p.name] = null;
    }
    next[name] = column;
    onChange(next);
  };

  return (
    <div className="space-y-4" data-testid="mapping-panel">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <MappingSummary draft={draft} placeholders={placeholders} />
        <Button variant="outline" size="sm" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)} className="self-start">
          <ChevronDownIcon className={cn('transition-transform', open && 'rotate-180')} aria-hidden />
          {open ? 'Hide mapping' : 'Review mapping'}
        </Button>
      </div>

      <div id={listId} hidden={!open} className="space-y-4">
        <ul className="divide-y rounded-lg border" aria-label="Column for each field" aria-busy={pending || undefined}>
          {placeholders.map((p) => (
            <MappingRow
              key={p.name}
              placeholder={p}
              placeholders={placeholders}
              columns={columns}
              state={fieldState(p, mapping, autoMapping)}
              selectId={`${listId}-${p.name}`}
              column={mapping[p.name] ?? null}
              usedBy={usedBy}
              pending={pending}
              onChoose={choose}
            />
          ))}
        </ul>
        <UnusedColumns draft={draft} />
        {pending && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
            <Loader2Icon className="size-4 animate-spin" aria-hidden /> Checking the rows again…
          </p>
        )}
      </div>
    </div>
  );
}
