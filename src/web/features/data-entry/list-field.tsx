import { ArrowDownIcon, ArrowUpIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Controller, useFieldArray, useFormState, type Control } from 'react-hook-form';
import { printLike } from '../../../contract/filled-values';
import type { TFormatContent } from '../../../contract/format-content';
import { MAX_LIST_ROWS, placeholderLabel, type TListColumn, type TPlaceholder } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { scrollRegionProps, useScrollsSideways } from '../../hooks/use-scrolls-sideways';
import { cn } from '../../lib/utils';
import { numberAdornment, ValueControl, type TAdornment } from './placeholder-field';
import { columnKey, emptyRow, fieldKey, type TFormValues } from './resolver';

/** Text columns share what the fixed-width columns leave. */
const FLEXIBLE: ReadonlySet<TListColumn['type']> = new Set(['text', 'textarea', 'email']);

/**
 * How wide a column's value is at least, by its type, in rem: a number shows 12 characters whole
 * ("12500.75" with room to spare: 12ch of 14 px tabular figures and the input's padding); a
 * formula's output grows with its value. Set on the cell's content, since a table cell's own
 * min-width is not honoured by every browser.
 */
const MIN_REM: Record<TListColumn['type'], number> = {
  text: 6,
  textarea: 8,
  email: 10,
  tel: 8,
  select: 7,
  number: 7.75,
  date: 9,
  checkbox: 2.5,
  formula: 6,
};
/** A currency symbol or percent sign inside the input takes room of its own, beside the 12 characters. */
const minWidth = (c: TListColumn, adornment?: TAdornment) =>
  c.type === 'number' ? (adornment ? `calc(${12 + adornment.text.length}ch + 2.35rem)` : 'calc(12ch + 1.25rem)') : `${MIN_REM[c.type]}rem`;

/** A number shown with a currency symbol or a percent sign needs room for it too. */
const SIGN_REM = 1.5;
const hasSign = (c: TListColumn) => c.type === 'number' && (c.display === 'currency' || c.display === 'percent');

/** Row number and row actions, and each cell's padding. */
const FIXED_REM = 6;
const CELL_PADDING_REM = 0.5;

/** Whether the list is a table (its columns fit their values side by side) or a card per row, by the room it has. */
function useListLayout(columns: readonly TListColumn[]) {
  const ref = useRef<HTMLDivElement>(null);
  const needs = FIXED_REM + columns.reduce((sum, c) => sum + MIN_REM[c.type] + (hasSign(c) ? SIGN_REM : 0) + CELL_PADDING_REM, 0);
  const [layout, setLayout] = useState<'table' | 'cards'>('table');
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => {
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      // Not laid out (width 0): a table, as before anything was measured.
      setLayout(box.clientWidth > 0 && box.clientWidth < needs * rem ? 'cards' : 'table');
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [needs]);
  return { ref, layout };
}

/** A column's share of the table: text columns split the room, the others keep to their content's width. */
const headWidth = (c: TListColumn, flexible: number) => ({ width: FLEXIBLE.has(c.type) ? `${Math.round(100 / flexible)}%` : '1%' });

const iconButton =
  'inline-flex size-8 list-table:size-6 cursor-pointer items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-40';

/** The column headings; on a phone they are hidden and each cell carries its own label. */
function ListHead({ columns }: { columns: readonly TListColumn[] }) {
  const flexible = Math.max(1, columns.filter((c) => FLEXIBLE.has(c.type)).length);
  return (
    <thead className="list-cards:sr-only">
      <tr className="border-b bg-muted/50 text-left text-xs font-medium text-muted-foreground">
        <th scope="col" className="w-7 py-2 pl-2 text-center font-medium">
          #
        </th>
        {columns.map((c) => (
          <th
            key={c.name}
            scope="col"
            style={headWidth(c, flexible)}
            className={cn('px-1 py-2 font-medium whitespace-nowrap', (c.type === 'number' || c.type === 'formula') && 'text-right')}
          >
            {placeholderLabel(c)}
            {c.required && (
              <span className="ml-0.5 text-destructive" aria-hidden>
                *
              </span>
            )}
            {c.type === 'formula' && <span className="ml-1 font-normal">(computed)</span>}
          </th>
        ))}
        <th scope="col" className="w-16 px-1 py-2">
          <span className="sr-only">Row actions</span>
        </th>
      </tr>
    </thead>
  );
}

const cellClass = (c: TListColumn) =>
  cn(
    'px-1 py-1.5 align-top list-cards:p-0',
    (c.type === 'text' || c.type === 'textarea' || c.type === 'email' || c.type === 'select') && 'list-cards:col-span-2',
  );

