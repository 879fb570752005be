import { describe, expect, it } from 'vitest';
import { describeShowIf } from './conditions.ts';
import { checkDocumentData } from './documents.ts';
import { expansionProblem, MAX_EXPANDED_TEXT_CHARS, measureExpansion } from './expansion.ts';
import { hiddenPlaceholders } from './filled-values.ts';
import { ZFormatContent, type TFormatContentInput } from './format-content.ts';
import { ZFormatInput } from './formats.ts';
import { ZPlaceholder, type TPlaceholder, type TPlaceholderInput } from './placeholders.ts';

const ps = (list: TPlaceholderInput[]): TPlaceholder[] => list.map((p) => ZPlaceholder.parse(p));
const content = (c: TFormatContentInput) => ZFormatContent.parse(c);

const ITEMS: TPlaceholderInput = {
  name: 'items',
  type: 'list',
  required: true,
  maxItems: 5,
  columns: [
    { name: 'description', type: 'text', required: true },
    { name: 'qty', type: 'number', required: true },
    { name: 'price', type: 'number' },
    { name: 'taxable', type: 'checkbox' },
    { name: 'amount', type: 'formula', expression: 'qty * price' },
  ],
};

describe('checking a document’s data', () => {
  const placeholders = ps([ITEMS, { name: 'agree', type: 'checkbox', required: true }, { name: 'total', type: 'formula', expression: 'sum(items.amount)' }]);

  it('takes rows as objects, cleans each cell by its column, drops blank rows and computes formulas', () => {
    const check = checkDocumentData(placeholders, {
      agree: true,
      items: [
        { description: ' Bolts ', qty: 3, price: '1,000.5', taxable: 'yes' },
        { description: '', qty: '', price: null },
        { description: 'Nuts', qty: '2', taxable: false, ignored: 'x' },
      ],
    });
    expect(check.fields).toEqual({});
    expect(check.values).toEqual({
      agree: 'true',
      items: [
        { description: 'Bolts', qty: '3', price: '1000.5', taxable: 'true', amount: '3001.5' },
        { description: 'Nuts', qty: '2', price: '', taxable: 'false', amount: '0' },
      ],
      total: '3001.5',
    });
  });

  it('points each problem at its row and column, rows counted from 0', () => {
    const check = checkDocumentData(placeholders, {
      agree: 'no',
      items: [
        { description: 'a', qty: '1' },
        { description: 'b', qty: '1' },
        { description: 'c', qty: '1' },
        { description: 'd', qty: 'lots' },
        { qty: '2', taxable: 'perhaps' },
      ],
    });
    expect(check.fields).toEqual({
      'items[3].qty': 'Enter a number.',
      'items[4].description': 'This field is required.',
      'items[4].taxable': 'Use yes or no (true or false).',
      agree: 'Tick this box to go on.',
    });
    expect(check.missing).toEqual(['Agree']);
  });

  it('refuses too many rows, no rows for a required list, and a list that is not a list', () => {
    const six = Array.from({ length: 6 }, (_, i) => ({ description: `r${i}`, qty: '1' }));
    expect(checkDocumentData(placeholders, { agree: true, items: six }).fields).toEqual({ items: 'Enter at most 5 rows.' });
    expect(checkDocumentData(placeholders, { agree: true, items: [] }).fields).toEqual({ items: 'Add at least one row.' });
    expect(checkDocumentData(placeholders, { agree: true, items: 'Bolts, Nuts' }).fields.items).toMatch(/^Send a list of rows/);
  });

  it('names a formula that cannot be computed, on its row', () => {
    const divide = ps([
      {
        ...ITEMS,
        columns: [
          { name: 'qty', type: 'number' },
          { name: 'each', type: 'formula', expression: '10 / qty' },
        ],
      },
    ]);
    expect(checkDocumentData(divide, { items: [{ qty: '2' }, { qty: '0' }] }).fields).toEqual({ 'items[1].each': 'The formula divides by zero.' });
  });
});

describe('questions only hidden elements use', () => {
  const placeholders = ps([
    { name: 'plan', type: 'select', options: ['Basic', 'Premium'] },
    { name: 'perk', type: 'text', required: true },
    { name: 'shared', type: 'text', required: true },
    { name: 'rate', type: 'number', required: true },
    { name: 'bonus', type: 'formula', expression: 'rate * 2' },
    { name: 'unused', type: 'text' },
  ]);
  const premium = content({
    elements: [
      { id: 'a', type: 'paragraph', content: 'Plan {{plan}}, {{shared}}' },
      {
        id: 's',
        type: 'section',
        showIf: { match: 'all', conditions: [{ field: 'plan', op: 'equals', value: 'Premium' }] },
        elements: [{ id: 's1', type: 'paragraph', content: '{{perk}} {{shared}} {{bonus}}' }],
      },
    ],
  });

  it('are hidden, with what only their formulas read; the condition’s field and unused ones are not', () => {
    expect([...hiddenPlaceholders(premium, placeholders, { plan: 'Basic' })].sort()).toEqual(['bonus', 'perk', 'rate']);
    expect([...hiddenPlaceholders(premium, placeholders, { plan: 'Premium' })]).toEqual([]);
  });

  it('are not required while hidden', () => {
    expect(checkDocumentData(placeholders, { plan: 'Basic', shared: 'x' }, premium).missing).toEqual([]);
    expect(checkDocumentData(placeholders, { plan: 'Premium', shared: 'x' }, premium).missing).toEqual(['Perk', 'Rate']);
  });
});

