import Decimal from 'decimal.js';
import { Parser, type Expression } from 'expr-eval-fork';

/*
 * Formulas: computed placeholders such as `qty * price`, `sum(items.qty * items.price)`,
 * `round(subtotal * 0.18, 2)` or `if(country = "IN", "GST", "VAT")`.
 *
 * Parsing is expr-eval-fork's (a maintained fork of expr-eval with its prototype-pollution and
 * function-injection fixes): it builds instructions and interprets them, never `eval` or
 * `new Function` (its one compiling method, toJSFunction, is not used), so it runs under the web
 * app's Content-Security-Policy too. docs/format-logic.md says why it was chosen.
 *
 * Every operator and function is ours: numbers are decimal.js Decimals, so 0.1 + 0.2 is 0.3 and
 * money adds up to the cent; arithmetic works element by element on a list's columns
 * (`items.qty * items.price`); `=` compares, as in a spreadsheet. Each operation counts steps
 * against a budget and every result is bounded in size, so no formula can run long or grow
 * large, whatever the data.
 */

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
class Fault {
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

function tick(n = 1): void {
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

const isDec = (v: unknown): v is TDec => v instanceof Dec;
const NUMBER_TEXT_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function describe(v: unknown): string {
  if (typeof v === 'string') return `"${v.length > 30 ? `${v.slice(0, 30)}…` : v}"`;
  return String(v);
}

function bounded(d: TDec): TDec {
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

function toText(v: unknown): string {
  if (isDec(v)) return v.toFixed();
  if (v instanceof Fault) throw new FormulaError(v.message);
  if (typeof v === 'number') return toNumber(v).toFixed();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return v;
  throw new FormulaError('A list was used as text: use one of its values.');
}

function truthy(v: unknown): boolean {
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

function compare(a: unknown, b: unknown): number {
  if (isNumeric(a) && isNumeric(b)) return toNumber(a).comparedTo(toNumber(b));
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(truthy(a)) - Number(truthy(b));
  const x = toText(a);
  const y = toText(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

function equals(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return toNumber(a).equals(toNumber(b));
  if (typeof a === 'boolean' || typeof b === 'boolean') return truthy(a) === truthy(b);
  return toText(a).trim().toLowerCase() === toText(b).trim().toLowerCase();
}

/** `f`, with a Fault in its arguments passed on and a FormulaError it throws turned into one. */
function guarded<A extends unknown[]>(f: (...args: A) => TScopeValue): (...args: A) => TScopeValue {
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
function lift2(f: (a: unknown, b: unknown) => TScopeValue): (a: unknown, b: unknown) => TScopeValue {
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

function lift1(f: (a: unknown) => TScopeValue): (a: unknown) => TScopeValue {
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
function numbersOf(args: unknown[]): TDec[] {
  const out: TDec[] = [];
  for (const arg of args) {
    if (Array.isArray(arg)) {
      tick(arg.length);
      for (const x of arg) out.push(toNumber(x));
    } else out.push(toNumber(arg));
  }
  return out;
}

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

const FUNCTIONS: Record<string, (...args: unknown[]) => TScopeValue> = {
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

const parser = new Parser({
  allowMemberAccess: true,
  operators: {
    // Our functions replace the library's number ones (doubles); the rest have no place in a document.
    abs: false, ceil: false, floor: false, round: false, min: false, max: false, length: false, trunc: false,
    sin: false, cos: false, tan: false, asin: false, acos: false, atan: false, sinh: false, cosh: false, tanh: false,
    asinh: false, acosh: false, atanh: false, sqrt: false, log: false, ln: false, lg: false, log10: false, log2: false,
    log1p: false, expm1: false, exp: false, cbrt: false, sign: false,
    random: false, factorial: false, in: false, assignment: false, fndef: false,
    // `and`, `or`, `not` and `? :` would judge a Decimal zero as true (JavaScript truthiness):
    // the functions and(…), or(…), not(…) and if(…) judge it as a person would.
    logical: false, conditional: false,
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
const consts = parser.consts as Record<string, unknown>;
for (const key of Object.keys(consts)) delete consts[key];
Object.assign(consts, { true: true, false: false });
// The library asks `name in table`: without a prototype, `constructor` or `toString` is no operator or function.
for (const table of [binaryOps, unaryOps, ternaryOps, functions, consts]) Object.setPrototypeOf(table, null);

// ---------------------------------------------------------------------------------------------
// Parsing

export interface TFormulaProblem {
  message: string;
  /** 1-based position of the character the problem is at, when it has one. */
  position?: number;
}

export interface TParsedFormula {
  source: string;
  expression: Expression;
  /** Names the formula reads, with a list's column as `list.column`, in order of first use. */
  references: string[];
}

/** A piece of a formula's text: a quoted string with its quotes, or what lies between them. */
interface TSegment {
  text: string;
  /** Where it starts in the source. */
  start: number;
  quoted: boolean;
}

/**
 * The source cut at its quoted strings (`"…"` or `'…'`, a backslash escaping the next character;
 * an unclosed quote runs to the end). Names, `=` and functions are only looked for outside them.
 */
function segments(source: string): TSegment[] {
  const out: TSegment[] = [];
  let start = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c !== '"' && c !== "'") {
      i++;
      continue;
    }
    if (i > start) out.push({ text: source.slice(start, i), start, quoted: false });
    let j = i + 1;
    while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
    const end = Math.min(j + 1, source.length);
    out.push({ text: source.slice(i, end), start: i, quoted: true });
    i = start = end;
  }
  if (start < source.length) out.push({ text: source.slice(start), start, quoted: false });
  return out;
}

/** Whether `name` starts at `i` as a whole word (not after a dot, not inside a longer name). */
function wordAt(source: string, name: string, i: number): boolean {
  return source.startsWith(name, i) && !/[\p{L}\p{N}_$.]/u.test(source[i - 1] ?? '') && !/[\p{L}\p{N}_$]/u.test(source[i + name.length] ?? '');
}

/**
 * Spreadsheet-style `=` compares, so it becomes the library's `==`. Returns the rewritten text
 * and where each of its characters came from in the source, for error positions.
 */
function spreadsheetEquals(source: string): { text: string; from: number[] } {
  let text = '';
  const from: number[] = [];
  for (const segment of segments(source)) {
    const end = segment.start + segment.text.length;
    if (segment.quoted) {
      text += segment.text;
      for (let i = segment.start; i < end; i++) from.push(i);
      continue;
    }
    for (let i = segment.start; i < end; i++) {
      const c = source[i]!;
      const single = c === '=' && !'=!<>'.includes(source[i - 1] ?? '') && source[i + 1] !== '=';
      text += single ? '==' : c;
      from.push(i);
      if (single) from.push(i);
    }
  }
  from.push(source.length);
  return { text, from };
}

const LIBRARY_WORDS: Record<string, string> = {
  TEOF: 'the end of the formula',
  TOP: 'operator',
  TNUMBER: 'number',
  TSTRING: 'text',
  TPAREN: 'bracket',
  TBRACKET: 'square bracket',
  TCOMMA: 'comma',
  TNAME: 'name',
};

/** The library's parse error in plain words. */
function plainMessage(raw: string): string {
  const text = raw.replace(/^parse error \[\d+:\d+\]:\s*/, '');
  const unexpected = /^unexpected (\w+)(?::\s*(.*))?$/.exec(text);
  if (unexpected) {
    const [, type = '', value = ''] = unexpected;
    if (type === 'TEOF') return 'The formula ends too early: something is missing at the end.';
    const what = value && value !== 'EOF' ? `"${value}"` : (LIBRARY_WORDS[type] ?? type);
    return `Unexpected ${what}.`;
  }
  const expected = /^Expected (.+)$/.exec(text);
  if (expected) {
    const token = expected[1] ?? '';
    const want =
      token === 'EOF'
        ? 'the end of the formula (an operator such as + may be missing)'
        : token === ')'
          ? 'a closing bracket ")"'
          : token in LIBRARY_WORDS
            ? `a ${LIBRARY_WORDS[token]}`
            : `"${token}"`;
    return `Expected ${want} here.`;
  }
  if (/^Unknown character "[[\]]"$/.test(text)) return 'Square brackets cannot be used in a formula.';
  if (/^Unknown character "\?"$/.test(text)) return 'Write if(condition, then, otherwise) instead of ? and :.';
  if (/^Unknown character "[&|]"$/.test(text)) return 'Combine conditions with and(a, b) or or(a, b).';
  if (/^Unknown character "(.*)"$/.test(text)) return `${text.replace(/^Unknown character/, 'The character')} cannot be used in a formula.`;
  if (/arrays are disabled/.test(text)) return 'Square brackets cannot be used in a formula.';
  if (/member access/.test(text)) return 'A dot can only join a list and one of its columns, e.g. items.qty.';
  if (/assignment|function definition/.test(text)) return 'A formula computes one value: it cannot define names or functions.';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function tryParse(text: string): { expression: Expression } | { error: Error } {
  try {
    return { expression: parser.parse(text) };
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** A parse error that more text could still fix: the formula so far ends too early. */
const incomplete = (error: Error) => /TEOF|Expected \)|Expected \]|Expected TNAME/.test(error.message);

/**
 * Where in `text` parsing fails (1-based): the start of the run of prefixes that all fail for a
 * reason more text cannot fix; past the end when the whole formula only ends too early.
 */
function failurePosition(text: string): number {
  const whole = tryParse(text);
  if ('error' in whole && incomplete(whole.error)) return text.length + 1;
  let at = text.length;
  for (let end = text.length - 1; end >= 1; end--) {
    const r = tryParse(text.slice(0, end));
    if (!('error' in r) || incomplete(r.error)) break;
    at = end;
  }
  return at;
}

type TInstruction = { type: string; value: unknown };

/** Names read by `tokens`, a list's column written `list.column`. */
function referencesOf(tokens: TInstruction[], out: string[]): void {
  let chain: string | null = null;
  const flush = () => {
    if (chain !== null && !out.includes(chain)) out.push(chain);
    chain = null;
  };
  for (const token of tokens) {
    if (token.type === 'IVAR' || token.type === 'IVARNAME') {
      flush();
      const name = String(token.value);
      if (!(name in FUNCTIONS) && !(name in consts)) chain = name;
    } else if (token.type === 'IMEMBER' && chain !== null) {
      chain += `.${String(token.value)}`;
    } else if (token.type === 'IEXPR' && Array.isArray(token.value)) {
      flush();
      referencesOf(token.value as TInstruction[], out);
    } else flush();
  }
  flush();
}

/** Parses a formula, or says what is wrong with it and where. */
export function parseFormula(source: string): { formula: TParsedFormula } | { problem: TFormulaProblem } {
  if (source.trim() === '') return { problem: { message: 'Enter a formula, e.g. qty * price.' } };
  const { text, from } = spreadsheetEquals(source);
  const r = tryParse(text);
  if ('error' in r) {
    // The tokenizer's errors point at the character; the parser's point past the token, or nowhere.
    const coordinates = /^parse error \[(\d+):(\d+)\]: (Unknown character|Illegal escape)/.exec(r.error.message);
    let at: number;
    if (coordinates) {
      // The library counts lines and columns; a formula is re-flowed to one offset.
      const lines = text.split('\n');
      const line = Number(coordinates[1]);
      at = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + Number(coordinates[2]) - 1;
    } else at = failurePosition(text) - 1;
    const position = Math.min((from[Math.min(Math.max(at, 0), from.length - 1)] ?? source.length) + 1, source.length + 1);
    // `a and b`: the words stop parsing where they stand.
    const word = /^\s*(and|or|not)\b/i.exec(source.slice(position - 1))?.[1]?.toLowerCase();
    const open = [...source.replace(/"(\\.|[^"\\])*"|'(\\.|[^'\\])*'/g, '')].reduce((n, c) => n + (c === '(' ? 1 : c === ')' ? -1 : 0), 0);
    const message = word
      ? `Combine conditions with and(a, b), or(a, b) and not(a), e.g. if(and(qty > 0, price > 0), …).`
      : /TEOF/.test(r.error.message) && open > 0
        ? `A closing bracket ")" is missing at the end.`
        : plainMessage(r.error.message);
    return { problem: { message, position } };
  }
  const references: string[] = [];
  referencesOf((r.expression as unknown as { tokens: TInstruction[] }).tokens, references);
  return { formula: { source, expression: r.expression, references } };
}

/** 1-based position of the first use of `name` as a whole word outside quotes, if any. */
export function positionOfName(source: string, name: string): number | undefined {
  for (const segment of segments(source)) {
    if (segment.quoted) continue;
    for (let i = segment.start; i < segment.start + segment.text.length; i++) if (wordAt(source, name, i)) return i + 1;
  }
  return undefined;
}

/** A function's name written without a call (`count * 2`), with its 1-based position, if any. */
export function uncalledFunction(source: string): { name: string; position: number } | undefined {
  for (const segment of segments(source)) {
    if (segment.quoted) continue;
    for (let i = segment.start; i < segment.start + segment.text.length; i++) {
      const word = /^[\p{L}_$][\p{L}\p{N}_$]*/u.exec(source.slice(i))?.[0];
      if (!word || /[\p{L}\p{N}_$.]/u.test(source[i - 1] ?? '')) continue;
      if (word in FUNCTIONS && !/^\s*\(/.test(source.slice(i + word.length))) return { name: word, position: i + 1 };
      i += word.length - 1;
    }
  }
  return undefined;
}

/**
 * `source` with every use of the name `from` written as `to`, outside quotes: a placeholder's
 * rename. `from` may be `list.column`; a bare `from` is not matched after a dot, so renaming
 * `qty` leaves `items.qty` alone unless asked for it by that name.
 */
export function renameInFormula(source: string, from: string, to: string): string {
  let out = '';
  for (const segment of segments(source)) {
    if (segment.quoted) {
      out += segment.text;
      continue;
    }
    const end = segment.start + segment.text.length;
    for (let i = segment.start; i < end; i++) {
      if (wordAt(source, from, i)) {
        out += to;
        i += from.length - 1;
      } else out += source[i];
    }
  }
  return out;
}

/** Whether `name` is written as a call, `name(`, somewhere in `source`. */
export function isCalled(source: string, name: string): boolean {
  const at = positionOfName(source, name);
  return at !== undefined && /^\s*\(/.test(source.slice(at - 1 + name.length));
}

// ---------------------------------------------------------------------------------------------
// Evaluating

/**
 * The value of a parsed formula over `scope` (names to values; a list is a TListScope). Throws
 * FormulaError when it cannot be computed; counts its steps against the budget in force
 * (withStepBudget), or against a budget of its own when none is.
 */
export function evaluateFormula(formula: TParsedFormula, scope: Record<string, TScopeValue>): TFormulaResult {
  if (!meter) return withStepBudget(FORMULA_STEP_BUDGET, () => evaluateFormula(formula, scope)).result;
  tick();
  let value: unknown;
  try {
    value = formula.expression.evaluate(scope as never);
  } catch (error) {
    if (error instanceof FormulaError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const undefinedName = /^undefined variable: (.+)$/.exec(message);
    if (undefinedName) throw new FormulaError(`The formula uses ${undefinedName[1]}, which has no value here.`);
    if (/Maximum call stack/i.test(message)) throw new FormulaError('The formula is nested too deeply.');
    throw new FormulaError(`The formula could not be computed: ${message}`);
  }
  if (value instanceof Fault) throw new FormulaError(value.message);
  if (typeof value === 'number') return toNumber(value);
  if (isDec(value) || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) throw new FormulaError('The formula gives a value for each row: wrap it in sum(…) to get one number.');
  throw new FormulaError('The formula gives a whole list: use one of its columns, e.g. sum(items.amount), or count(items).');
}

/** A result as the text a document holds: numbers in plain decimal notation, yes/no as true/false. */
export function resultText(result: TFormulaResult): string {
  if (isDec(result)) return result.isZero() ? '0' : result.toFixed();
  if (typeof result === 'boolean') return result ? 'true' : 'false';
  return result;
}
