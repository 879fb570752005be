import Decimal from 'decimal.js';

// The values formulas compute with, their step budget, and the rules that turn one kind into another.

/** Decimals with 34 significant digits (IEEE decimal128), rounding half away from zero, as people round money. */
export const Dec = Decimal.clone({ precision: 34, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type TDec = InstanceType<typeof Dec>;

/** Operations all formulas of one document may take together (a list column counts once per row). */
export const FORMULA_STEP_BUDGET = 1_000_000;
/** Longest text a formula may make. */
export const MAX_FORMULA_TEXT = 10_000;
/** Numbers beyond this are refused rather than printed with a thousand digits. */
const MAX_MAGNITUDE = new Dec('1e21');
const MAX_EXPONENT = 21;

/** Why a formula could not be computed; shown to the person filling in the form. */
export class FormulaError extends Error {}
/** The work budget ran out: never turned into a value, whatever `if` would choose. */
export class BudgetExceeded extends FormulaError {}

/**
 * A value that could not be computed (a division by zero, text where a number belongs), carried
 * like a spreadsheet's #DIV/0! until the formula's result: so `if(qty = 0, 0, total / qty)` is
 * fine, because `if` passes on only the branch it chooses.
 */
export class Fault {
  constructor(readonly message: string) {}
}

/** A list as formulas see it: each column an array of its values, and its row count. */
export interface TListScope {
  readonly [column: string]: TScopeValue[] | number;
}
export const ROW_COUNT = '#rows';
export type TScopeValue = TDec | string | boolean | TScopeValue[] | TListScope | Record<string, unknown> | Fault;
export type TFormulaResult = TDec | string | boolean;

// ---------------------------------------------------------------------------------------------
// Metering

let meter: { steps: number; budget: number } | null = null;

/** Whether a step budget is in force (withStepBudget). */
export const isMetered = (): boolean => meter !== null;

export function tick(n = 1): void {
  if (!meter) return;
  meter.steps += n;
  if (meter.steps > meter.budget) throw new BudgetExceeded('The formulas need too much work to compute for this much data.');
}

/** Runs `fn` with a step budget shared by everything it evaluates; returns the steps it took. */
export function withStepBudget<T>(budget: number, fn: () => T): { result: T; steps: number } {
  const outer = meter;
  const mine = { steps: 0, budget };
  meter = mine;
  try {
    return { result: fn(), steps: mine.steps };
  } finally {
    meter = outer;
  }
}

// ---------------------------------------------------------------------------------------------
// Values

export const isDec = (v: unknown): v is TDec => v instanceof Dec;
const NUMBER_TEXT_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function describe(v: unknown): string {
  if (typeof v === 'string') return `"${v.length > 30 ? `${v.slice(0, 30)}…` : v}"`;
  return String(v);
}

export function bounded(d: TDec): TDec {
  if (!d.isFinite()) throw new FormulaError('A number in the formula is not finite (a division by zero?).');
  // The exponent says it without a comparison (which would make two more Decimals each time).
  if (d.e >= MAX_EXPONENT && d.abs().greaterThan(MAX_MAGNITUDE)) throw new FormulaError('A number in the formula grows too large.');
  return d;
}

/** A value as a number: Decimals as they are, numeric text read exactly, empty text as 0, yes/no as 1/0. */
export function toNumber(v: unknown): TDec {
  if (isDec(v)) return v;
  if (v instanceof Fault) throw new FormulaError(v.message);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new FormulaError('A number in the formula is not finite.');
    return bounded(new Dec(v));
  }
  if (typeof v === 'boolean') return new Dec(v ? 1 : 0);
  if (typeof v === 'string') {
    const text = v.trim().replaceAll(',', '');
    if (text === '') return new Dec(0);
    if (NUMBER_TEXT_RE.test(text) && text.length <= 60) return bounded(new Dec(text));
    throw new FormulaError(`${describe(v)} is not a number.`);
  }
  if (Array.isArray(v)) throw new FormulaError('A list of values was used as one number: wrap it in sum(…), or use one row’s value.');
  if (typeof v === 'function') throw new FormulaError('A function was used as a number: call it with brackets, e.g. round(x, 2).');
  throw new FormulaError('A list was used as a number: use one of its columns, e.g. sum(items.amount), or count(items).');
}

export function toText(v: unknown): string {
  if (isDec(v)) return v.toFixed();
  if (v instanceof Fault) throw new FormulaError(v.message);
  if (typeof v === 'number') return toNumber(v).toFixed();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return v;
  throw new FormulaError('A list was used as text: use one of its values.');
}

export function truthy(v: unknown): boolean {
  if (isDec(v)) return !v.isZero();
  if (v instanceof Fault) throw new FormulaError(v.message);
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.trim() !== '' && v.trim().toLowerCase() !== 'false';
  if (Array.isArray(v)) return v.length > 0;
  return Boolean(v);
}

function isNumeric(v: unknown): boolean {
  return isDec(v) || typeof v === 'number' || (typeof v === 'string' && NUMBER_TEXT_RE.test(v.trim().replaceAll(',', '')));
}

export function compare(a: unknown, b: unknown): number {
  if (isNumeric(a) && isNumeric(b)) return toNumber(a).comparedTo(toNumber(b));
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(truthy(a)) - Number(truthy(b));
  const x = toText(a);
  const y = toText(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

export function equals(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return toNumber(a).equals(toNumber(b));
  if (typeof a === 'boolean' || typeof b === 'boolean') return truthy(a) === truthy(b);
  return toText(a).trim().toLowerCase() === toText(b).trim().toLowerCase();
}

/** `f`, with a Fault in its arguments passed on and a FormulaError it throws turned into one. */
export function guarded<A extends unknown[]>(f: (...args: A) => TScopeValue): (...args: A) => TScopeValue {
  return (...args) => {
    for (const arg of args) if (arg instanceof Fault) return arg;
    try {
      return f(...args);
    } catch (error) {
      if (error instanceof FormulaError && !(error instanceof BudgetExceeded)) return new Fault(error.message);
      throw error;
    }
  };
}

/** Applies `f` to scalars, or element by element when either side is a column (a scalar is used for every row). */
export function lift2(f: (a: unknown, b: unknown) => TScopeValue): (a: unknown, b: unknown) => TScopeValue {
  const one = guarded(f);
  return (a, b) => {
    const arrayA = Array.isArray(a);
    const arrayB = Array.isArray(b);
    if (!arrayA && !arrayB) {
      tick();
      return one(a, b);
    }
    const length = arrayA ? (a as unknown[]).length : (b as unknown[]).length;
    if (arrayA && arrayB && (a as unknown[]).length !== (b as unknown[]).length) {
      return new Fault('Two columns of different lists were combined row by row.');
    }
    tick(length + 1);
    return Array.from({ length }, (_, i) => one(arrayA ? (a as unknown[])[i] : a, arrayB ? (b as unknown[])[i] : b));
  };
}

export function lift1(f: (a: unknown) => TScopeValue): (a: unknown) => TScopeValue {
  const one = guarded(f);
  return (a) => {
    if (!Array.isArray(a)) {
      tick();
      return one(a);
    }
    tick(a.length + 1);
    return a.map((x) => one(x));
  };
}

/** Every number in the arguments, columns spread out. */
export function numbersOf(args: unknown[]): TDec[] {
  const out: TDec[] = [];
  for (const arg of args) {
    if (Array.isArray(arg)) {
      tick(arg.length);
      for (const x of arg) out.push(toNumber(x));
    } else out.push(toNumber(arg));
  }
  return out;
}
