import Decimal from 'decimal.js';
import { Parser } from 'expr-eval-fork';
import {
  bounded,
  compare,
  Dec,
  equals,
  Fault,
  FormulaError,
  guarded,
  isDec,
  lift1,
  lift2,
  MAX_FORMULA_TEXT,
  numbersOf,
  ROW_COUNT,
  tick,
  toNumber,
  toText,
  truthy,
  type TDec,
  type TScopeValue,
} from './formula-values.ts';

// Every function and operator a formula may use, installed in the one parser all formulas share.

function places(n: unknown): number {
  if (n === undefined) return 0;
  const d = toNumber(n);
  if (!d.isInteger() || d.lessThan(0) || d.greaterThan(20)) throw new FormulaError('Round to between 0 and 20 decimal places.');
  return d.toNumber();
}

function listRows(v: unknown): number {
  if (Array.isArray(v)) return v.length;
  if (v && typeof v === 'object' && !isDec(v) && ROW_COUNT in v) return Number((v as Record<string, unknown>)[ROW_COUNT]);
  throw new FormulaError('count(…) takes a list or one of its columns, e.g. count(items).');
}

export const FUNCTIONS: Record<string, (...args: unknown[]) => TScopeValue> = {
  sum: guarded((...args) => numbersOf(args).reduce((s, x) => bounded(s.plus(x)), new Dec(0))),
  avg: guarded((...args) => {
    const xs = numbersOf(args);
    return xs.length === 0 ? new Dec(0) : bounded(xs.reduce((s, x) => s.plus(x), new Dec(0)).dividedBy(xs.length));
  }),
  min: guarded((...args) => {
    const xs = numbersOf(args);
    return xs.length === 0 ? new Dec(0) : Dec.min(...xs);
  }),
  max: guarded((...args) => {
    const xs = numbersOf(args);
    return xs.length === 0 ? new Dec(0) : Dec.max(...xs);
  }),
  count: guarded((v) => {
    tick();
    return new Dec(listRows(v));
  }),
  round: (x, n) => lift2((a, b) => toNumber(a).toDecimalPlaces(places(b), Decimal.ROUND_HALF_UP))(x, n),
  floor: (x, n) => lift2((a, b) => toNumber(a).toDecimalPlaces(places(b), Decimal.ROUND_FLOOR))(x, n),
  ceil: (x, n) => lift2((a, b) => toNumber(a).toDecimalPlaces(places(b), Decimal.ROUND_CEIL))(x, n),
  abs: lift1((a) => toNumber(a).abs()),
  // Only the branch chosen is passed on, so a fault in the other one does not matter.
  if: (condition, yes, no) => {
    tick();
    if (condition instanceof Fault) return condition;
    if (Array.isArray(condition)) return new Fault('if(…) takes one yes or no, not one per row.');
    return (guarded(() => truthy(condition))() === true ? yes : no) as TScopeValue;
  },
  and: guarded((...args) => {
    tick(args.length);
    return args.every(truthy);
  }),
  or: guarded((...args) => {
    tick(args.length);
    return args.some(truthy);
  }),
  not: lift1((a) => !truthy(a)),
};
// Spreadsheet habits: SUM(…) and IF(…) work too.
for (const name of Object.keys(FUNCTIONS)) FUNCTIONS[name.toUpperCase()] = FUNCTIONS[name]!;
/** The functions a formula may call, for messages and the builder's help. */
export const FORMULA_FUNCTIONS = Object.keys(FUNCTIONS).filter((name) => name === name.toLowerCase());

function concat(a: unknown, b: unknown): string {
  const text = toText(a) + toText(b);
  if (text.length > MAX_FORMULA_TEXT) throw new FormulaError(`The formula makes text longer than ${MAX_FORMULA_TEXT.toLocaleString('en-US')} characters.`);
  return text;
}

function power(a: unknown, b: unknown): TDec {
  const exponent = toNumber(b);
  if (exponent.abs().greaterThan(100)) throw new FormulaError('Use a power between -100 and 100.');
  return bounded(toNumber(a).pow(exponent));
}

function divide(a: unknown, b: unknown): TDec {
  const divisor = toNumber(b);
  if (divisor.isZero()) throw new FormulaError('The formula divides by zero.');
  return bounded(toNumber(a).dividedBy(divisor));
}

function remainder(a: unknown, b: unknown): TDec {
  const divisor = toNumber(b);
  if (divisor.isZero()) throw new FormulaError('The formula divides by zero.');
  return toNumber(a).modulo(divisor);
}

export const parser = new Parser({
  allowMemberAccess: true,
  operators: {
    // Our functions replace the library's number ones (doubles); the rest have no place in a document.
    abs: false,
    ceil: false,
    floor: false,
    round: false,
    min: false,
    max: false,
    length: false,
    trunc: false,
    sin: false,
    cos: false,
    tan: false,
    asin: false,
    acos: false,
    atan: false,
    sinh: false,
    cosh: false,
    tanh: false,
    asinh: false,
    acosh: false,
    atanh: false,
    sqrt: false,
    log: false,
    ln: false,
    lg: false,
    log10: false,
    log2: false,
    log1p: false,
    expm1: false,
    exp: false,
    cbrt: false,
    sign: false,
    random: false,
    factorial: false,
    in: false,
    assignment: false,
    fndef: false,
    // `and`, `or`, `not` and `? :` would judge a Decimal zero as true (JavaScript truthiness):
    // the functions and(…), or(…), not(…) and if(…) judge it as a person would.
    logical: false,
    conditional: false,
  },
});
// `ParserOptions` has no key for array literals; they are turned off by name.
(parser as unknown as { options: { operators: Record<string, boolean> } }).options.operators.array = false;

const binaryOps = (parser as unknown as { binaryOps: Record<string, unknown> }).binaryOps;
for (const key of Object.keys(binaryOps)) delete binaryOps[key];
Object.assign(binaryOps, {
  '+': lift2((a, b) => bounded(toNumber(a).plus(toNumber(b)))),
  '-': lift2((a, b) => bounded(toNumber(a).minus(toNumber(b)))),
  '*': lift2((a, b) => bounded(toNumber(a).times(toNumber(b)))),
  '/': lift2(divide),
  '%': lift2(remainder),
  '^': lift2(power),
  '||': lift2(concat),
  '==': lift2(equals),
  '!=': lift2((a, b) => !equals(a, b)),
  '>': lift2((a, b) => compare(a, b) > 0),
  '<': lift2((a, b) => compare(a, b) < 0),
  '>=': lift2((a, b) => compare(a, b) >= 0),
  '<=': lift2((a, b) => compare(a, b) <= 0),
});
const ternaryOps = (parser as unknown as { ternaryOps: Record<string, unknown> }).ternaryOps;
for (const key of Object.keys(ternaryOps)) delete ternaryOps[key];
const unaryOps = parser.unaryOps as Record<string, unknown>;
for (const key of Object.keys(unaryOps)) delete unaryOps[key];
Object.assign(unaryOps, {
  '-': lift1((a) => toNumber(a).negated()),
  '+': lift1((a) => toNumber(a)),
});
const functions = parser.functions as Record<string, unknown>;
for (const key of Object.keys(functions)) delete functions[key];
Object.assign(functions, FUNCTIONS);
export const consts = parser.consts as Record<string, unknown>;
for (const key of Object.keys(consts)) delete consts[key];
Object.assign(consts, { true: true, false: false });
// The library asks `name in table`: without a prototype, `constructor` or `toString` is no operator or function.
for (const table of [binaryOps, unaryOps, ternaryOps, functions, consts]) Object.setPrototypeOf(table, null);
