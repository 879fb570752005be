import Decimal from 'decimal.js';
import { z } from 'zod';
import { checkboxValue, isTicked, normalizePlaceholderName, placeholderLabel, type TPlaceholder } from './placeholders.ts';

/*
 * Conditions: an element (or a section of elements) printed only when the filled values say so,
 * e.g. "Shown when plan = Premium". They read top-level placeholders: text, choices, numbers,
 * dates, checkboxes, formulas, and lists (by their number of rows).
 */

export const CONDITION_OPS = ['equals', 'not_equals', 'is_empty', 'is_not_empty', 'greater_than', 'less_than', 'one_of'] as const;
export const ZConditionOp = z.enum(CONDITION_OPS);
export type TConditionOp = z.infer<typeof ZConditionOp>;
/** Operators that compare with nothing. */
export const UNARY_CONDITION_OPS: readonly TConditionOp[] = ['is_empty', 'is_not_empty'];

export const MAX_CONDITIONS = 10;

export const ZCondition = z.object({
  /** The placeholder the condition reads. */
  field: z.string().max(64).overwrite(normalizePlaceholderName).min(1, 'Choose the field the condition reads.'),
  op: ZConditionOp,
  /** What `equals`, `not_equals`, `greater_than` and `less_than` compare with. */
  value: z.string().max(200).optional(),
  /** What `one_of` accepts. */
  values: z.array(z.string().max(200)).max(50).optional(),
});
export type TCondition = z.infer<typeof ZCondition>;

/** An element's condition: all (or any) of its conditions must hold for it to print. */
export const ZShowIf = z
  .object({
    match: z.enum(['all', 'any']).default('all'),
    conditions: z.array(ZCondition).min(1).max(MAX_CONDITIONS),
  })
  .meta({ id: 'ShowIf' });
export type TShowIf = z.infer<typeof ZShowIf>;

/** A filled value: text, or a list's rows. */
export type TConditionValue = string | readonly unknown[] | undefined;

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function asNumber(text: string): Decimal | undefined {
  const t = text.trim().replaceAll(',', '');
  return NUMBER_RE.test(t) && t.length <= 60 ? new Decimal(t) : undefined;
}

/** What a value is compared as: a list by its number of rows, a checkbox as true or false, else its text. */
function comparable(value: TConditionValue, type: TPlaceholder['type'] | undefined): string {
  if (Array.isArray(value)) return String(value.length);
  const text = typeof value === 'string' ? value.trim() : '';
  if (type === 'checkbox') return isTicked(text) ? 'true' : 'false';
  return text;
}

function same(a: string, b: string, type: TPlaceholder['type'] | undefined): boolean {
  if (type === 'checkbox') return a === (checkboxValue(b) ?? b.trim().toLowerCase());
  const x = asNumber(a);
  const y = asNumber(b);
  if (x && y) return x.equals(y);
  return a.toLowerCase() === b.trim().toLowerCase();
}

/** -1, 0 or 1 when both are numbers or both ISO dates; undefined when they cannot be ordered. */
function order(a: string, b: string): number | undefined {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x && y) return x.comparedTo(y);
  const t = b.trim();
  if (ISO_DATE_RE.test(a.slice(0, 10)) && ISO_DATE_RE.test(t.slice(0, 10)))
    return a.slice(0, 10) < t.slice(0, 10) ? -1 : a.slice(0, 10) > t.slice(0, 10) ? 1 : 0;
  return undefined;
}

export function conditionHolds(condition: TCondition, value: TConditionValue, type: TPlaceholder['type'] | undefined): boolean {
  const v = comparable(value, type);
  const empty = Array.isArray(value) ? value.length === 0 : type === 'checkbox' ? v === 'false' : v === '';
  switch (condition.op) {
    case 'is_empty':
      return empty;
    case 'is_not_empty':
      return !empty;
    case 'equals':
      return same(v, condition.value ?? '', type);
    case 'not_equals':
      return !same(v, condition.value ?? '', type);
    case 'greater_than':
    case 'less_than': {
      const o = order(v, condition.value ?? '');
      return o !== undefined && (condition.op === 'greater_than' ? o > 0 : o < 0);
    }
    case 'one_of':
      return (condition.values ?? []).some((option) => same(v, option, type));
  }
}

/** Whether an element with this condition prints; no condition always does. */
export function showIfHolds(
  showIf: TShowIf | undefined,
  valueOf: (name: string) => TConditionValue,
  typeOf: (name: string) => TPlaceholder['type'] | undefined,
): boolean {
  if (!showIf || showIf.conditions.length === 0) return true;
  const results = showIf.conditions.map((c) => conditionHolds(c, valueOf(c.field), typeOf(c.field)));
  return showIf.match === 'any' ? results.some(Boolean) : results.every(Boolean);
}

const OP_WORDS: Record<TConditionOp, string> = {
  equals: '=',
  not_equals: '≠',
  greater_than: '>',
  less_than: '<',
  is_empty: 'is empty',
  is_not_empty: 'is filled in',
  one_of: 'is one of',
};
export const CONDITION_OP_LABELS: Record<TConditionOp, string> = {
  equals: 'equals',
  not_equals: 'does not equal',
  greater_than: 'is greater than',
  less_than: 'is less than',
  is_empty: 'is empty',
  is_not_empty: 'is filled in',
  one_of: 'is one of',
};

/** One condition in words: "plan = Premium", "VIP is ticked", "items is empty". */
export function describeCondition(condition: TCondition, placeholders: readonly TPlaceholder[]): string {
  const p = placeholders.find((x) => x.name === condition.field);
  const name = p ? placeholderLabel(p) : condition.field;
  if (
    p?.type === 'checkbox' &&
    (condition.op === 'equals' || condition.op === 'not_equals' || condition.op === 'is_empty' || condition.op === 'is_not_empty')
  ) {
    const wantTicked = (condition.op === 'equals') === (checkboxValue(condition.value ?? '') === 'true');
    const ticked = condition.op === 'is_empty' ? false : condition.op === 'is_not_empty' ? true : wantTicked;
    return `${name} is ${ticked ? 'ticked' : 'not ticked'}`;
  }
  if (p?.type === 'list' && (condition.op === 'is_empty' || condition.op === 'is_not_empty')) {
    return `${name} ${condition.op === 'is_empty' ? 'has no rows' : 'has rows'}`;
  }
  if (condition.op === 'one_of') return `${name} is one of ${(condition.values ?? []).join(', ') || '(nothing)'}`;
  if (UNARY_CONDITION_OPS.includes(condition.op)) return `${name} ${OP_WORDS[condition.op]}`;
  return `${name} ${OP_WORDS[condition.op]} ${condition.value ?? ''}`.trim();
}

/** The badge an element with a condition shows in the builder: "Shown when plan = Premium". */
export function describeShowIf(showIf: TShowIf, placeholders: readonly TPlaceholder[]): string {
  const parts = showIf.conditions.map((c) => describeCondition(c, placeholders));
  return `Shown when ${parts.join(showIf.match === 'any' ? ' or ' : ' and ')}`;
}
