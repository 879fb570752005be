import { PlusIcon, RepeatIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ComponentProps } from 'react';
import { MAX_TABLE_COLUMNS, type TTableElement, type TTextStyle } from '../../../../contract/format-content';
import { placeholderLabel, type TPlaceholder } from '../../../../contract/placeholders';
import { Button } from '../../../components/ui/button';
import { scrollRegionProps, useScrollsSideways } from '../../../hooks/use-scrolls-sideways';
import { cn } from '../../../lib/utils';
import { RepeatBadge } from '../canvas-badges';
import { NativeSelect } from '../controls';
import { IconButton } from '../../../components/ui/icon-button';
import { linksNamedByAddress } from '../../../../contract/inline-markup';
import { fixField } from '../finding-targets';
import { InlineText } from '../inline-text';
import { useInsertableField } from '../insert-target';
import { useLinkDialog } from '../link-dialog';
import { columnPercents, MIN_COLUMN_PERCENT, withColumnPercent } from '../model';
import { textCss, Toolbar, type ElementUpdater } from './shared';

export function TableView({
  el,
  style,
  known,
  placeholders,
}: {
  el: TTableElement;
  style: Required<TTextStyle>;
  known: ReadonlySet<string>;
  placeholders: readonly TPlaceholder[];
}) {
  const repeatRow = el.repeat?.row;
  // Inside the repeating row the list's columns are known names too.
  const columns = el.repeat ? (placeholders.find((p) => p.name === el.repeat!.list)?.columns ?? []) : [];
  const rowKnown = columns.length > 0 ? new Set([...known, ...columns.map((c) => c.name), ...columns.map((c) => `${el.repeat!.list}.${c.name}`)]) : known;
  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(scroller);
  return (
    <div
      ref={scroller}
      {...scrollRegionProps(scrolls, 'Table (scrolls sideways)')}
      className="overflow-x-auto outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {el.repeat && (
        <div className="mb-1.5">
          <RepeatBadge list={el.repeat.list} placeholders={placeholders} detail={`row ${el.repeat.row + 1}`} />
        </div>
      )}
      <table style={textCss(style)} className="w-full table-fixed border-collapse">
        <colgroup>
          {columnPercents(el.columnWidths, Math.max(1, ...el.rows.map((r) => r.length))).map((p, c) => (
            <col key={c} style={{ width: `${p}%` }} />
          ))}
        </colgroup>
        <tbody>
          {el.rows.map((row, r) => (
            <tr
              key={r}
              className={cn(el.headerRow && r === 0 && 'bg-muted font-semibold', r === repeatRow && 'bg-[oklch(0.97_0.03_190)]')}
              data-repeating={r === repeatRow || undefined}
            >
              {row.map((cell, c) => (
                <td key={c} className="border border-[oklch(0.8_0.01_275)] px-2 py-1 align-top break-words">
                  {cell ? <InlineText text={cell} known={r === repeatRow ? rowKnown : known} /> : <span className="inline-block h-[1em]" />}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TableCellInput({
  value,
  label,
  onChange,
  header,
  focusOnOpen,
}: {
  value: string;
  label: string;
  onChange: (v: string) => void;
  header: boolean;
  /** The first cell takes the focus when the table opens. */
  focusOnOpen?: boolean;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const link = useLinkDialog(ref, onChange);
  const field = useInsertableField(label, onChange, { onLink: link.open });
  useEffect(() => {
    if (focusOnOpen) ref.current?.focus();
  }, [focusOnOpen]);
  return (
    <>
      <input
        ref={ref}
        dir="auto"
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={cn(
          'h-9 w-full min-w-0 bg-transparent px-2 text-sm outline-none focus-visible:bg-primary-soft/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset',
          header && 'font-semibold',
        )}
        {...(linksNamedByAddress(value).length > 0 ? fixField('link-text') : {})}
        {...field}
      />
      {link.dialog}
    </>
  );
}

/** A column's share of the table in percent; applied on Enter or when focus leaves. */
function ColumnWidthInput({ percent, label, disabled, onCommit }: { percent: number; label: string; disabled: boolean; onCommit: (percent: number) => void }) {
  const shown = String(Math.round(percent));
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    const value = Number(draft);
    if (draft.trim() !== '' && Number.isFinite(value) && Math.round(value) !== Math.round(percent)) onCommit(value);
    setDraft(null);
  };
  return (
    <label className="flex items-center gap-0.5 text-xs font-normal text-muted-foreground" title="Column width, as a share of the table">
      <input
        type="number"
        inputMode="numeric"
        min={MIN_COLUMN_PERCENT}
        max={100}
        aria-label={label}
        disabled={disabled}
        value={draft ?? shown}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(null);
        }}
        className="h-7 w-12 rounded border bg-background px-1 text-right text-xs text-foreground tabular-nums outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
      />
      %
    </label>
  );
}

/**
 * "Repeat a row for each row of": the list a body row prints once per row of. Choosing a list
 * for an empty row fills it with the list's column tags (and an empty header with their labels).
 */
function RepeatRowControl({
  el,
  placeholders,
  set,
}: {
  el: TTableElement;
  placeholders: readonly TPlaceholder[];
  set: (fn: (e: TTableElement) => Partial<TTableElement>) => void;
}) {
  const id = useId();
  const lists = placeholders.filter((p) => p.type === 'list');
  const firstBody = el.headerRow ? 1 : 0;
  const bodyRows = el.rows.map((_, r) => r).filter((r) => r >= firstBody);
  const chooseList = (name: string) =>
    set((e) => {
      if (!name) return { repeat: undefined };
      const list = lists.find((p) => p.name === name);
      const row = e.repeat?.row !== undefined && e.repeat.row >= firstBody ? e.repeat.row : Math.min(firstBody, e.rows.length - 1);
      let rows = e.rows;
      const columns = list?.columns ?? [];
      if (rows.length <= row) rows = [...rows, ...Array.from({ length: row + 1 - rows.length }, () => [''])];
      if (columns.length > 0 && (rows[row] ?? []).every((cell) => cell.trim() === '')) {
        const width = Math.min(MAX_TABLE_COLUMNS, Math.max(columns.length, ...rows.map((r) => r.length)));
        const pad = (cells: string[]) => [...cells, ...Array.from({ length: width - cells.length }, () => '')];
        rows = rows.map((cells, r) => {
          if (r === row) return pad(columns.slice(0, width).map((c) => `{{${c.name}}}`));
          if (e.headerRow && r === 0 && cells.every((cell) => cell.trim() === '')) return pad(columns.slice(0, width).map((c) => placeholderLabel(c)));
          return pad(cells);
        });
        return { rows, repeat: { row, list: name }, columnWidths: undefined };
      }
      return { rows, repeat: { row, list: name } };
    });
  return (
    <div className="space-y-1.5 rounded-lg border border-dashed px-2.5 py-2" data-testid="repeat-control">
      <label htmlFor={`${id}-list`} className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        <RepeatIcon className="size-3.5" aria-hidden /> Repeat a row for each row of a list
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <NativeSelect
          id={`${id}-list`}
          className="w-auto min-w-40 flex-1"
          value={el.repeat?.list ?? ''}
          onChange={(e) => chooseList(e.target.value)}
          disabled={lists.length === 0 && !el.repeat}
        >
          <option value="">{lists.length === 0 ? 'No list placeholder yet' : 'No: fixed rows'}</option>
          {el.repeat && !lists.some((p) => p.name === el.repeat!.list) && <option value={el.repeat.list}>{el.repeat.list} (missing)</option>}
          {lists.map((p) => (
            <option key={p.name} value={p.name}>
              {placeholderLabel(p)}
            </option>
          ))}
        </NativeSelect>
        {el.repeat && (
          <label className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
            Row
            <NativeSelect
              className="w-auto"
              value={String(el.repeat.row)}
              onChange={(e) => set((x) => (x.repeat ? { repeat: { ...x.repeat, row: Number(e.target.value) } } : {}))}
            >
              {bodyRows.map((r) => (
                <option key={r} value={r}>
                  {r + 1}
                </option>
              ))}
            </NativeSelect>
          </label>
        )}
      </div>
      {lists.length === 0 && !el.repeat && <p className="text-xs text-muted-foreground">Add a placeholder of type List of rows to repeat a row.</p>}
    </div>
  );
}

/** Changes to a table's grid, each as the fields of the element it replaces. */
const gridEdits = {
  addRow: (e: TTableElement): Partial<TTableElement> => ({ rows: [...e.rows, Array.from({ length: Math.max(1, ...e.rows.map((r) => r.length)) }, () => '')] }),
  addColumn: (e: TTableElement): Partial<TTableElement> => {
    const before = Math.max(1, ...e.rows.map((x) => x.length));
    return {
      rows: e.rows.map((r) => [...r, ...Array.from({ length: before - r.length + 1 }, () => '')]),
      // A new column gets an average share rather than the weight of 1 a missing width means.
      ...(e.columnWidths ? { columnWidths: [...columnPercents(e.columnWidths, before), 100 / before] } : {}),
    };
  },
  /** A deleted row moves the repeating row up with the rows after it; deleting that row ends the repeat. */
  deleteRow:
    (r: number) =>
    (e: TTableElement): Partial<TTableElement> => {
      if (e.rows.length <= 1) return {};
      const rows = e.rows.filter((_, i) => i !== r);
      if (!e.repeat || e.repeat.row < r) return { rows };
      return { rows, repeat: e.repeat.row === r ? undefined : { ...e.repeat, row: e.repeat.row - 1 } };
    },
  deleteColumn:
    (c: number) =>
    (e: TTableElement): Partial<TTableElement> =>
      Math.max(1, ...e.rows.map((r) => r.length)) <= 1
        ? {}
        : { rows: e.rows.map((r) => r.filter((_, i) => i !== c)), ...(e.columnWidths ? { columnWidths: e.columnWidths.filter((_, i) => i !== c) } : {}) },
  setCell:
    (r: number, c: number, v: string) =>
    (e: TTableElement): Partial<TTableElement> => ({
      rows: e.rows.map((row, i) => {
        if (i !== r) return row;
        const next = row.slice();
        while (next.length <= c) next.push('');
        next[c] = v;
        return next;
      }),
    }),
};

export function TableEditor({
  el,
  index,
  update,
  placeholders,
}: {
  el: TTableElement;
  index: number;
  update: ElementUpdater;
  placeholders: readonly TPlaceholder[];
}) {
  const set = (fn: (e: TTableElement) => Partial<TTableElement>) => update((e) => (e.type === 'table' ? { ...e, ...fn(e) } : e));
  const cols = Math.max(1, ...el.rows.map((r) => r.length));
  const rows = el.rows.length;
  const headerId = useId();

  const percents = columnPercents(el.columnWidths, cols);
  const setWidth = (c: number, percent: number) => set((e) => ({ columnWidths: withColumnPercent(e.columnWidths, cols, c, percent) }));
  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(scroller);

  return (
    <div className="space-y-3">
      <Toolbar>
        <Button variant="outline" size="sm" onClick={() => set(gridEdits.addRow)}>
          <PlusIcon /> Add row
        </Button>
        <Button variant="outline" size="sm" onClick={() => set(gridEdits.addColumn)} disabled={cols >= MAX_TABLE_COLUMNS}>
          <PlusIcon /> Add column
        </Button>
        <TableOption
          id={headerId}
          label="Header row"
          checked={el.headerRow}
          onChange={(headerRow) =>
            // The header never repeats: a repeat on the first row moves to the row below it.
            set((x) => (headerRow && x.repeat?.row === 0 ? { headerRow, repeat: x.rows.length > 1 ? { ...x.repeat, row: 1 } : undefined } : { headerRow }))
          }
          inputProps={fixField('table-header')}
        />
        <TableOption
          id={`${headerId}-column`}
          label="Header column"
          title="Each row’s first cell names the row: screen readers read it with the row’s other cells"
          checked={el.headerColumn === true}
          onChange={(headerColumn) => set(() => ({ headerColumn: headerColumn || undefined }))}
        />
        <TableOption
          id={`${headerId}-layout`}
          label="Layout only"
          title="Only places text side by side: screen readers read its cells as paragraphs, not as a grid"
          checked={el.layout === true}
          onChange={(layout) => set(() => ({ layout: layout || undefined }))}
        />
        {el.columnWidths && (
          <Button variant="ghost" size="sm" onClick={() => set(() => ({ columnWidths: undefined }))}>
            Even widths
          </Button>
        )}
        <span className="ml-auto text-xs text-muted-foreground tabular-nums">
          {rows} × {cols}
        </span>
      </Toolbar>
      <RepeatRowControl el={el} placeholders={placeholders} set={set} />
      <div
        ref={scroller}
        {...scrollRegionProps(scrolls, `Table ${index + 1} cells (scrolls sideways)`)}
        className="overflow-x-auto rounded-md border outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {/* Wide enough that the narrowest column still takes a few words (6 rem); scrolls beyond that. */}
        <table className="w-full table-fixed border-collapse" style={{ minWidth: `${Math.min(40, Math.max(cols * 7.5, 600 / Math.min(...percents)))}rem` }}>
          <colgroup>
            {percents.map((p, c) => (
              <col key={c} style={{ width: `${p}%` }} />
            ))}
            <col className="w-9" />
          </colgroup>
          <thead>
            <tr>
              {Array.from({ length: cols }, (_, c) => (
                <th key={c} scope="col" className="border-b bg-muted/60 px-1 py-0.5">
                  <div className="flex flex-wrap items-center justify-between gap-1">
                    <ColumnWidthInput
                      percent={percents[c] ?? 100}
                      label={`Table ${index + 1}, column ${c + 1} width in percent`}
                      disabled={cols <= 1}
                      onCommit={(p) => setWidth(c, p)}
                    />
                    <IconButton
                      icon={Trash2Icon}
                      label={`Delete column ${c + 1}`}
                      tone="danger"
                      disabled={cols <= 1}
                      onClick={() => set(gridEdits.deleteColumn(c))}
                      className="size-7"
                    />
                  </div>
                </th>
              ))}
              <th className="w-9 border-b bg-muted/60" aria-hidden />
            </tr>
          </thead>
          <tbody>
            {el.rows.map((row, r) => (
              <tr key={r} className={cn(el.headerRow && r === 0 && 'bg-muted/70', el.repeat?.row === r && 'bg-[oklch(0.97_0.03_190)]')}>
                {Array.from({ length: cols }, (_, c) => (
                  <td key={c} className="border-r border-b last:border-r-0">
                    <TableCellInput
                      value={row[c] ?? ''}
                      label={`Table ${index + 1}, row ${r + 1}, column ${c + 1}`}
                      header={el.headerRow && r === 0}
                      focusOnOpen={r === 0 && c === 0}
                      onChange={(v) => set(gridEdits.setCell(r, c, v))}
                    />
                  </td>
                ))}
                <td className="w-9 border-b bg-muted/30 p-0.5 text-center">
                  <IconButton
                    icon={Trash2Icon}
                    label={`Delete row ${r + 1}`}
                    tone="danger"
                    disabled={rows <= 1}
                    onClick={() => set(gridEdits.deleteRow(r))}
                    className="size-7"
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** One of a table's choices: a checkbox and its words, which toggle it too. */
function TableOption({
  id,
  label,
  title,
  checked,
  onChange,
  inputProps,
}: {
  id: string;
  label: string;
  title?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  inputProps?: ComponentProps<'input'> & Record<`data-${string}`, string>;
}) {
  return (
    <label htmlFor={id} className="flex cursor-pointer items-center gap-2 text-sm font-medium first-of-type:ml-1" title={title}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 cursor-pointer accent-[var(--color-primary)]"
        {...inputProps}
      />
      {label}
    </label>
  );
}