/** A formula column's cell: the value computed from the row, printed as the document prints it. */
function ComputedCell({
  column: c,
  value,
  cellLabel,
  print,
  table,
}: {
  table: boolean;
  column: TListColumn;
  value: string;
  cellLabel: string;
  print: (value: string, column: TListColumn) => string;
}) {
  return (
    <td className={cellClass(c)}>
      <span className="mb-1 block text-xs text-muted-foreground list-table:hidden">{placeholderLabel(c)} (computed)</span>
      <output
        aria-label={cellLabel}
        style={table ? { minWidth: minWidth(c) } : undefined}
        className="flex h-10 items-center justify-end rounded-md bg-muted/60 px-3 text-right font-medium whitespace-nowrap text-foreground tabular-nums list-table:px-2"
        data-testid="computed-cell"
      >
        {value === '' ? '—' : print(value, c)}
      </output>
    </td>
  );
}

interface InputCellProps {
  /** Laid out as a table (not cards): the cell keeps its type's width. */
  table: boolean;
  column: TListColumn;
  control: Control<TFormValues>;
  cellName: string;
  cellId: string;
  cellLabel: string;
  disabled?: boolean;
  adornment?: TAdornment | undefined;
}

/** An entered column's cell: its typed control, labelled on a phone, with its error below. */
function InputCell({ column: c, control, cellName, cellId, cellLabel, disabled, table, adornment }: InputCellProps) {
  return (
    <td className={cn(cellClass(c), c.type === 'checkbox' && 'list-table:text-center')}>
      <Controller
        control={control}
        name={cellName}
        render={({ field, fieldState }) => {
          const errorId = `${cellId}-error`;
          return (
            <div
              style={table ? { minWidth: minWidth(c, adornment) } : undefined}
              className={cn('flex flex-col gap-1', c.type === 'checkbox' && 'list-table:items-center list-table:pt-3')}
            >
              <label htmlFor={cellId} className={cn('text-xs text-muted-foreground list-table:hidden', c.type === 'checkbox' && 'hidden')}>
                {placeholderLabel(c)}
                {c.required && <span className="text-destructive"> *</span>}
              </label>
              <div className={cn(c.type === 'checkbox' && 'flex items-center gap-2 list-cards:h-10')}>
                <ValueControl
                  field={c}
                  compact
                  adornment={adornment}
                  onChange={field.onChange}
                  common={{
                    id: cellId,
                    name: field.name,
                    ref: field.ref,
                    value: typeof field.value === 'string' ? field.value : '',
                    onBlur: field.onBlur,
                    disabled,
                    'aria-label': cellLabel,
                    'aria-invalid': fieldState.invalid || undefined,
                    'aria-describedby': fieldState.error ? errorId : undefined,
                    'aria-required': c.required || undefined,
                  }}
                />
                {c.type === 'checkbox' && (
                  <span className="text-sm list-table:hidden" aria-hidden>
                    {placeholderLabel(c)}
                  </span>
                )}
              </div>
              {fieldState.error?.message && (
                <p id={errorId} className="text-xs text-destructive">
                  {fieldState.error.message}
                </p>
              )}
            </div>
          );
        }}
      />
    </td>
  );
}

interface RowActionsProps {
  r: number;
  count: number;
  disabled?: boolean;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
}

/** Move a row up or down, or remove it. */
function RowActions({ r, count, disabled, move, remove }: RowActionsProps) {
  return (
    <td className="px-1 py-1.5 align-top list-cards:col-start-2 list-cards:row-start-1 list-cards:p-0 list-table:pt-1.5">
      <div className="flex items-center justify-end gap-0.5">
        {/* Beside the row the arrows stack, so the table keeps its room for the values. */}
        <div className="flex list-table:flex-col">
          <button type="button" className={iconButton} aria-label={`Move row ${r + 1} up`} disabled={disabled || r === 0} onClick={() => move(r, r - 1)}>
            <ArrowUpIcon className="size-4 list-table:size-3.5" aria-hidden />
          </button>
          <button
            type="button"
            className={iconButton}
            aria-label={`Move row ${r + 1} down`}
            disabled={disabled || r === count - 1}
            onClick={() => move(r, r + 1)}
          >
            <ArrowDownIcon className="size-4 list-table:size-3.5" aria-hidden />
          </button>
        </div>
        <button
          type="button"
          className={cn(iconButton, 'hover:bg-destructive/10 hover:text-destructive')}
          aria-label={`Remove row ${r + 1}`}
          disabled={disabled}
          onClick={() => remove(r)}
        >
          <Trash2Icon className="size-4" aria-hidden />
        </button>
      </div>
    </td>
  );
}

/**
 * A list placeholder as an editable table: a row per item, a typed control per column, formula
 * columns computed as the person types, per-cell errors, and rows added, removed and moved. Where
 * its columns do not fit their values side by side (a phone, or a form beside its preview) each row
 * is a card with its columns labelled; a table wider than its box (a long computed value) scrolls
 * within it, and the box then takes focus so the keyboard can scroll it.
 */
