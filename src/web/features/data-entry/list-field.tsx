import { ArrowDownIcon, ArrowUpIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useMemo } from 'react';
import { Controller, useFieldArray, useFormState, type Control } from 'react-hook-form';
import { printLike } from '../../../contract/filled-values';
import type { TFormatContent } from '../../../contract/format-content';
import { MAX_LIST_ROWS, placeholderLabel, type TListColumn, type TPlaceholder } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { numberAdornment, ValueControl, type TAdornment } from './placeholder-field';
import { columnKey, emptyRow, fieldKey, type TFormValues } from './resolver';

/** How wide a column is at least, by its type: a description gets room, a quantity does not. */
const MIN_WIDTH: Record<TListColumn['type'], string> = {
  text: '@md/list:w-1/2 @md/list:min-w-28',
  textarea: '@md/list:w-1/2 @md/list:min-w-36',
  email: '@md/list:min-w-36',
  tel: '@md/list:min-w-28',
  select: '@md/list:min-w-28',
  number: '@md/list:w-16 @md/list:min-w-14',
  date: '@md/list:min-w-32',
  checkbox: '@md/list:w-12',
  formula: '@md/list:w-24 @md/list:min-w-20',
};

const iconButton =
  'inline-flex size-8 @md/list:size-6 cursor-pointer items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-40';

/** The column headings; on a phone they are hidden and each cell carries its own label. */
function ListHead({ columns }: { columns: readonly TListColumn[] }) {
  return (
    <thead className="@max-md/list:sr-only">
      <tr className="border-b bg-muted/50 text-left text-xs font-medium text-muted-foreground">
        <th scope="col" className="w-7 py-2 pl-2 text-center font-medium">
          #
        </th>
        {columns.map((c) => (
          <th
            key={c.name}
            scope="col"
            className={cn('px-1 py-2 font-medium whitespace-nowrap', MIN_WIDTH[c.type], (c.type === 'number' || c.type === 'formula') && 'text-right')}
          >
            {placeholderLabel(c)}
            {c.required && (
              <span className="ml-0.5 text-destructive" aria-hidden>
                *
              </span>
            )}
            {c.type === 'formula' && <span className="ml-1 font-normal text-muted-foreground/80">(computed)</span>}
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
    'px-1 py-1.5 align-top @max-md/list:p-0',
    (c.type === 'text' || c.type === 'textarea' || c.type === 'email' || c.type === 'select') && '@max-md/list:col-span-2',
  );

/** A formula column's cell: the value computed from the row, printed as the document prints it. */
function ComputedCell({
  column: c,
  value,
  cellLabel,
  print,
}: {
  column: TListColumn;
  value: string;
  cellLabel: string;
  print: (value: string, column: TListColumn) => string;
}) {
  return (
    <td className={cellClass(c)}>
      <span className="mb-1 block text-xs text-muted-foreground @md/list:hidden">{placeholderLabel(c)} (computed)</span>
      <output
        aria-label={cellLabel}
        className="flex h-10 items-center justify-end rounded-md bg-muted/60 px-3 text-right font-medium whitespace-nowrap text-foreground tabular-nums @md/list:px-2"
        data-testid="computed-cell"
      >
        {value === '' ? '—' : print(value, c)}
      </output>
    </td>
  );
}

interface InputCellProps {
  column: TListColumn;
  control: Control<TFormValues>;
  cellName: string;
  cellId: string;
  cellLabel: string;
  disabled?: boolean;
  adornment?: TAdornment | undefined;
}

/** An entered column's cell: its typed control, labelled on a phone, with its error below. */
function InputCell({ column: c, control, cellName, cellId, cellLabel, disabled, adornment }: InputCellProps) {
  return (
    <td className={cn(cellClass(c), c.type === 'checkbox' && '@md/list:text-center')}>
      <Controller
        control={control}
        name={cellName}
        render={({ field, fieldState }) => {
          const errorId = `${cellId}-error`;
          return (
            <div className={cn('flex flex-col gap-1', c.type === 'checkbox' && '@md/list:items-center @md/list:pt-3')}>
              <label htmlFor={cellId} className={cn('text-xs text-muted-foreground @md/list:hidden', c.type === 'checkbox' && 'hidden')}>
                {placeholderLabel(c)}
                {c.required && <span className="text-destructive"> *</span>}
              </label>
              <div className={cn(c.type === 'checkbox' && 'flex items-center gap-2 @max-md/list:h-10')}>
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
                  <span className="text-sm @md/list:hidden" aria-hidden>
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
    <td className="px-1 py-1.5 align-top @max-md/list:col-start-2 @max-md/list:row-start-1 @max-md/list:p-0 @md/list:pt-1.5">
      <div className="flex items-center justify-end gap-0.5">
        {/* Beside the row the arrows stack, so the table keeps its room for the values. */}
        <div className="flex @md/list:flex-col">
          <button type="button" className={iconButton} aria-label={`Move row ${r + 1} up`} disabled={disabled || r === 0} onClick={() => move(r, r - 1)}>
            <ArrowUpIcon className="size-4 @md/list:size-3.5" aria-hidden />
          </button>
          <button
            type="button"
            className={iconButton}
            aria-label={`Move row ${r + 1} down`}
            disabled={disabled || r === count - 1}
            onClick={() => move(r, r + 1)}
          >
            <ArrowDownIcon className="size-4 @md/list:size-3.5" aria-hidden />
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
 * the list has less than 28 rem (a phone) each row is a card with its columns labelled; a wide list
 * scrolls within its box.
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
      <div className="@container/list">
        <div className="overflow-x-auto rounded-lg border bg-background @md/list:shadow-xs @max-md/list:border-0 @max-md/list:bg-transparent">
          <table className="w-full border-collapse text-sm @max-md/list:block" aria-label={label}>
            <ListHead columns={columns} />
            <tbody className="@max-md/list:flex @max-md/list:flex-col @max-md/list:gap-3">
              {fields.map((row, r) => (
                <tr
                  key={row.id}
                  className="border-b last:border-b-0 @max-md/list:grid @max-md/list:grid-cols-2 @max-md/list:gap-x-3 @max-md/list:gap-y-2.5 @max-md/list:rounded-lg @max-md/list:border @max-md/list:bg-background @max-md/list:p-3 @max-md/list:shadow-xs @max-md/list:last:border-b"
                  data-testid="list-row"
                >
                  <td className="py-1.5 pl-2 text-center align-top text-xs text-muted-foreground tabular-nums @max-md/list:col-span-1 @max-md/list:self-center @max-md/list:p-0 @max-md/list:text-left @max-md/list:text-sm @max-md/list:font-medium @max-md/list:text-foreground @md/list:pt-3">
                    <span className="@md/list:hidden">Row </span>
                    {r + 1}
                  </td>
                  {columns.map((c, j) => {
                    const cellLabel = `${label}, row ${r + 1}, ${placeholderLabel(c)}`;
                    if (c.type === 'formula') {
                      return <ComputedCell key={c.name} column={c} value={computedRows[r]?.[c.name] ?? ''} cellLabel={cellLabel} print={printers[j]!} />;
                    }
                    return (
                      <InputCell
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
