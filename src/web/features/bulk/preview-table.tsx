import { CheckIcon, CircleAlertIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import type { TFilledValue } from '../../../contract/filled-values';
import { BULK_PREVIEW_ROWS, type TBulkUpload, type TPreviewRow } from '../../../contract/bulk';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../components/ui/tooltip';
import { cn, formatNumber } from '../../lib/utils';
import { plural } from './job-status';

function isInvalid(row: TPreviewRow): boolean {
  return Object.keys(row.errors).length > 0;
}

function Counts({ draft }: { draft: TBulkUpload }) {
  const items = [
    { key: 'total', label: 'rows in the file', value: draft.totalRows, tone: '' },
    { key: 'valid', label: draft.validRows === 1 ? 'valid row' : 'valid rows', value: draft.validRows, tone: 'text-[oklch(0.45_0.12_155)]' },
    {
      key: 'invalid',
      label: draft.invalidRows === 1 ? 'row with problems' : 'rows with problems',
      value: draft.invalidRows,
      tone: draft.invalidRows > 0 ? 'text-destructive' : '',
    },
  ];
  return (
    <dl className="grid grid-cols-3 gap-2" data-testid="row-counts">
      {items.map((item) => (
        <div key={item.key} className="flex flex-col-reverse rounded-lg border bg-muted/30 px-3 py-2.5" data-testid={`count-${item.key}`}>
          <dt className="text-xs text-muted-foreground">{item.label}</dt>
          <dd className={cn('text-xl font-semibold tabular-nums', item.tone)}>{formatNumber(item.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Cell({ value, error }: { value: TFilledValue | undefined; error: string | undefined }) {
  // A list's rows come from the lines sheet (or rows repeating the document key): shown as a count.
  const text = Array.isArray(value) ? `${value.length} ${value.length === 1 ? 'line' : 'lines'}` : (value ?? '');
  if (!error) {
    return (
      <td className="max-w-[220px] px-3 py-2 align-top">
        {text ? (
          <span className="line-clamp-2 break-words" title={text.length > 40 ? text : undefined}>
            {text}
          </span>
        ) : (
          <span className="text-muted-foreground/60" aria-label="empty">
            —
          </span>
        )}
      </td>
    );
  }
  return (
    <td className="max-w-[220px] bg-destructive/8 px-3 py-2 align-top" data-invalid="true">
      <CellTooltip message={error}>{text}</CellTooltip>
    </td>
  );
}

/**
 * The problem of an invalid cell, on hover and on keyboard focus. Controlled, because focusing a
 * cell scrolls the page or the table to it, and Radix closes a tooltip whenever its trigger's
 * ancestors scroll: while the cell has focus the message stays until Escape or blur.
 */
function CellTooltip({ message, children: text }: { message: string; children: string }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLButtonElement>(null);
  return (
    <Tooltip
      open={open}
      onOpenChange={(next) => {
        if (!next && ref.current && ref.current === document.activeElement) return;
        setOpen(next);
      }}
    >
      <TooltipTrigger asChild>
        <button
          type="button"
          ref={ref}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && open) {
              e.stopPropagation();
              setOpen(false);
            }
          }}
          className="flex cursor-default items-start gap-1.5 rounded-sm text-left text-destructive outline-none focus-visible:ring-2 focus-visible:ring-destructive"
        >
          <CircleAlertIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          <span className="line-clamp-2 break-words">{text || <span className="italic">empty</span>}</span>
          <span className="sr-only">. Problem: {message}</span>
        </button>
      </TooltipTrigger>
      <TooltipContent>{message}</TooltipContent>
    </Tooltip>
  );
}

/**
 * The first rows of the file as they will be used, each invalid cell marked in red with its
 * problem (tooltip, and as text for screen readers), then a plain list of the problems shown.
 */
export function PreviewTable({ draft, placeholders }: { draft: TBulkUpload; placeholders: readonly TPlaceholder[] }) {
  const [onlyProblems, setOnlyProblems] = useState(false);
  const invalidShown = draft.preview.filter(isInvalid);
  const rows = onlyProblems ? invalidShown : draft.preview;
  const firstRows = Math.min(BULK_PREVIEW_ROWS, draft.totalRows);
  const extraInvalid = Math.max(0, draft.preview.length - firstRows);
  // A required field with no column fails every row: say so once instead of once per row.
  const unmappedRequired = placeholders.filter((p) => p.required && p.type !== 'list' && draft.mapping[p.name] == null);
  const listed = placeholders.filter((p) => !unmappedRequired.includes(p));
  const problems = invalidShown.flatMap((r) =>
    listed.filter((p) => r.errors[p.name]).map((p) => ({ row: r.row, field: placeholderLabel(p), message: r.errors[p.name]! })),
  );
  const hiddenInvalid = Math.max(0, draft.invalidRows - invalidShown.length);

  return (
    <div className="space-y-4" data-testid="preview">
      <Counts draft={draft} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {draft.totalRows <= BULK_PREVIEW_ROWS
            ? `All ${plural(draft.totalRows, 'row')} of the file.`
            : `The first ${formatNumber(firstRows)} of ${formatNumber(draft.totalRows)} rows${extraInvalid > 0 ? `, then ${plural(extraInvalid, 'more row')} with problems` : ''}.`}
        </p>
        {invalidShown.length > 0 && (
          <div className="inline-flex rounded-md border p-0.5 text-[13px]" role="group" aria-label="Rows to show">
            {[false, true].map((value) => (
              <button
                key={String(value)}
                type="button"
                aria-pressed={onlyProblems === value}
                onClick={() => setOnlyProblems(value)}
                className={cn(
                  'cursor-pointer rounded px-2.5 py-1 font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  onlyProblems === value ? 'bg-secondary text-foreground' : 'text-muted-foreground hover:text-foreground',
                )}
              >
                {value ? `With problems (${formatNumber(invalidShown.length)})` : 'All rows'}
              </button>
            ))}
          </div>
        )}
      </div>
      <div className="max-h-[420px] overflow-auto rounded-lg border" tabIndex={0} role="region" aria-label="Preview of the rows">
        <table className="w-full min-w-max border-separate border-spacing-0 text-sm" data-testid="preview-table">
          <thead className="sticky top-0 z-10 bg-muted text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="sticky left-0 z-10 border-b bg-muted px-3 py-2 font-medium">
                Row
              </th>
              {placeholders.map((p) => (
                <th key={p.name} scope="col" className="border-b px-3 py-2 font-medium whitespace-nowrap">
                  {placeholderLabel(p)}
                  {p.required && <span className="ml-0.5 text-destructive">*</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const bad = isInvalid(r);
              return (
                <tr key={r.row} data-testid="preview-row" data-invalid={bad || undefined} className="[&>td]:border-b [&>th]:border-b">
                  <th
                    scope="row"
                    className={cn(
                      'sticky left-0 bg-background px-3 py-2 text-left align-top font-normal tabular-nums',
                      bad && 'border-l-2 border-l-destructive',
                    )}
                  >
                    <span className="flex items-center gap-1.5">
                      {r.row}
                      {bad ? <span className="sr-only">, has problems</span> : <CheckIcon className="size-3.5 text-success" aria-label="valid" />}
                    </span>
                  </th>
                  {placeholders.map((p) => (
                    <Cell key={p.name} value={r.values[p.name]} error={r.errors[p.name]} />
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {(problems.length > 0 || unmappedRequired.length > 0) && (
        <div className="rounded-lg border border-destructive/25 bg-destructive/5 p-4" data-testid="preview-problems">
          <p className="text-sm font-medium text-destructive">Problems found</p>
          <ul className="mt-2 space-y-1 text-sm">
            {unmappedRequired.length > 0 && (
              <li>
                <span className="font-medium">Every row</span>
                <span className="text-muted-foreground"> · {unmappedRequired.map(placeholderLabel).join(', ')}: </span>
                {unmappedRequired.length === 1 ? 'this required field has' : 'these required fields have'} no column. Choose one in step 1.
              </li>
            )}
            {problems.slice(0, 12).map((p) => (
              <li key={`${p.row}-${p.field}`}>
                <span className="font-medium tabular-nums">Row {p.row}</span>
                <span className="text-muted-foreground"> · {p.field}: </span>
                {p.message}
              </li>
            ))}
          </ul>
          {(problems.length > 12 || hiddenInvalid > 0) && (
            <p className="mt-2 text-xs text-muted-foreground">
              {problems.length > 12 ? `${plural(problems.length - 12, 'more problem')} ${problems.length - 12 === 1 ? 'is' : 'are'} marked in the table. ` : ''}
              {hiddenInvalid > 0
                ? `${plural(hiddenInvalid, 'more row')} with problems ${hiddenInvalid === 1 ? 'is' : 'are'} not shown here; all of them are listed in the error report after the batch runs.`
                : ''}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
