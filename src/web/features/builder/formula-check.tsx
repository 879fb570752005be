import { CircleAlertIcon, CircleCheckIcon } from 'lucide-react';
import { useMemo } from 'react';
import { computeFormulas, sampleRows, type TFilledValues } from '../../../contract/filled-values';
import { formulaProblem } from '../../../contract/format-logic';
import { FORMULA_FUNCTIONS } from '../../../contract/formulas';
import { placeholderLabel, type TListColumn, type TPlaceholder } from '../../../contract/placeholders';
import { cn } from '../../lib/utils';

/** Sample values the formula check computes with: 10 for a number, three rows for a list. */
function sampleValues(placeholders: readonly TPlaceholder[]): TFilledValues {
  const values: TFilledValues = {};
  for (const p of placeholders) {
    if (p.type === 'list') values[p.name] = sampleRows(p);
    else if (p.type === 'number') values[p.name] = '10';
    else if (p.type === 'checkbox') values[p.name] = 'false';
    else if (p.type === 'date') values[p.name] = '2025-01-31';
    else if (p.type === 'select') values[p.name] = p.options[0] ?? '';
    else if (p.type !== 'formula') values[p.name] = `[${placeholderLabel(p)}]`;
  }
  return values;
}

export type TFormulaCheck = { ok: true; result: string } | { ok: false; message: string };

/**
 * A formula checked as it is typed: against the names it may read (the format's placeholders, a
 * list's own columns), then computed over sample values, so a mistake shows before the save.
 */
export function checkFormula(
  expression: string,
  self: string,
  placeholders: readonly TPlaceholder[],
  list?: { name: string; columns: readonly TListColumn[] },
): TFormulaCheck {
  if (expression.trim() === '') return { ok: false, message: `Write what it computes, e.g. ${list ? 'qty * price' : 'sum(items.amount)'}.` };
  const owner: TPlaceholder | undefined = list ? { name: list.name, type: 'list', required: false, options: [], columns: [...list.columns] } : undefined;
  const others = placeholders.filter((p) => p.name !== self && p.name !== list?.name);
  const withSelf: TPlaceholder[] = owner
    ? [...others, owner]
    : [...others, { name: self || 'this_formula', type: 'formula', required: false, options: [], expression }];
  const problem = formulaProblem(expression, withSelf, owner, self || 'this_formula');
  if (problem) return { ok: false, message: problem };
  const { values, errors } = computeFormulas(withSelf, sampleValues(withSelf));
  if (owner) {
    const rows = Array.isArray(values[owner.name]) ? (values[owner.name] as Record<string, string>[]) : [];
    const error = Object.entries(errors).find(([key]) => key.endsWith(`.${self}`))?.[1];
    if (error) return { ok: false, message: `With sample values: ${error}` };
    return { ok: true, result: `${rows.map((r) => r[self] ?? '').join(', ')} for three sample rows` };
  }
  const name = self || 'this_formula';
  if (errors[name]) return { ok: false, message: `With sample values: ${errors[name]}` };
  const value = typeof values[name] === 'string' ? (values[name] as string) : '';
  return { ok: true, result: value === '' ? '(empty)' : value };
}

/**
 * The check's verdict under the formula's field, and which functions there are. The verdict's green
 * is emerald-700, not the success token: that one is 3.6:1 on the dialog, under WCAG's 4.5:1 for text.
 */
export function FormulaCheck({ check, id }: { check: TFormulaCheck; id: string }) {
  return (
    <div className="space-y-1" id={id}>
      <p className={cn('flex items-start gap-1.5 text-xs', check.ok ? 'text-emerald-700' : 'text-destructive')} role="status" data-testid="formula-check">
        {check.ok ? <CircleCheckIcon className="mt-px size-3.5 shrink-0" aria-hidden /> : <CircleAlertIcon className="mt-px size-3.5 shrink-0" aria-hidden />}
        <span className="min-w-0 break-words">
          {check.ok ? `Gives ${check.result}${check.result.endsWith('rows') ? '' : ' with sample values'}.` : check.message}
        </span>
      </p>
      <p className="text-[11px] text-muted-foreground">
        + − × / ^, = ≠ &lt; &gt;, and {FORMULA_FUNCTIONS.map((f) => `${f}()`).join(', ')}. A list’s column is list.column, e.g. sum(items.amount).
      </p>
    </div>
  );
}

export function useFormulaCheck(...args: Parameters<typeof checkFormula>): TFormulaCheck {
  const [expression, self, placeholders, list] = args;
  return useMemo(() => checkFormula(expression, self, placeholders, list), [expression, self, placeholders, list]);
}
