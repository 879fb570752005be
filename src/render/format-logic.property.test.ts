import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeFormulas } from '../contract/filled-values.ts';
import { formatLogicIssues } from '../contract/format-logic.ts';
import { FORMULA_STEP_BUDGET, parseFormula } from '../contract/formulas.ts';
import { MAX_LIST_ROWS, ZPlaceholder, type TPlaceholder } from '../contract/placeholders.ts';
import { renderPdf } from './index.ts';
import { assertValidPdf } from './testdata/pdf-tools.ts';

/*
 * Properties of format logic, for any input:
 * - a formula is either refused when the format is saved (with a message, and a position inside
 *   the formula when it does not parse) or computed, to a value or a stated reason, within the
 *   step budget, however large the list it reads;
 * - no content, condition, repeat or data makes the renderer throw.
 */

const TOKENS = [
  'qty',
  'price',
  'items.qty',
  'items.price',
  'items',
  'vip',
  'name',
  'rate',
  'other',
  'Qty',
  'items.nope',
  'sum(',
  'round(',
  'if(',
  'and(',
  'or(',
  'not(',
  'count(',
  'avg(',
  'min(',
  'max(',
  'abs(',
  'floor(',
  'ceil(',
  'vlookup(',
  ',',
  ')',
  '(',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '=',
  '==',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '||',
  ' and ',
  '?',
  ':',
  '[',
  ']',
  '.',
  '#',
  '&',
  '"IN"',
  "'x'",
  '"a\\"b"',
  '0',
  '0.1',
  '1e3',
  '999999999999',
  '2',
  '100',
  ' ',
  '\n',
  'true',
  'false',
  'constructor',
  '__proto__',
] as const;

/** Formulas that parse: expressions over the test's names, every operator and function. */
const { expression: wellFormed } = fc.letrec<{ expression: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    fc.constantFrom('qty', 'price', 'rate', 'vip', 'name', 'sum(items.qty)', 'count(items)', '"IN"', '0', '0.1', '2', '1000000', 'true'),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => String(Math.abs(Math.round(x * 100) / 100))),
  ),
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('atom'),
    fc
      .tuple(tie('expression'), fc.constantFrom('+', '-', '*', '/', '%', '^', '=', '!=', '<', '>=', '||'), tie('expression'))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(fc.constantFrom('sum', 'round', 'abs', 'floor', 'ceil', 'min', 'max', 'avg', 'not'), tie('expression')).map(([f, a]) => `${f}(${a})`),
    fc.tuple(tie('expression'), tie('expression'), tie('expression')).map(([c, a, b]) => `if(${c}, ${a}, ${b})`),
    fc.tuple(tie('expression'), tie('expression')).map(([a, b]) => `and(${a}, ${b})`),
  ),
}));

const formulaText = fc.oneof(
  { weight: 3, arbitrary: wellFormed.filter((e) => e.length <= 500) },
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);
const rowFormulaText = fc.oneof(
  { weight: 3, arbitrary: wellFormed.map((e) => e.replaceAll('sum(items.qty)', 'qty').replaceAll('count(items)', 'price')).filter((e) => e.length <= 500) },
  { weight: 1, arbitrary: formulaText },
);

const cellValue = fc.oneof(
  fc.constantFrom('', '0', '1', '-3.5', '19.99', '1,234.5', 'abc', 'true', '2025-03-05', '1e400', '99999999999999999999'),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.string({ maxLength: 8 }),
);

function placeholdersWith(expression: string, rowExpression: string): TPlaceholder[] {
  return [
    { name: 'qty', type: 'number' },
    { name: 'price', type: 'number' },
    { name: 'rate', type: 'number' },
    { name: 'vip', type: 'checkbox' },
    { name: 'name', type: 'text' },
    {
      name: 'items',
      type: 'list',
      columns: [
        { name: 'qty', type: 'number' },
        { name: 'price', type: 'number' },
        { name: 'line', type: 'formula', expression: rowExpression },
      ],
    },
    { name: 'f', type: 'formula', expression },
  ].map((p) => ZPlaceholder.parse(p));
}

