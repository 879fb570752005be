import { z } from 'zod';
import { showIfHolds, type TShowIf } from './conditions.ts';
import { contentTexts, elementTexts, type TElement, type TFormatContent } from './format-content.ts';
import {
  BudgetExceeded,
  Dec,
  evaluateFormula,
  FORMULA_STEP_BUDGET,
  FormulaError,
  parseFormula,
  resultText,
  ROW_COUNT,
  withStepBudget,
  type TFormulaResult,
  type TScopeValue,
} from './formulas.ts';
import {
  DEFAULT_CURRENCY,
  DEFAULT_LOCALE,
  findPlaceholderTags,
  isTicked,
  printValue,
  type TListColumn,
  type TPlaceholder,
  type TPrintable,
  type TValueFormat,
} from './placeholders.ts';

/*
 * A document's filled values: text for each placeholder, and for a list its rows (objects keyed
 * by column name). Formulas are computed from them here, and which placeholders only matter to
 * hidden elements is worked out here, the same way in the form, the server and the renderer.
 */

export type TListRow = Record<string, string>;
export type TFilledValue = string | TListRow[];
export type TFilledValues = Record<string, TFilledValue>;

/** A document's stored values, as the API shows them. */
export const ZFilledValue = z.union([z.string(), z.array(z.record(z.string(), z.string()))]);
export const ZFilledValues = z.record(z.string(), ZFilledValue);

export const textOf = (value: TFilledValue | undefined): string => (typeof value === 'string' ? value : '');
export const rowsOf = (value: TFilledValue | undefined): TListRow[] => (Array.isArray(value) ? value : []);

/** The text values alone (a list is left out): what file names and document names are made from. */
export function textValues(values: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (typeof value === 'string') out[name] = value;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Formulas over filled values

/** A placeholder or column as formulas see its value. */
function scopeValue(type: TPlaceholder['type'], value: string): TScopeValue {
  switch (type) {
    case 'number': {
      const t = value.trim().replaceAll(',', '');
      return t === '' ? new Dec(0) : /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t) && t.length <= 60 ? new Dec(t) : value;
    }
    case 'checkbox':
      return isTicked(value);
    default:
      return value;
  }
}

/** Parsed formulas by their text, or the reason each could not be parsed. */
const parsedCache = new Map<string, ReturnType<typeof parseFormula>>();
export function parsedFormula(expression: string): ReturnType<typeof parseFormula> {
  let parsed = parsedCache.get(expression);
  if (!parsed) {
    parsed = parseFormula(expression);
    if (parsedCache.size >= 500) parsedCache.clear();
    parsedCache.set(expression, parsed);
  }
  return parsed;
}

/** A formula node: a top-level formula placeholder, or a formula column of a list (`list.column`). */
interface TFormulaNode {
  key: string;
  list?: TPlaceholder;
  column?: TListColumn;
  placeholder?: TPlaceholder;
  expression: string;
}

function formulaNodes(placeholders: readonly TPlaceholder[]): TFormulaNode[] {
  const nodes: TFormulaNode[] = [];
  for (const p of placeholders) {
    if (p.type === 'formula') nodes.push({ key: p.name, placeholder: p, expression: p.expression ?? '' });
    if (p.type === 'list') {
      for (const c of p.columns ?? []) {
        if (c.type === 'formula') nodes.push({ key: `${p.name}.${c.name}`, list: p, column: c, expression: c.expression ?? '' });
      }
    }
  }
  return nodes;
}

/** The formula nodes a reference of `node` depends on. */
function dependenciesOf(node: TFormulaNode, reference: string, byName: Map<string, TPlaceholder>): string[] {
  const [head = '', member] = reference.split('.', 2) as [string, string | undefined];
  // Inside a list's row, a column name (bare or as list.column) is that row's value.
  if (node.list) {
    const own = node.list.columns?.find((c) => c.name === (head === node.list!.name && member ? member : head));
    if (own && (head !== node.list.name || member)) return own.type === 'formula' ? [`${node.list.name}.${own.name}`] : [];
  }
  const p = byName.get(head);
  if (!p) return [];
  if (p.type === 'formula') return [p.name];
  if (p.type === 'list') {
    const columns = (p.columns ?? []).filter((c) => c.type === 'formula' && (member === undefined || c.name === member));
    return columns.map((c) => `${p.name}.${c.name}`);
  }
  return [];
}

