import { PlusIcon, XIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import {
  CHECKED_MARK,
  COLUMN_TYPES,
  defaultPlaceholderLabel,
  MAX_CHECKBOX_TEXT_LENGTH,
  MAX_LIST_COLUMNS,
  MAX_LIST_ROWS,
  normalizePlaceholderName,
  PLACEHOLDER_TYPES,
  UNCHECKED_MARK,
  ZPlaceholderName,
  type TColumnType,
  type TListColumn,
  type TPlaceholder,
  type TPlaceholderType,
} from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { cn } from '../../lib/utils';
import { IconButton, NativeSelect } from './controls';
import { FormulaCheck, useFormulaCheck } from './formula-check';

export const PLACEHOLDER_TYPE_LABELS: Record<TPlaceholderType, string> = {
  text: 'Text',
  email: 'Email',
  number: 'Number',
  date: 'Date',
  tel: 'Phone',
  textarea: 'Long text',
  select: 'Choice (drop-down)',
  checkbox: 'Checkbox (yes or no)',
  list: 'List of rows',
  formula: 'Formula (computed)',
};

/** One column of a list being defined; `original` is its name when the dialog opened, to carry a rename into the format. */
export interface ColumnDraft {
  key: string;
  name: string;
  label: string;
  type: TColumnType;
  required: boolean;
  /** For a choice: one option per comma. */
  options: string;
  expression: string;
  original?: string;
}

export interface PlaceholderFormValues {
  name: string;
  label: string;
  type: TPlaceholderType;
  required: boolean;
  /** One option per line. */
  options: string;
  /** For a formula. */
  expression: string;
  /** For a checkbox: what prints when ticked and when not (empty: ☑ and ☐). */
  checkedText: string;
  uncheckedText: string;
  /** For a list. */
  columns: ColumnDraft[];
  minItems: string;
  maxItems: string;
}

let columnKeys = 0;
const newColumnKey = () => `col-${++columnKeys}`;

/** A new list starts as line items: the columns most lists of things to bill have. */
export function starterColumns(): ColumnDraft[] {
  return [
    { key: newColumnKey(), name: 'description', label: '', type: 'text', required: true, options: '', expression: '' },
    { key: newColumnKey(), name: 'qty', label: 'Qty', type: 'number', required: true, options: '', expression: '' },
    { key: newColumnKey(), name: 'price', label: '', type: 'number', required: true, options: '', expression: '' },
    { key: newColumnKey(), name: 'amount', label: '', type: 'formula', required: false, options: '', expression: 'qty * price' },
  ];
}

export function emptyFormValues(): PlaceholderFormValues {
  return { name: '', label: '', type: 'text', required: false, options: '', expression: '', checkedText: '', uncheckedText: '', columns: [], minItems: '', maxItems: '' };
}

/** A placeholder as the form edits it. */
export function formValuesOf(p: TPlaceholder): PlaceholderFormValues {
  return {
    name: p.name,
    label: p.label ?? '',
    type: p.type,
    required: p.required,
    options: p.options.join('\n'),
    expression: p.expression ?? '',
    checkedText: p.checkedText ?? '',
    uncheckedText: p.uncheckedText ?? '',
    columns: (p.columns ?? []).map((c) => ({
      key: newColumnKey(),
      name: c.name,
      label: c.label ?? '',
      type: c.type,
      required: c.required,
      options: c.options.join(', '),
      expression: c.expression ?? '',
      original: c.name,
    })),
    minItems: p.minItems === undefined ? '' : String(p.minItems),
    maxItems: p.maxItems === undefined ? '' : String(p.maxItems),
  };
}

function rowCount(text: string, what: string): { value?: number; error?: string } {
  if (text.trim() === '') return {};
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > MAX_LIST_ROWS) return { error: `The ${what} rows must be a whole number up to ${MAX_LIST_ROWS.toLocaleString('en-US')}.` };
  return { value: n };
}

/**
 * The placeholder a form describes, or what is wrong with it. `keep` is the name the placeholder
 * being edited has now, which it may of course keep. `columnRenames` maps a list's columns' old
 * names to their new ones, so their tags and formulas follow.
 */