describe('formula properties', () => {
  it('any formula is refused at save, with where it fails, or computed within its budget', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        formulaText,
        rowFormulaText,
        fc.record({ qty: cellValue, price: cellValue, rate: cellValue, vip: fc.constantFrom('true', 'false'), name: cellValue }),
        fc.array(fc.record({ qty: cellValue, price: cellValue }), { maxLength: 25 }),
        fc.boolean(),
        (expression, rowExpression, scalars, rows, manyRows) => {
          const placeholders = placeholdersWith(expression, rowExpression);
          const issues = formatLogicIssues({ elements: [] }, placeholders);
          for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
          for (const source of [expression, rowExpression]) {
            const parsed = parseFormula(source);
            if ('problem' in parsed && parsed.problem.position !== undefined) {
              expect(parsed.problem.position).toBeGreaterThanOrEqual(1);
              expect(parsed.problem.position).toBeLessThanOrEqual(source.length + 1);
            }
          }
          if (issues.length > 0) return;
          accepted += 1;
          // Accepted: it computes, to a value or a reason, over as many rows as a list may hold.
          const items = manyRows ? Array.from({ length: MAX_LIST_ROWS }, (_, i) => rows[i % Math.max(rows.length, 1)] ?? { qty: '1', price: '1' }) : rows;
          const { values, errors, steps } = computeFormulas(placeholders, { ...scalars, items });
          expect(steps).toBeLessThanOrEqual(FORMULA_STEP_BUDGET + MAX_LIST_ROWS + 1);
          expect(typeof values.f).toBe('string');
          for (const message of Object.values(errors)) expect(message.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 400, seed: 20260302 },
    );
    // The property is about formulas that are computed, not only refused.
    expect(accepted).toBeGreaterThan(100);
  });
});

const conditionArb = fc.record({
  field: fc.constantFrom('qty', 'vip', 'items', 'name', 'missing', 'f'),
  op: fc.constantFrom('equals', 'not_equals', 'is_empty', 'is_not_empty', 'greater_than', 'less_than', 'one_of'),
  value: fc.option(cellValue, { nil: undefined }),
  values: fc.option(fc.array(cellValue, { maxLength: 3 }), { nil: undefined }),
});
const showIf = fc.option(fc.record({ match: fc.constantFrom('all', 'any'), conditions: fc.array(conditionArb, { minLength: 1, maxLength: 3 }) }), {
  nil: undefined,
});
const text = fc.oneof(
  fc.constantFrom(
    '{{qty}}',
    '{{items.qty}} × {{price | currency}}',
    '{{f | number:2}}',
    '{{vip}}',
    '{{name | date:short}}',
    '{{items}}',
    '**{{line}}**',
    '{{qty | currency:EUR}}',
    '',
  ),
  fc.string({ maxLength: 20 }),
);
const leaf = fc.oneof(
  fc.record({ id: fc.string({ maxLength: 4 }), type: fc.constant('paragraph'), content: text, showIf }),
  fc.record({
    id: fc.string({ maxLength: 4 }),
    type: fc.constant('table'),
    headerRow: fc.boolean(),
    rows: fc.array(fc.array(text, { maxLength: 3 }), { maxLength: 4 }),
    repeat: fc.option(fc.record({ row: fc.integer({ min: 0, max: 4 }), list: fc.constantFrom('items', 'qty', 'missing') }), { nil: undefined }),
    showIf,
  }),
  fc.record({
    id: fc.string({ maxLength: 4 }),
    type: fc.constant('list'),
    items: fc.array(text, { maxLength: 3 }),
    repeat: fc.option(fc.constantFrom('items', 'name', 'missing'), { nil: undefined }),
    showIf,
  }),
);
const element = fc.oneof(
  { weight: 3, arbitrary: leaf },
  {
    weight: 1,
    arbitrary: fc.record({
      id: fc.string({ maxLength: 4 }),
      type: fc.constant('section'),
      title: fc.string({ maxLength: 8 }),
      elements: fc.array(leaf, { maxLength: 3 }),
      showIf,
    }),
  },
  { weight: 1, arbitrary: fc.anything() },
);
const dataValue = fc.oneof(
  cellValue,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.dictionary(fc.constantFrom('qty', 'price', 'line', 'x', '__proto__'), fc.oneof(cellValue, fc.boolean(), fc.constant(null), fc.anything())), {
    maxLength: 6,
  }),
  fc.anything(),
);

describe('renderer properties with format logic', () => {
  it('never throws, and always gives a valid PDF, whatever the content, conditions, repeats and data', () => {
    fc.assert(
      fc.property(
        fc.array(element, { maxLength: 6 }),
        fc.dictionary(fc.constantFrom('qty', 'price', 'vip', 'name', 'items', 'f', 'other'), dataValue),
        formulaText,
        fc.constantFrom('USD', 'EUR', 'JPY', 'XYZ', 'bad', undefined),
        (elements, data, expression, currency) => {
          const format = {
            content: { elements, tagFormats: true, ...(currency ? { currency } : {}) },
            placeholders: placeholdersWith(expression, 'qty * price'),
          };
          const { pdf } = renderPdf({ format: format as never, data, assets: {}, meta: { title: 'p', creationDate: new Date(0) } });
          assertValidPdf(pdf);
        },
      ),
      { numRuns: 60, seed: 20260303 },
    );
  });
});