export interface TFormulaOrder {
  /** Nodes in an order where each comes after what it reads. */
  order: TFormulaNode[];
  /** A circle of formulas that read each other, by key, when there is one. */
  cycle?: string[];
}

/** Formulas sorted so each is computed after the formulas it reads. */
export function formulaOrder(placeholders: readonly TPlaceholder[]): TFormulaOrder {
  const nodes = formulaNodes(placeholders);
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const byName = new Map(placeholders.map((p) => [p.name, p]));
  const edges = new Map<string, string[]>();
  for (const node of nodes) {
    const parsed = parsedFormula(node.expression);
    const refs = 'formula' in parsed ? parsed.formula.references : [];
    edges.set(
      node.key,
      [...new Set(refs.flatMap((r) => dependenciesOf(node, r, byName)))].filter((k) => byKey.has(k)),
    );
  }
  const order: TFormulaNode[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  let cycle: string[] | undefined;
  const visit = (key: string, path: string[]) => {
    if (state.get(key) === 'done' || cycle) return;
    if (state.get(key) === 'visiting') {
      cycle = [...path.slice(path.indexOf(key)), key];
      return;
    }
    state.set(key, 'visiting');
    for (const dep of edges.get(key) ?? []) visit(dep, [...path, key]);
    state.set(key, 'done');
    order.push(byKey.get(key)!);
  };
  for (const node of nodes) visit(node.key, []);
  return cycle ? { order, cycle } : { order };
}

/** A list's rows as formulas see them: one array per column, and the row count. */
function listScope(list: TPlaceholder, rows: readonly TListRow[]): Record<string, TScopeValue[] | number> {
  const scope: Record<string, TScopeValue[] | number> = Object.create(null) as Record<string, TScopeValue[] | number>;
  for (const c of list.columns ?? []) scope[c.name] = rows.map((row) => scopeValue(c.type, row[c.name] ?? ''));
  scope[ROW_COUNT] = rows.length;
  return scope;
}

export interface TComputedValues {
  /** The values with every formula filled in (a failed one as empty text). */
  values: TFilledValues;
  /** Formula -> why it could not be computed: `total`, or `items[2].amount` for a row's. */
  errors: Record<string, string>;
  /** Operations the formulas took, never much over FORMULA_STEP_BUDGET. */
  steps: number;
}

/**
 * Computes every formula from the values given (which a formula's own value never comes from).
 * Within the formula step budget; a formula that cannot be computed is empty and named in
 * `errors`, and so is every formula that reads it.
 */
export function computeFormulas(placeholders: readonly TPlaceholder[], given: TFilledValues): TComputedValues {
  const nodes = formulaOrder(placeholders);
  const values: TFilledValues = { ...given };
  const errors: Record<string, string> = {};
  if (nodes.order.length === 0 && !nodes.cycle) return { values, errors, steps: 0 };
  for (const p of placeholders) if (p.type === 'list') values[p.name] = rowsOf(given[p.name]).map((row) => ({ ...row }));

  const scope: Record<string, TScopeValue> = Object.create(null) as Record<string, TScopeValue>;
  for (const p of placeholders) {
    if (p.type === 'list') scope[p.name] = listScope(p, rowsOf(values[p.name]));
    else if (p.type !== 'formula') scope[p.name] = scopeValue(p.type, textOf(values[p.name]));
  }
  const failed = new Map<string, string>();
  const failure = (message: string) => new FormulaError(message);

  const inCycle = new Set(nodes.cycle ?? []);
  const all = [...nodes.order, ...formulaNodes(placeholders).filter((n) => inCycle.has(n.key))];
  let done = 0;
  const { steps } = withStepBudget(FORMULA_STEP_BUDGET, () => {
    try {
      for (const node of all) {
        computeNode(node);
        done += 1;
      }
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      // Out of budget: this formula and every one after it stay empty, with the reason.
      for (const node of all.slice(done)) {
        if (node.list && node.column) {
          const rows = values[node.list.name] as TListRow[];
          rows.forEach((row, i) => {
            row[node.column!.name] = '';
            errors[`${node.list!.name}[${i}].${node.column!.name}`] = error.message;
          });
        } else if (node.placeholder) {
          values[node.placeholder.name] = '';
          errors[node.placeholder.name] = error.message;
        }
      }
    }
  });
  return { values, errors, steps };

  function computeNode(node: TFormulaNode): void {
    const parsed = parsedFormula(node.expression);
    const formula = 'formula' in parsed ? parsed.formula : undefined;
    // Why it cannot be computed at all, whatever the row: worked out once.
    const unreadable = formula?.references.map((r) => failed.get(r.split('.')[0]!)).find((label) => label !== undefined);
    const blocked = inCycle.has(node.key)
      ? 'This formula reads itself, through other formulas.'
      : !formula
        ? 'This formula is not valid: edit the format to fix it.'
        : unreadable
          ? `It reads ${unreadable}, which could not be computed.`
          : undefined;
    const run = (rowScope: Record<string, TScopeValue>): TFormulaResult => {
      if (blocked || !formula) throw failure(blocked ?? '');
      return evaluateFormula(formula, rowScope);
    };
    if (node.list && node.column) {
      const list = node.list;
      const column = node.column;
      const rows = values[list.name] as TListRow[];
      const columns = scope[list.name] as Record<string, TScopeValue[]>;
      const results: TScopeValue[] = [];
      const listColumns = list.columns ?? [];
      // The row's names over the document's: a prototype, not a copy of the scope for every row,
      // and one pair of objects refilled row by row (a formula's result never holds its scope).
      // The list's scope already holds every column's values as formulas read them, and the
      // list's own name is the row's columns alone, so `items.qty` is this row's qty.
      const rowScope = Object.create(scope) as Record<string, TScopeValue>;
      const rowTyped = Object.create(null) as Record<string, TScopeValue>;
      rowScope[list.name] = rowTyped;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        for (const c of listColumns) rowScope[c.name] = rowTyped[c.name] = columns[c.name]?.[i] ?? '';
        try {
          const result = run(rowScope);
          row[column.name] = resultText(result);
          results.push(result);
        } catch (error) {
          if (!(error instanceof FormulaError) || error instanceof BudgetExceeded) throw error;
          row[column.name] = '';
          errors[`${list.name}[${i}].${column.name}`] = error.message;
          results.push('');
          // What reads the list must not add up rows that are missing a value.
          if (!failed.has(list.name)) failed.set(list.name, `${list.name}.${column.name} in row ${i + 1}`);
        }
      }
      columns[column.name] = results;
    } else if (node.placeholder) {
      const name = node.placeholder.name;
      try {
        const result = run(scope);
        values[name] = resultText(result);
        scope[name] = result;
      } catch (error) {
        if (!(error instanceof FormulaError) || error instanceof BudgetExceeded) throw error;
        values[name] = '';
        errors[name] = error.message;
        failed.set(name, name);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Which placeholders matter

/** Placeholder names an element refers to: its tags, the list it repeats, and (inside a repeat) the list. */
function elementNames(element: TElement): string[] {
  const names = elementTexts(element).flatMap((text) => findPlaceholderTags(text).map((tag) => tag.name.split('.')[0]!));
  if ((element.type === 'table' || element.type === 'list') && element.repeat) {
    names.push(element.type === 'table' ? element.repeat.list : element.repeat);
  }
  return names;
}

/**
 * The placeholders whose every use sits in an element hidden by its condition (or in a section
 * that is), with the formulas only such placeholders need. The form does not ask for them, and
 * nothing requires them. A placeholder used nowhere is not hidden: the form still asks for it.
 */
export function hiddenPlaceholders(
  content: Pick<TFormatContent, 'elements' | 'header' | 'footer'>,
  placeholders: readonly TPlaceholder[],
  values: TFilledValues,
): Set<string> {
  const types = new Map(placeholders.map((p) => [p.name, p.type]));
  const holds = (showIf: TShowIf | undefined) =>
    showIfHolds(
      showIf,
      (name) => values[name],
      (name) => types.get(name),
    );
  const visible = new Set<string>();
  const used = new Set<string>();
  const conditionFields = (showIf: TShowIf | undefined) => (showIf?.conditions ?? []).map((c) => c.field);
  const walk = (elements: readonly TElement[], parentShown: boolean) => {
    for (const element of elements) {
      // A condition that is evaluated needs its fields, whatever it decides.
      if (parentShown) for (const name of conditionFields(element.showIf)) visible.add(name);
      for (const name of conditionFields(element.showIf)) used.add(name);
      const shown = parentShown && holds(element.showIf);
      if (element.type === 'section') {
        walk(element.elements, shown);
        continue;
      }
      for (const name of elementNames(element)) {
        used.add(name);
        if (shown) visible.add(name);
      }
    }
  };
  walk(content.elements, true);
  for (const text of [content.header?.text ?? '', content.footer?.text ?? '']) {
    for (const tag of findPlaceholderTags(text)) {
      used.add(tag.name);
      visible.add(tag.name);
    }
  }
  // What a formula reads is used where the formula is.
  const byName = new Map(placeholders.map((p) => [p.name, p]));
  const readsOf = (p: TPlaceholder): string[] => {
    const expressions = p.type === 'formula' ? [p.expression ?? ''] : (p.columns ?? []).filter((c) => c.type === 'formula').map((c) => c.expression ?? '');
    return expressions.flatMap((e) => {
      const parsed = parsedFormula(e);
      return 'formula' in parsed ? parsed.formula.references.map((r) => r.split('.')[0]!) : [];
    });
  };
  const spread = (from: Set<string>) => {
    const queue = [...from];
    while (queue.length > 0) {
      const p = byName.get(queue.pop()!);
      if (!p) continue;
      for (const name of readsOf(p)) {
        if (!from.has(name)) {
          from.add(name);
          queue.push(name);
        }
      }
    }
  };
  spread(used);
  spread(visible);
  return new Set([...used].filter((name) => !visible.has(name) && byName.has(name)));
}

/**
 * How the format prints a value: the value format of its first tag (`{{total | currency}}`; a
 * list's column as `{{amount}}` or `{{items.amount}}`), else the placeholder's display, in the
 * format's locale and currency. The form shows computed values the way the document will.
 */
export function printLike(
  content: Pick<TFormatContent, 'elements' | 'header' | 'footer' | 'locale' | 'currency'>,
  name: string,
  list?: string,
): (value: string, printable: TPrintable) => string {
  let format: TValueFormat | undefined;
  for (const text of contentTexts(content)) {
    const tag = findPlaceholderTags(text).find((t) => t.format && (t.name === name || (list !== undefined && t.name === `${list}.${name}`)));
    if (tag) {
      format = tag.format;
      break;
    }
  }
  const settings = { locale: content.locale ?? DEFAULT_LOCALE, currency: content.currency ?? DEFAULT_CURRENCY };
  return (value, printable) => (value === '' ? '' : printValue(value, printable, settings, format));
}

/** Rows a preview shows for a list left empty. */
export const SAMPLE_ROWS = 3;

/**
 * Sample rows for a list: numbers 1, 2, 3 (so formulas over them show something), dates and
 * choices in turn, and bracketed labels for text; formula columns are left to be computed.
 */
export function sampleRows(list: Pick<TPlaceholder, 'columns'>, count = SAMPLE_ROWS): TListRow[] {
  const columns = (list.columns ?? []).filter((c) => c.type !== 'formula');
  return Array.from({ length: count }, (_, i) => Object.fromEntries(columns.map((c) => [c.name, sampleCell(c, i)])));
}

function sampleCell(column: TListColumn, i: number): string {
  switch (column.type) {
    case 'number':
      return String(i + 1);
    case 'date':
      return `2025-01-${String(i + 1).padStart(2, '0')}`;
    case 'checkbox':
      return i % 2 === 0 ? 'true' : 'false';
    case 'select':
      return column.options[i % Math.max(column.options.length, 1)] ?? `[${columnLabel(column)}]`;
    default:
      return `[${columnLabel(column)} ${i + 1}]`;
  }
}

const columnLabel = (c: TListColumn) => (c.label && c.label.length > 0 ? c.label : c.name.replace(/_+/g, ' ').replace(/^./, (x) => x.toUpperCase()));
