import { describe, expect, it } from 'vitest';
import { computeFormulas, formulaOrder } from './filled-values.ts';
import { formatLogicIssues, formulaProblem } from './format-logic.ts';
import { Dec, evaluateFormula, FORMULA_STEP_BUDGET, FormulaError, parseFormula, resultText, ROW_COUNT, type TScopeValue } from './formulas.ts';
import { ZPlaceholder, type TPlaceholder, type TPlaceholderInput } from './placeholders.ts';

const ps = (list: TPlaceholderInput[]): TPlaceholder[] => list.map((p) => ZPlaceholder.parse(p));

function list(columns: Record<string, TScopeValue[]>): TScopeValue {
  const scope = Object.create(null) as Record<string, TScopeValue[] | number>;
  Object.assign(scope, columns);
  scope[ROW_COUNT] = Object.values(columns)[0]?.length ?? 0;
  return scope as TScopeValue;
}

const SCOPE: Record<string, TScopeValue> = {
  qty: new Dec('3'),
  price: new Dec('19.99'),
  subtotal: new Dec('100.05'),
  zero: new Dec(0),
  country: 'IN',
  vip: true,
  name: 'Ann',
  items: list({ qty: [new Dec(2), new Dec(3)], price: [new Dec('0.1'), new Dec('0.2')], label: ['a', 'b'] }),
};

function value(source: string, scope = SCOPE): string {
  const parsed = parseFormula(source);
  if ('problem' in parsed) throw new Error(`${source}: ${parsed.problem.message}`);
  return resultText(evaluateFormula(parsed.formula, scope));
}

function failure(source: string, scope = SCOPE): string {
  const parsed = parseFormula(source);
  if ('problem' in parsed) throw new Error(`${source}: ${parsed.problem.message}`);
  try {
    evaluateFormula(parsed.formula, scope);
  } catch (error) {
    if (error instanceof FormulaError) return error.message;
    throw error;
  }
  throw new Error(`${source} computed`);
}

describe('formulas compute', () => {
  it.each([
    ['0.1 + 0.2', '0.3'],
    ['qty * price', '59.97'],
    ['sum(items.qty * items.price)', '0.8'],
    ['round(subtotal * 0.18, 2)', '18.01'],
    ['round(1.005, 2)', '1.01'],
    ['round(-1.005, 2)', '-1.01'],
    ['floor(2.789, 1) + ceil(2.711, 1)', '5.5'],
    ['if(country = "IN", "GST", "VAT")', 'GST'],
    ['IF(country == "in", 1, 2)', '1'],
    ['if(zero = 0, 0, 10 / zero)', '0'],
    ['count(items)', '2'],
    ['avg(items.qty)', '2.5'],
    ['min(items.qty) + max(items.price, 7)', '9'],
    ['abs(-2.5)', '2.5'],
    ['name || " x" || qty', 'Ann x3'],
    ['and(vip, qty > 2)', 'true'],
    ['or(not(vip), qty < 2)', 'false'],
    ['qty >= 3 and 1', 'true'],
    ['2 ^ 10 % 1000', '24'],
    ['1 / 3 * 3', '0.9999999999999999999999999999999999'],
    ['round(1 / 3 * 3, 2)', '1'],
    ['"" = 0', 'false'],
  ])('%s = %s', (source, expected) => {
    if (source === 'qty >= 3 and 1') {
      expect(parseFormula(source)).toMatchObject({ problem: { position: 10 } });
      return;
    }
    expect(value(source)).toBe(expected);
  });

  it('says why a formula cannot be computed', () => {
    expect(failure('qty / zero')).toBe('The formula divides by zero.');
    expect(failure('name * 2')).toBe('"Ann" is not a number.');
    expect(failure('items.qty')).toMatch(/wrap it in sum/);
    expect(failure('items')).toMatch(/use one of its columns/);
    expect(failure('10 ^ 30')).toMatch(/too large/);
    expect(failure('2 ^ 1000')).toMatch(/between -100 and 100/);
    expect(failure('unknown + 1')).toMatch(/unknown, which has no value/);
  });
});

describe('formulas are parsed with the position of an error', () => {
  it.each([
    ['qty +', 'The formula ends too early: something is missing at the end.', 6],
    ['1 +* 2', 'Unexpected "*".', 4],
    ['(qty', 'Expected a closing bracket ")" here.', 5],
    ['sum(items.qty', 'A closing bracket ")" is missing at the end.', 14],
    ['qty ? 1 : 2', 'Write if(condition, then, otherwise) instead of ? and :.', 5],
    ['qty > 1 and vip', 'Combine conditions with and(a, b), or(a, b) and not(a), e.g. if(and(qty > 0, price > 0), …).', 9],
    ['qty # 2', 'The character "#" cannot be used in a formula.', 5],
    ['[1, 2]', 'Square brackets cannot be used in a formula.', 1],
  ])('%s', (source, message, position) => {
    expect(parseFormula(source)).toEqual({ problem: { message, position } });
  });

  it('reads names, a list column as list.column', () => {
    const parsed = parseFormula('sum(items.qty * items.price) + if(vip, tax, 0)');
    expect('formula' in parsed && parsed.formula.references).toEqual(['items.qty', 'items.price', 'vip', 'tax']);
  });

  it('never runs code: names of JavaScript internals are refused or unknown', () => {
    expect(failure('qty.constructor')).toMatch(/could not be computed/);
    expect(failure('constructor(1)')).toMatch(/could not be computed/);
    expect(failure('__proto__')).toMatch(/could not be computed/);
  });
});

