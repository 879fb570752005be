import { UNARY_CONDITION_OPS, type TShowIf } from './conditions.ts';
import { formulaOrder, parsedFormula } from './filled-values.ts';
import type { TElement, TFormatContent } from './format-content.ts';
import { FORMULA_FUNCTIONS, isCalled, positionOfName, uncalledFunction } from './formulas.ts';
import { isSigningPlaceholder, MAX_FORMULAS, placeholderLabel, signerLabel, type TListColumn, type TPlaceholder } from './placeholders.ts';

/*
 * The checks a format's logic must pass to be saved: lists with columns, formulas that parse and
 * read only names that exist (in no circle), conditions on fields that exist, and repeating rows
 * on lists. Each problem has the path of the field it belongs to, so the API's 400 names it and
 * the builder can show it beside that field.
 */

export interface TLogicIssue {
  path: (string | number)[];
  message: string;
}

const NUMBER_OR_DATE = /^([+-]?(\d+(\.\d*)?|\.\d+)|\d{4}-\d{2}-\d{2})$/;

/** What is wrong with a formula, given the names it may read; undefined when it is fine. */
export function formulaProblem(
  expression: string | undefined,
  placeholders: readonly TPlaceholder[],
  /** For a list's formula column: that list, whose columns the formula reads row by row. */
  list?: TPlaceholder,
  self?: string,
): string | undefined {
  const source = expression ?? '';
  const parsed = parsedFormula(source);
  if ('problem' in parsed) {
    const { message, position } = parsed.problem;
    return position === undefined ? message : `${message} (at character ${position})`;
  }
  const uncalled = uncalledFunction(source);
  if (uncalled) {
    const clash = placeholders.some((p) => p.name === uncalled.name) ? ` A placeholder named ${uncalled.name} cannot be used in formulas: rename it.` : '';
    return `${uncalled.name} is a function: write ${uncalled.name}(…) (at character ${uncalled.position}).${clash}`;
  }
  const byName = new Map(placeholders.map((p) => [p.name, p]));
  for (const reference of parsed.formula.references) {
    const [head = '', member, extra] = reference.split('.');
    const at = positionOfName(source, head);
    const where = at === undefined ? '' : ` (at character ${at})`;
    if (head === self && !member) return `A formula cannot use its own value${where}.`;
    const own = list?.columns?.find((c) => c.name === head);
    if (list && !member && own) {
      if (own.name === self) return `A formula cannot use its own value${where}.`;
      continue;
    }
    if (list && head === list.name && member) {
      if (!list.columns?.some((c) => c.name === member)) return `${list.name} has no column named ${member}${where}. Its columns: ${columnNames(list)}.`;
      if (member === self) return `A formula cannot use its own value${where}.`;
      continue;
    }
    const p = byName.get(head);
    if (!p) {
      if (isCalled(source, head)) return `There is no function ${head}${where}. Formulas can use ${FORMULA_FUNCTIONS.join(', ')}.`;
      const near = placeholders.find((x) => x.name.toLowerCase() === head.toLowerCase());
      return `Unknown name ${head}${where}.${near ? ` Did you mean ${near.name}?` : ' Use the name of a placeholder.'}`;
    }
    if (isSigningPlaceholder(p)) return `${head} is filled in when ${signerLabel(p.signer)} signs, so formulas cannot use it${where}.`;
    if (extra !== undefined) return `Use one dot, between a list and its column, e.g. items.qty${where}.`;
    if (member !== undefined) {
      if (p.type !== 'list') return `${head} is not a list, so it has no columns${where}.`;
      if (!p.columns?.some((c) => c.name === member)) return `${head} has no column named ${member}${where}. Its columns: ${columnNames(p)}.`;
    }
  }
  return undefined;
}

const columnNames = (list: TPlaceholder) => (list.columns ?? []).map((c) => c.name).join(', ') || 'none yet';

function columnIssues(list: TPlaceholder, index: number, placeholders: readonly TPlaceholder[]): TLogicIssue[] {
  const issues: TLogicIssue[] = [];
  (list.columns ?? []).forEach((column: TListColumn, c) => {
    const path = ['placeholders', index, 'columns', c];
    if (column.type === 'formula') {
      const problem = formulaProblem(column.expression, placeholders, list, column.name);
      if (problem) issues.push({ path: [...path, 'expression'], message: `${placeholderLabel(list)}, column ${column.name}: ${problem}` });
    }
    if (column.type === 'select' && column.options.length === 0) {
      issues.push({ path: [...path, 'options'], message: `${placeholderLabel(list)}, column ${column.name}: add at least one option.` });
    }
  });
  return issues;
}