export function placeholderFromForm(
  values: PlaceholderFormValues,
  taken: ReadonlySet<string>,
  keep: string | null = null,
): { placeholder: TPlaceholder; columnRenames: Record<string, string> } | { error: string } {
  const parsed = ZPlaceholderName.safeParse(values.name);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Enter a valid placeholder name.' };
  if (parsed.data !== keep && taken.has(parsed.data)) return { error: `A placeholder named ${parsed.data} already exists.` };
  const options = values.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
  if (values.type === 'select' && options.length === 0) return { error: 'Add at least one option, one per line.' };
  const label = values.label.trim();
  const base: TPlaceholder = { name: parsed.data, ...(label ? { label } : {}), type: values.type, required: values.type === 'formula' ? false : values.required, options: values.type === 'select' ? options : [] };
  const columnRenames: Record<string, string> = {};
  switch (values.type) {
    case 'formula':
      if (values.expression.trim() === '') return { error: 'Write what the formula computes, e.g. qty * price.' };
      return { placeholder: { ...base, expression: values.expression.trim() }, columnRenames };
    case 'checkbox':
      return {
        placeholder: {
          ...base,
          ...(values.checkedText ? { checkedText: values.checkedText } : {}),
          ...(values.uncheckedText ? { uncheckedText: values.uncheckedText } : {}),
        },
        columnRenames,
      };
    case 'list': {
      if (values.columns.length === 0) return { error: 'Add at least one column to the list.' };
      const columns: TListColumn[] = [];
      for (const [j, draft] of values.columns.entries()) {
        const name = ZPlaceholderName.safeParse(draft.name);
        if (!name.success) return { error: `Column ${j + 1}: ${name.error.issues[0]?.message ?? 'enter a name'}` };
        if (columns.some((c) => c.name === name.data)) return { error: `Two columns are named ${name.data}.` };
        const columnOptions = draft.options.split(',').map((o) => o.trim()).filter(Boolean);
        if (draft.type === 'select' && columnOptions.length === 0) return { error: `Column ${name.data}: add its options, separated by commas.` };
        if (draft.type === 'formula' && draft.expression.trim() === '') return { error: `Column ${name.data}: write what it computes, e.g. qty * price.` };
        const columnLabel = draft.label.trim();
        columns.push({
          name: name.data,
          ...(columnLabel ? { label: columnLabel } : {}),
          type: draft.type,
          required: draft.type === 'formula' ? false : draft.required,
          options: draft.type === 'select' ? columnOptions : [],
          ...(draft.type === 'formula' ? { expression: draft.expression.trim() } : {}),
        });
        if (draft.original && draft.original !== name.data) columnRenames[draft.original] = name.data;
      }
      const min = rowCount(values.minItems, 'fewest');
      const max = rowCount(values.maxItems, 'most');
      if (min.error || max.error) return { error: (min.error ?? max.error)! };
      if (min.value !== undefined && max.value !== undefined && min.value > max.value) return { error: 'The fewest rows cannot be more than the most rows.' };
      if (max.value === 0) return { error: 'A list holds at least one row at most; leave the most rows empty for no limit.' };
      return {
        placeholder: { ...base, columns, ...(min.value !== undefined ? { minItems: min.value } : {}), ...(max.value !== undefined ? { maxItems: max.value } : {}) },
        columnRenames,
      };
    }
    default:
      return { placeholder: base, columnRenames };
  }
}