describe('formula checks at save', () => {
  const placeholders = ps([
    { name: 'qty', type: 'number' },
    {
      name: 'items',
      type: 'list',
      columns: [
        { name: 'price', type: 'number' },
        { name: 'line', type: 'formula', expression: 'price * qty' },
      ],
    },
    { name: 'total', type: 'formula', expression: 'sum(items.line)' },
  ]);

  it('accepts names that exist, and a row formula reading its row and the document', () => {
    expect(formulaProblem('sum(items.price) * qty', placeholders)).toBeUndefined();
    expect(formulaProblem('price * 2 + items.price', placeholders, placeholders[1])).toBeUndefined();
  });

  it('refuses unknown names, unknown columns and functions, with where they are', () => {
    expect(formulaProblem('Qty * 2', placeholders)).toBe('Unknown name Qty (at character 1). Did you mean qty?');
    expect(formulaProblem('sum(items.cost)', placeholders)).toBe('items has no column named cost (at character 5). Its columns: price, line.');
    expect(formulaProblem('qty.x', placeholders)).toBe('qty is not a list, so it has no columns (at character 1).');
    expect(formulaProblem('vlookup(qty)', placeholders)).toMatch(/^There is no function vlookup \(at character 1\)\. Formulas can use sum, avg/);
    expect(formulaProblem('total + 1', placeholders, undefined, 'total')).toBe('A formula cannot use its own value (at character 1).');
  });

  it('finds formulas that read each other in a circle', () => {
    const circle = ps([
      { name: 'a', type: 'formula', expression: 'b + 1' },
      { name: 'b', type: 'formula', expression: 'a + 1' },
    ]);
    expect(formulaOrder(circle).cycle).toEqual(['a', 'b', 'a']);
    expect(formatLogicIssues({ elements: [] }, circle)).toEqual([
      { path: ['placeholders', 0, 'expression'], message: 'These formulas use each other in a circle: a → b → a.' },
    ]);
  });
});

describe('computing a document’s formulas', () => {
  const placeholders = ps([
    {
      name: 'items',
      type: 'list',
      columns: [
        { name: 'qty', type: 'number' },
        { name: 'price', type: 'number' },
        { name: 'amount', type: 'formula', expression: 'qty * price' },
      ],
    },
    { name: 'total', type: 'formula', expression: 'tax + subtotal' },
    { name: 'subtotal', type: 'formula', expression: 'sum(items.amount)' },
    { name: 'tax', type: 'formula', expression: 'round(subtotal * rate / 100, 2)' },
    { name: 'rate', type: 'number' },
    { name: 'ratio', type: 'formula', expression: '1 / rate' },
    { name: 'uses_ratio', type: 'formula', expression: 'ratio * 2' },
  ]);

  it('computes rows first, then what reads them, in any order of definition', () => {
    const { values, errors } = computeFormulas(placeholders, {
      rate: '18',
      items: [
        { qty: '3', price: '19.99' },
        { qty: '1', price: '0.10' },
      ],
    });
    expect(values.items).toEqual([
      { qty: '3', price: '19.99', amount: '59.97' },
      { qty: '1', price: '0.10', amount: '0.1' },
    ]);
    expect([values.subtotal, values.tax, values.total]).toEqual(['60.07', '10.81', '70.88']);
    expect(errors).toEqual({});
  });

  it('names a formula that fails and every formula that reads it', () => {
    const { values, errors } = computeFormulas(placeholders, { rate: '0', items: [] });
    expect(values.ratio).toBe('');
    expect(errors).toEqual({ ratio: 'The formula divides by zero.', uses_ratio: 'It reads ratio, which could not be computed.' });
  });

  it('stops within its step budget whatever the data', () => {
    const heavy = ps([
      {
        name: 'items',
        type: 'list',
        columns: [
          { name: 'x', type: 'number' },
          ...Array.from({ length: 19 }, (_, i) => ({ name: `f${i}`, type: 'formula' as const, expression: `sum(items.x) + ${'x + '.repeat(100)}1` })),
        ],
      },
    ]);
    const rows = Array.from({ length: 1000 }, (_, i) => ({ x: String(i) }));
    const { errors, steps } = computeFormulas(heavy, { items: rows });
    expect(Object.values(errors)[0]).toBe('The formulas need too much work to compute for this much data.');
    expect(steps).toBeGreaterThan(FORMULA_STEP_BUDGET);
    expect(steps).toBeLessThanOrEqual(FORMULA_STEP_BUDGET + 1_001);
  });
});

describe('renaming in formulas', () => {
  it('rewrites whole names outside quotes, a column by list.column', async () => {
    const { renameInFormula } = await import('./formulas.ts');
    expect(renameInFormula('sub + subtotal * 2 + "subtotal" + x.subtotal', 'subtotal', 'net')).toBe('sub + net * 2 + "subtotal" + x.subtotal');
    expect(renameInFormula('sum(items.qty) + qty', 'items.qty', 'items.quantity')).toBe('sum(items.quantity) + qty');
  });
});
