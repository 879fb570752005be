import {
  DISPLAY_TYPES,
  isSigningPlaceholder,
  MAX_DISPLAY_DECIMALS,
  MAX_LIST_ROWS,
  ZPlaceholderName,
  type TColumnType,
  type TListColumn,
  type TNumberDisplay,
  type TPlaceholder,
  type TPlaceholderType,
} from '../../../contract/placeholders';

/** A display as the form holds it: empty is plain, which is also what a placeholder with none prints. */
export type DisplayDraft = Exclude<TNumberDisplay, 'plain'> | '';

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
  signature: 'Signature',
  initials: 'Initials',
  signed_date: 'Signed date',
  signer_name: 'Signer name',
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
  /** For a number or a formula. */
  display: DisplayDraft;
  /** Decimal places, empty for the display's own. */
  decimals: string;
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
  /** For a number or a formula: how it prints, and its decimal places (empty: the display's own). */
  display: DisplayDraft;
  decimals: string;
  /** For a checkbox: what prints when ticked and when not (empty: ☑ and ☐). */
  checkedText: string;
  uncheckedText: string;
  /** For a list. */
  columns: ColumnDraft[];
  minItems: string;
  maxItems: string;
  /** For the signing types: which signer fills it in. */
  signer: number;
}

let columnKeys = 0;
export const newColumnKey = () => `col-${++columnKeys}`;

/** A new list starts as line items: the columns most lists of things to bill have. */
export function starterColumns(): ColumnDraft[] {
  return [
    { key: newColumnKey(), name: 'description', label: '', type: 'text', required: true, options: '', expression: '', display: '', decimals: '' },
    { key: newColumnKey(), name: 'qty', label: 'Qty', type: 'number', required: true, options: '', expression: '', display: '', decimals: '' },
    { key: newColumnKey(), name: 'price', label: '', type: 'number', required: true, options: '', expression: '', display: 'currency', decimals: '' },
    {
      key: newColumnKey(),
      name: 'amount',
      label: '',
      type: 'formula',
      required: false,
      options: '',
      expression: 'qty * price',
      display: 'currency',
      decimals: '',
    },
  ];
}

export function emptyFormValues(): PlaceholderFormValues {
  return {
    name: '',
    label: '',
    type: 'text',
    required: false,
    options: '',
    expression: '',
    display: '',
    decimals: '',
    checkedText: '',
    uncheckedText: '',
    columns: [],
    minItems: '',
    maxItems: '',
    signer: 1,
  };
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
    display: displayDraftOf(p.display),
    decimals: p.decimals === undefined ? '' : String(p.decimals),
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
      display: displayDraftOf(c.display),
      decimals: c.decimals === undefined ? '' : String(c.decimals),
      original: c.name,
    })),
    minItems: p.minItems === undefined ? '' : String(p.minItems),
    maxItems: p.maxItems === undefined ? '' : String(p.maxItems),
    signer: p.signer ?? 1,
  };
}

const displayDraftOf = (display: TNumberDisplay | undefined): DisplayDraft => (display === undefined || display === 'plain' ? '' : display);

/** A number's or a formula's display fields as the placeholder stores them (none for plain), or what is wrong with the places. */
export function displayFromForm(
  type: TPlaceholderType,
  display: DisplayDraft,
  decimals: string,
): { fields: Pick<TPlaceholder, 'display' | 'decimals'> } | { error: string } {
  if (!DISPLAY_TYPES.includes(type) || display === '') return { fields: {} };
  if (decimals.trim() === '') return { fields: { display } };
  const n = Number(decimals);
  if (!Number.isInteger(n) || n < 0 || n > MAX_DISPLAY_DECIMALS) return { error: `Decimal places are a whole number from 0 to ${MAX_DISPLAY_DECIMALS}.` };
  return { fields: { display, decimals: n } };
}

export function rowCount(text: string, what: string): { value?: number; error?: string } {
  if (text.trim() === '') return {};
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > MAX_LIST_ROWS)
    return { error: `The ${what} rows must be a whole number up to ${MAX_LIST_ROWS.toLocaleString('en-US')}.` };
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
  const base: TPlaceholder = {
    name: parsed.data,
    ...(label ? { label } : {}),
    type: values.type,
    required: values.type === 'formula' ? false : values.required,
    options: values.type === 'select' ? options : [],
  };
  const columnRenames: Record<string, string> = {};
  const shown = displayFromForm(values.type, values.display, values.decimals);
  if ('error' in shown) return shown;
  // A signer fills it in: never required, and it carries the signer's role instead.
  if (isSigningPlaceholder(base)) return { placeholder: { ...base, required: false, signer: values.signer }, columnRenames };
  switch (values.type) {
    case 'formula':
      if (values.expression.trim() === '') return { error: 'Write what the formula computes, e.g. qty * price.' };
      return { placeholder: { ...base, expression: values.expression.trim(), ...shown.fields }, columnRenames };
    case 'number':
      return { placeholder: { ...base, ...shown.fields }, columnRenames };
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
        const columnOptions = draft.options
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean);
        if (draft.type === 'select' && columnOptions.length === 0) return { error: `Column ${name.data}: add its options, separated by commas.` };
        if (draft.type === 'formula' && draft.expression.trim() === '') return { error: `Column ${name.data}: write what it computes, e.g. qty * price.` };
        const columnLabel = draft.label.trim();
        const columnShown = displayFromForm(draft.type, draft.display ?? '', draft.decimals ?? '');
        if ('error' in columnShown) return { error: `Column ${name.data}: ${columnShown.error.charAt(0).toLowerCase()}${columnShown.error.slice(1)}` };
        columns.push({
          name: name.data,
          ...(columnLabel ? { label: columnLabel } : {}),
          type: draft.type,
          required: draft.type === 'formula' ? false : draft.required,
          options: draft.type === 'select' ? columnOptions : [],
          ...(draft.type === 'formula' ? { expression: draft.expression.trim() } : {}),
          ...columnShown.fields,
        });
        if (draft.original && draft.original !== name.data) columnRenames[draft.original] = name.data;
      }
      const min = rowCount(values.minItems, 'fewest');
      const max = rowCount(values.maxItems, 'most');
      if (min.error || max.error) return { error: (min.error ?? max.error)! };
      if (min.value !== undefined && max.value !== undefined && min.value > max.value) return { error: 'The fewest rows cannot be more than the most rows.' };
      if (max.value === 0) return { error: 'A list holds at least one row at most; leave the most rows empty for no limit.' };
      return {
        placeholder: {
          ...base,
          columns,
          ...(min.value !== undefined ? { minItems: min.value } : {}),
          ...(max.value !== undefined ? { maxItems: max.value } : {}),
        },
        columnRenames,
      };
    }
    default:
      return { placeholder: base, columnRenames };
  }
}