/** The columns of a list being defined: name, type, required, and a formula's expression or a choice's options. */
function ColumnsEditor({
  id,
  values,
  placeholders,
  onChange,
  compact,
}: {
  id: string;
  values: Pick<PlaceholderFormValues, 'name' | 'columns'>;
  placeholders: readonly TPlaceholder[];
  onChange: (columns: ColumnDraft[]) => void;
  compact?: boolean;
}) {
  const columns = values.columns;
  const set = (j: number, next: Partial<ColumnDraft>) => onChange(columns.map((c, k) => (k === j ? { ...c, ...next } : c)));
  const listName = normalizePlaceholderName(values.name) || 'items';
  const parsedColumns: TListColumn[] = columns.map((c) => ({
    name: normalizePlaceholderName(c.name),
    type: c.type,
    required: c.required,
    options: c.options.split(',').map((o) => o.trim()).filter(Boolean),
    ...(c.type === 'formula' ? { expression: c.expression } : {}),
  }));
  return (
    <div className="space-y-2" data-testid="columns-editor">
      <p className="text-sm font-medium">Columns</p>
      <ul className="space-y-2">
        {columns.map((c, j) => (
          <li key={c.key} className="space-y-1.5 rounded-md border bg-muted/20 p-2" data-testid="column-draft">
            <div className={cn('grid gap-1.5', compact ? 'grid-cols-[1fr_auto]' : 'grid-cols-[1fr_1fr_auto]')}>
              <Input aria-label={`Column ${j + 1} name`} value={c.name} placeholder="name" className="h-8" onChange={(e) => set(j, { name: e.target.value })} />
              {!compact && <Input aria-label={`Column ${j + 1} label`} value={c.label} placeholder={defaultPlaceholderLabel(normalizePlaceholderName(c.name)) || 'label'} className="h-8" onChange={(e) => set(j, { label: e.target.value })} />}
              <IconButton icon={XIcon} label={`Remove column ${j + 1}`} tone="danger" onClick={() => onChange(columns.filter((_, k) => k !== j))} />
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <NativeSelect aria-label={`Column ${j + 1} type`} className="w-auto min-w-28 flex-1" value={c.type} onChange={(e) => set(j, { type: e.target.value as TColumnType })}>
                {COLUMN_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {PLACEHOLDER_TYPE_LABELS[t]}
                  </option>
                ))}
              </NativeSelect>
              {c.type !== 'formula' && (
                <label className="flex cursor-pointer items-center gap-1.5 text-xs font-medium">
                  <input type="checkbox" checked={c.required} onChange={(e) => set(j, { required: e.target.checked })} className="size-3.5 cursor-pointer accent-[var(--color-primary)]" />
                  Required
                </label>
              )}
            </div>
            {c.type === 'select' && (
              <Input aria-label={`Column ${j + 1} options`} value={c.options} placeholder="Options, separated by commas" className="h-8" onChange={(e) => set(j, { options: e.target.value })} />
            )}
            {c.type === 'formula' && (
              <ColumnFormula
                id={`${id}-col-${j}`}
                label={`Column ${j + 1} formula`}
                expression={c.expression}
                self={normalizePlaceholderName(c.name)}
                placeholders={placeholders}
                list={{ name: listName, columns: parsedColumns }}
                onChange={(expression) => set(j, { expression })}
              />
            )}
          </li>
        ))}
      </ul>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={columns.length >= MAX_LIST_COLUMNS}
        onClick={() => onChange([...columns, { key: newColumnKey(), name: '', label: '', type: 'text', required: false, options: '', expression: '' }])}
      >
        <PlusIcon aria-hidden /> Add column
      </Button>
    </div>
  );
}

function ColumnFormula({
  id,
  label,
  expression,
  self,
  placeholders,
  list,
  onChange,
}: {
  id: string;
  label: string;
  expression: string;
  self: string;
  placeholders: readonly TPlaceholder[];
  list: { name: string; columns: readonly TListColumn[] };
  onChange: (expression: string) => void;
}) {
  const check = useFormulaCheck(expression, self, placeholders, list);
  return (
    <>
      <Input aria-label={label} aria-describedby={`${id}-check`} value={expression} placeholder="e.g. qty * price" className="h-8 font-mono text-[12.5px]" onChange={(e) => onChange(e.target.value)} />
      <FormulaCheck check={check} id={`${id}-check`} />
    </>
  );
}