function placeholderIssues(placeholders: readonly TPlaceholder[]): TLogicIssue[] {
  const issues: TLogicIssue[] = [];
  let formulas = 0;
  placeholders.forEach((p, i) => {
    if (p.type === 'list') {
      if (!p.columns || p.columns.length === 0) issues.push({ path: ['placeholders', i, 'columns'], message: `Give the list ${p.name} at least one column.` });
      if (p.minItems !== undefined && p.maxItems !== undefined && p.minItems > p.maxItems) {
        issues.push({ path: ['placeholders', i, 'minItems'], message: `${p.name}: the fewest rows (${p.minItems}) is more than the most (${p.maxItems}).` });
      }
      issues.push(...columnIssues(p, i, placeholders));
      formulas += (p.columns ?? []).filter((c) => c.type === 'formula').length;
    }
    if (p.type === 'formula') {
      formulas += 1;
      const problem = formulaProblem(p.expression, placeholders, undefined, p.name);
      if (problem) issues.push({ path: ['placeholders', i, 'expression'], message: `${p.name}: ${problem}` });
    }
  });
  if (formulas > MAX_FORMULAS)
    issues.push({ path: ['placeholders'], message: `A format may hold at most ${MAX_FORMULAS} formulas, list columns included; this one has ${formulas}.` });
  if (issues.length === 0) {
    const { cycle } = formulaOrder(placeholders);
    if (cycle) {
      const first = cycle[0]!.split('.')[0]!;
      const at = placeholders.findIndex((p) => p.name === first);
      issues.push({ path: ['placeholders', Math.max(at, 0), 'expression'], message: `These formulas use each other in a circle: ${cycle.join(' → ')}.` });
    }
  }
  return issues;
}

function showIfIssues(showIf: TShowIf | undefined, path: (string | number)[], byName: Map<string, TPlaceholder>): TLogicIssue[] {
  if (!showIf) return [];
  const issues: TLogicIssue[] = [];
  showIf.conditions.forEach((condition, j) => {
    const at = [...path, 'showIf', 'conditions', j];
    const p = byName.get(condition.field);
    if (!p) {
      issues.push({ path: [...at, 'field'], message: `The condition reads ${condition.field}, which is not a placeholder of this format.` });
      return;
    }
    if (isSigningPlaceholder(p)) {
      // Empty whenever a document is generated, so the condition could never read it.
      issues.push({ path: [...at, 'field'], message: `A condition cannot read ${p.name}: it is filled in when ${signerLabel(p.signer)} signs.` });
      return;
    }
    if (condition.op === 'one_of' && (condition.values ?? []).filter((v) => v.trim() !== '').length === 0) {
      issues.push({ path: [...at, 'values'], message: `Give at least one value for "${placeholderLabel(p)} is one of".` });
    }
    if ((condition.op === 'greater_than' || condition.op === 'less_than') && !NUMBER_OR_DATE.test((condition.value ?? '').trim())) {
      issues.push({ path: [...at, 'value'], message: `Compare ${placeholderLabel(p)} with a number or a date (YYYY-MM-DD).` });
    }
    if (!UNARY_CONDITION_OPS.includes(condition.op) && condition.op !== 'one_of' && p.type === 'list' && !/^\d+$/.test((condition.value ?? '').trim())) {
      issues.push({ path: [...at, 'value'], message: `${placeholderLabel(p)} is a list: compare its number of rows with a whole number.` });
    }
  });
  return issues;
}

function elementIssues(element: TElement, path: (string | number)[], byName: Map<string, TPlaceholder>): TLogicIssue[] {
  const issues = showIfIssues(element.showIf, path, byName);
  const isList = (name: string) => byName.get(name)?.type === 'list';
  if (element.type === 'table' && element.repeat) {
    const { row, list } = element.repeat;
    if (!isList(list)) issues.push({ path: [...path, 'repeat', 'list'], message: `A repeating row needs a list placeholder; ${list} is not one.` });
    if (row >= element.rows.length) issues.push({ path: [...path, 'repeat', 'row'], message: `The table has no row ${row + 1} to repeat.` });
    else if (element.headerRow && row === 0) issues.push({ path: [...path, 'repeat', 'row'], message: 'The header row cannot repeat: choose a row below it.' });
  }
  if (element.type === 'list' && element.repeat && !isList(element.repeat)) {
    issues.push({ path: [...path, 'repeat'], message: `A repeating list needs a list placeholder; ${element.repeat} is not one.` });
  }
  if (element.type === 'section') {
    element.elements.forEach((child, k) => issues.push(...elementIssues(child, [...path, 'elements', k], byName)));
  }
  return issues;
}

/** Every problem with a format's logic, by the path of its field; empty when it may be saved. */
export function formatLogicIssues(content: Pick<TFormatContent, 'elements'>, placeholders: readonly TPlaceholder[]): TLogicIssue[] {
  const byName = new Map(placeholders.map((p) => [p.name, p]));
  return [...placeholderIssues(placeholders), ...content.elements.flatMap((element, i) => elementIssues(element, ['content', 'elements', i], byName))];
}