describe('the expansion bound counts loops', () => {
  const format = content({
    elements: [
      {
        id: 't',
        type: 'table',
        headerRow: true,
        rows: [['Item'], ['{{description}} {{items.description}} {{client}}'], ['{{client}}']],
        repeat: { row: 1, list: 'items' },
      },
      { id: 'l', type: 'list', items: ['{{description}}'], repeat: 'items' },
    ],
  });

  it('once per row of the list a row repeats', () => {
    const rows = Array.from({ length: 10 }, () => ({ description: 'x'.repeat(100) }));
    const measured = measureExpansion(format, { client: 'ACME', items: rows });
    // Literal "Item" and two spaces per row; 3 descriptions and one client per row; one client outside.
    expect(measured.chars).toBe(4 + 10 * (2 + 3 * 100 + 4) + 4);
    expect(measured.largest).toEqual({ name: 'items', chars: 10 * (2 + 3 * 100 + 4), uses: 10, list: true });
  });

  it('refuses a document whose rows hold too much text, naming the list', () => {
    const rows = Array.from({ length: 1000 }, () => ({ description: 'x'.repeat(1000) }));
    const measured = measureExpansion(format, { items: rows });
    expect(measured.chars).toBeGreaterThan(MAX_EXPANDED_TEXT_CHARS);
    expect(expansionProblem(measured)).toMatch(/Most of it comes from the 1,000 rows of \{\{items\}\}/);
  });
});

describe('saving a format with logic', () => {
  const base = { name: 'Logic', placeholders: [ITEMS, { name: 'plan', type: 'select', options: ['A', 'B'] }] };
  const issues = (c: TFormatContentInput, placeholders = base.placeholders) => {
    const r = ZFormatInput.safeParse({ ...base, content: c, placeholders });
    return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
  };

  it('accepts repeats on lists and conditions on fields', () => {
    expect(
      issues({
        elements: [
          {
            id: 't',
            type: 'table',
            headerRow: true,
            rows: [['h'], ['{{qty}}']],
            repeat: { row: 1, list: 'items' },
            showIf: { match: 'any', conditions: [{ field: 'plan', op: 'one_of', values: ['A'] }] },
          },
          { id: 'l', type: 'list', items: ['{{qty}}'], repeat: 'items' },
        ],
      }),
    ).toEqual([]);
  });

  it('names the field of each problem', () => {
    expect(
      issues({
        elements: [
          { id: 't', type: 'table', headerRow: true, rows: [['h'], ['x']], repeat: { row: 0, list: 'plan' } },
          {
            id: 's',
            type: 'section',
            elements: [{ id: 'p', type: 'paragraph', content: 'x', showIf: { match: 'all', conditions: [{ field: 'nope', op: 'equals', value: '1' }] } }],
          },
          { id: 'q', type: 'paragraph', content: 'x', showIf: { match: 'all', conditions: [{ field: 'plan', op: 'greater_than', value: 'many' }] } },
        ],
      }),
    ).toEqual([
      ['content.elements.0.repeat.list', 'A repeating row needs a list placeholder; plan is not one.'],
      ['content.elements.0.repeat.row', 'The header row cannot repeat: choose a row below it.'],
      ['content.elements.1.elements.0.showIf.conditions.0.field', 'The condition reads nope, which is not a placeholder of this format.'],
      ['content.elements.2.showIf.conditions.0.value', 'Compare Plan with a number or a date (YYYY-MM-DD).'],
    ]);
  });

  it('refuses a list without columns and a formula that does not parse, with where it fails', () => {
    expect(
      issues({ elements: [] }, [
        { name: 'lines', type: 'list' },
        { name: 'f', type: 'formula', expression: 'qty +* 2' },
      ]),
    ).toEqual([
      ['placeholders.0.columns', 'Give the list lines at least one column.'],
      ['placeholders.1.expression', 'f: Unexpected "*". (at character 6)'],
    ]);
  });

  it('keeps formats saved before logic existed valid', () => {
    expect(issues({ elements: [{ id: 'p', type: 'paragraph', content: '{{a|b}} {{x.y}}' }] }, [{ name: 'a|b' }, { name: 'x.y' }])).toEqual([]);
  });
});

describe('condition badges', () => {
  it('read as a person says them', () => {
    const placeholders = ps([{ name: 'plan', type: 'select', options: ['Basic', 'Premium'] }, { name: 'vip', type: 'checkbox', label: 'VIP' }, ITEMS]);
    expect(describeShowIf({ match: 'all', conditions: [{ field: 'plan', op: 'equals', value: 'Premium' }] }, placeholders)).toBe('Shown when Plan = Premium');
    expect(
      describeShowIf(
        {
          match: 'any',
          conditions: [
            { field: 'vip', op: 'equals', value: 'true' },
            { field: 'items', op: 'is_not_empty' },
            { field: 'plan', op: 'one_of', values: ['Basic', 'Premium'] },
          ],
        },
        placeholders,
      ),
    ).toBe('Shown when VIP is ticked or Items has rows or Plan is one of Basic, Premium');
  });
});
