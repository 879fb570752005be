import type { Expression } from 'expr-eval-fork';
import { consts, FUNCTIONS, parser } from './formula-functions.ts';
import {
  FORMULA_STEP_BUDGET,
  Fault,
  FormulaError,
  isDec,
  isMetered,
  tick,
  toNumber,
  withStepBudget,
  type TFormulaResult,
  type TScopeValue,
} from './formula-values.ts';

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

export { FORMULA_FUNCTIONS } from './formula-functions.ts';
export { BudgetExceeded, Dec, FORMULA_STEP_BUDGET, FormulaError, ROW_COUNT, withStepBudget, type TFormulaResult, type TScopeValue } from './formula-values.ts';

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
  if (!isMetered()) return withStepBudget(FORMULA_STEP_BUDGET, () => evaluateFormula(formula, scope)).result;
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