function TopFormula({ id, expression, self, placeholders, onChange }: { id: string; expression: string; self: string; placeholders: readonly TPlaceholder[]; onChange: (expression: string) => void }) {
  const check = useFormulaCheck(expression, self, placeholders);
  return (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-expression`}>Formula</Label>
      <Textarea
        id={`${id}-expression`}
        value={expression}
        rows={2}
        spellCheck={false}
        placeholder="e.g. round(subtotal * 0.18, 2)"
        aria-describedby={`${id}-check`}
        onChange={(e) => onChange(e.target.value)}
        className="min-h-16 font-mono text-[12.5px]"
      />
      <FormulaCheck check={check} id={`${id}-check`} />
    </div>
  );
}

/** Type, Required and what the type needs: a choice's options, a checkbox's words, a formula, a list's columns. */
export function PlaceholderTypeFields({
  id,
  values,
  onChange,
  compact,
  placeholders,
}: {
  id: string;
  values: PlaceholderFormValues;
  onChange: (next: Partial<PlaceholderFormValues>) => void;
  compact?: boolean;
  /** The format's placeholders: what a formula may read. */
  placeholders: readonly TPlaceholder[];
}) {
  const changeType = (type: TPlaceholderType) => onChange({ type, ...(type === 'list' && values.columns.length === 0 ? { columns: starterColumns() } : {}) });
  return (
    <>
      <div className={cn('grid grid-cols-[1fr_auto] items-end', compact ? 'gap-2' : 'gap-3')}>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-type`}>Type</Label>
          <NativeSelect id={`${id}-type`} value={values.type} onChange={(e) => changeType(e.target.value as TPlaceholderType)}>
            {PLACEHOLDER_TYPES.map((t) => (
              <option key={t} value={t}>
                {PLACEHOLDER_TYPE_LABELS[t]}
              </option>
            ))}
          </NativeSelect>
        </div>
        {values.type !== 'formula' && (
          <label htmlFor={`${id}-required`} className="flex h-9 cursor-pointer items-center gap-2 text-sm font-medium">
            <input
              id={`${id}-required`}
              type="checkbox"
              checked={values.required}
              onChange={(e) => onChange({ required: e.target.checked })}
              className="size-4 cursor-pointer accent-[var(--color-primary)]"
            />
            Required
          </label>
        )}
      </div>
      {values.type === 'select' && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-options`}>Options, one per line</Label>
          <Textarea
            id={`${id}-options`}
            value={values.options}
            rows={4}
            placeholder={'Full-time\nPart-time'}
            onChange={(e) => onChange({ options: e.target.value })}
            className={compact ? 'min-h-20' : undefined}
          />
        </div>
      )}
      {values.type === 'checkbox' && (
        <div className="grid grid-cols-2 gap-2">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-checked`}>Prints when ticked</Label>
            <Input id={`${id}-checked`} value={values.checkedText} maxLength={MAX_CHECKBOX_TEXT_LENGTH} placeholder={CHECKED_MARK} className="h-9" onChange={(e) => onChange({ checkedText: e.target.value })} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-unchecked`}>When not</Label>
            <Input id={`${id}-unchecked`} value={values.uncheckedText} maxLength={MAX_CHECKBOX_TEXT_LENGTH} placeholder={UNCHECKED_MARK} className="h-9" onChange={(e) => onChange({ uncheckedText: e.target.value })} />
          </div>
        </div>
      )}
      {values.type === 'formula' && (
        <TopFormula id={id} expression={values.expression} self={normalizePlaceholderName(values.name)} placeholders={placeholders} onChange={(expression) => onChange({ expression })} />
      )}
      {values.type === 'list' && (
        <>
          <ColumnsEditor id={id} values={values} placeholders={placeholders} compact={compact} onChange={(columns) => onChange({ columns })} />
          <div className="grid grid-cols-2 gap-2">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-min`}>Fewest rows</Label>
              <Input id={`${id}-min`} inputMode="numeric" value={values.minItems} placeholder="any" className="h-9" onChange={(e) => onChange({ minItems: e.target.value.replace(/\D/g, '') })} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-max`}>Most rows</Label>
              <Input id={`${id}-max`} inputMode="numeric" value={values.maxItems} placeholder={MAX_LIST_ROWS.toLocaleString('en-US')} className="h-9" onChange={(e) => onChange({ maxItems: e.target.value.replace(/\D/g, '') })} />
            </div>
          </div>
        </>
      )}
    </>
  );
}

/** What the dialog edits: an existing placeholder, or a new one with a suggested name and type. */
export type PlaceholderDraft = { editing: TPlaceholder } | { creating: Pick<TPlaceholder, 'name' | 'type'> };

/**
 * One form for a placeholder's name, label, type, required flag and options: to create one from a
 * tag typed in the text, or to edit one (a new name is written into every tag that used the old).
 */
export function PlaceholderDialog({
  draft,
  taken,
  onSave,
  onClose,
  placeholders,
}: {
  draft: PlaceholderDraft | null;
  /** Names other placeholders already have. */
  taken: ReadonlySet<string>;
  onSave: (placeholder: TPlaceholder, previousName: string | null, columnRenames: Record<string, string>) => void;
  onClose: () => void;
  /** The format's placeholders, for a formula's check. */
  placeholders: readonly TPlaceholder[];
}) {
  return (
    <Dialog open={draft !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[92dvh] max-w-lg overflow-y-auto">
        {draft && (
          <PlaceholderForm
            key={'editing' in draft ? draft.editing.name : draft.creating.name}
            draft={draft}
            taken={taken}
            onSave={onSave}
            onClose={onClose}
            placeholders={placeholders}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function PlaceholderForm({
  draft,
  taken,
  onSave,
  onClose,
  placeholders,
}: {
  draft: PlaceholderDraft;
  taken: ReadonlySet<string>;
  onSave: (placeholder: TPlaceholder, previousName: string | null, columnRenames: Record<string, string>) => void;
  onClose: () => void;
  placeholders: readonly TPlaceholder[];
}) {
  const id = useId();
  const existing = 'editing' in draft ? draft.editing : null;
  const start: TPlaceholder = 'editing' in draft ? draft.editing : { ...draft.creating, required: false, options: [] };
  const [values, setValues] = useState<PlaceholderFormValues>(() => {
    const v = formValuesOf(start);
    return v.type === 'list' && v.columns.length === 0 ? { ...v, columns: starterColumns() } : v;
  });
  const [error, setError] = useState<string | null>(null);
  const change = (next: Partial<PlaceholderFormValues>) => setValues((v) => ({ ...v, ...next }));
  const normalized = normalizePlaceholderName(values.name);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = placeholderFromForm(values, taken, existing?.name ?? null);
    if ('error' in result) setError(result.error);
    else onSave(result.placeholder, existing?.name ?? null, result.columnRenames);
  };

  return (
    <form onSubmit={submit} className="grid gap-4" data-own-undo aria-label={existing ? 'Edit placeholder' : 'New placeholder'}>
      <DialogHeader>
        <DialogTitle>{existing ? 'Edit placeholder' : 'New placeholder'}</DialogTitle>
        <DialogDescription>
          {existing
            ? 'A new name is written into every place the placeholder is used.'
            : 'It becomes a field on the form; its value goes wherever the tag is.'}
        </DialogDescription>
      </DialogHeader>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input
          id={`${id}-name`}
          value={values.name}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            change({ name: e.target.value });
            setError(null);
          }}
        />
        <p id={`${id}-hint`} className={cn('text-xs', error ? 'text-destructive' : 'text-muted-foreground')} role={error ? 'alert' : undefined}>
          {error ?? (normalized ? <>Written as <code className="font-mono text-foreground">{`{{${normalized}}}`}</code></> : 'Lowercase; spaces become underscores.')}
        </p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-label`}>
          Label on the form <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id={`${id}-label`}
          value={values.label}
          placeholder={normalized ? defaultPlaceholderLabel(normalized) : ''}
          onChange={(e) => change({ label: e.target.value })}
        />
      </div>
      <PlaceholderTypeFields id={id} values={values} onChange={change} placeholders={placeholders} />
      {error && values.type !== 'text' && (
        <p className="text-sm text-destructive" role="alert">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">{existing ? 'Save placeholder' : 'Create placeholder'}</Button>
      </DialogFooter>
    </form>
  );
}