export function ListField({
  placeholder,
  index,
  control,
  disabled,
  computedRows,
  content,
}: {
  placeholder: TPlaceholder;
  index: number;
  control: Control<TFormValues>;
  disabled?: boolean;
  /** Each form row's values with its formulas computed (undefined for a blank row). */
  computedRows: (Record<string, string> | undefined)[];
  content: Pick<TFormatContent, 'elements' | 'header' | 'footer' | 'locale' | 'currency'>;
}) {
  const name = fieldKey(index);
  const { fields, append, remove, move } = useFieldArray({ control, name: name as never });
  const { errors } = useFormState({ control, name });
  const listError = (errors[name] as { root?: { message?: string }; message?: string } | undefined)?.root?.message;
  const label = placeholderLabel(placeholder);
  const columns = useMemo(() => placeholder.columns ?? [], [placeholder.columns]);
  const max = Math.min(placeholder.maxItems ?? MAX_LIST_ROWS, MAX_LIST_ROWS);
  const printers = useMemo(() => columns.map((c) => printLike(content, c.name, placeholder.name)), [columns, content, placeholder.name]);
  const id = `field-${index}`;
  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(scroller);
  const { ref: box, layout } = useListLayout(columns);

  return (
    <fieldset className="min-w-0 sm:col-span-2" data-testid={`field-${placeholder.name}`} aria-describedby={listError ? `${id}-error` : undefined}>
      <legend className="mb-2 flex w-full items-baseline gap-2 text-sm font-medium">
        <span>
          {label}
          {placeholder.required && (
            <>
              <span className="ml-0.5 text-destructive" aria-hidden>
                *
              </span>
              <span className="sr-only"> (required)</span>
            </>
          )}
        </span>
        <span className="ml-auto text-xs font-normal text-muted-foreground tabular-nums" aria-live="polite">
          {fields.length} {fields.length === 1 ? 'row' : 'rows'}
        </span>
      </legend>
      <div ref={box} data-list-layout={layout}>
        <div
          ref={scroller}
          {...scrollRegionProps(scrolls, `${label} (scrolls sideways)`)}
          className="overflow-x-auto rounded-lg border outline-none focus-visible:ring-2 focus-visible:ring-ring bg-background list-table:shadow-xs list-cards:border-0 list-cards:bg-transparent"
        >
          <table className="w-full border-collapse text-sm list-cards:block" aria-label={label}>
            <ListHead columns={columns} />
            <tbody className="list-cards:flex list-cards:flex-col list-cards:gap-3">
              {fields.map((row, r) => (
                <tr
                  key={row.id}
                  className="border-b last:border-b-0 list-cards:grid list-cards:grid-cols-2 list-cards:gap-x-3 list-cards:gap-y-2.5 list-cards:rounded-lg list-cards:border list-cards:bg-background list-cards:p-3 list-cards:shadow-xs list-cards:last:border-b"
                  data-testid="list-row"
                >
                  <td className="py-1.5 pl-2 text-center align-top text-xs text-muted-foreground tabular-nums list-cards:col-span-1 list-cards:self-center list-cards:p-0 list-cards:text-left list-cards:text-sm list-cards:font-medium list-cards:text-foreground list-table:pt-3">
                    <span className="list-table:hidden">Row </span>
                    {r + 1}
                  </td>
                  {columns.map((c, j) => {
                    const cellLabel = `${label}, row ${r + 1}, ${placeholderLabel(c)}`;
                    if (c.type === 'formula') {
                      return (
                        <ComputedCell
                          key={c.name}
                          table={layout === 'table'}
                          column={c}
                          value={computedRows[r]?.[c.name] ?? ''}
                          cellLabel={cellLabel}
                          print={printers[j]!}
                        />
                      );
                    }
                    return (
                      <InputCell
                        table={layout === 'table'}
                        key={c.name}
                        column={c}
                        control={control}
                        cellName={`${name}.${r}.${columnKey(j)}`}
                        cellId={`${id}-${r}-${j}`}
                        cellLabel={cellLabel}
                        disabled={disabled}
                        adornment={numberAdornment(c, content)}
                      />
                    );
                  })}
                  <RowActions r={r} count={fields.length} disabled={disabled} move={move} remove={remove} />
                </tr>
              ))}
            </tbody>
          </table>
          {fields.length === 0 && <p className="px-4 py-6 text-center text-sm text-muted-foreground">No rows yet.</p>}
        </div>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" disabled={disabled || fields.length >= max} onClick={() => append(emptyRow(placeholder) as never)}>
          <PlusIcon aria-hidden /> Add row
        </Button>
        {fields.length >= max && <span className="text-xs text-muted-foreground">At most {max.toLocaleString('en-US')} rows.</span>}
      </div>
      {listError && (
        <p id={`${id}-error`} className="mt-1.5 text-[13px] text-destructive">
          {listError}
        </p>
      )}
    </fieldset>
  );
}
