import { describe, expect, it } from 'vitest';
import {
  ZPlaceholder,
  ZPlaceholderList,
  defaultPlaceholderLabel,
  displayAdornment,
  findPlaceholderNames,
  findPlaceholderTags,
  formatPlaceholderValue,
  normalizePlaceholderName,
  placeholderLabel,
  guessNumberDisplay,
  guessPlaceholder,
  guessPlaceholderType,
  printValue,
  renamePlaceholderTags,
  substitutePlaceholders,
} from './placeholders.ts';

describe('placeholder names and labels', () => {
  it('lowercases names and turns whitespace into underscores', () => {
    expect(normalizePlaceholderName('  Client  Name\tHere ')).toBe('client_name_here');
    expect(ZPlaceholder.parse({ name: 'Due Date' }).name).toBe('due_date');
  });

  it('derives the label from the name', () => {
    expect(defaultPlaceholderLabel('client_full_name')).toBe('Client full name');
    expect(placeholderLabel({ name: 'due_date' })).toBe('Due date');
    expect(placeholderLabel({ name: 'due_date', label: 'Pay by' })).toBe('Pay by');
  });

  it('rejects blank names, braces and duplicate names; drops blank options', () => {
    expect(ZPlaceholder.safeParse({ name: '   ' }).success).toBe(false);
    expect(ZPlaceholder.safeParse({ name: 'a}b' }).success).toBe(false);
    expect(ZPlaceholderList.safeParse([{ name: 'A' }, { name: 'a' }]).success).toBe(false);
    expect(ZPlaceholder.parse({ name: 's', type: 'select', options: ['x', ' ', 'y'] })).toEqual({
      name: 's',
      type: 'select',
      required: false,
      options: ['x', 'y'],
    });
  });
});

describe('tags', () => {
  it('finds tags in order, normalising what is inside the braces', () => {
    expect(findPlaceholderTags('Hi {{Client Name}}, {{ due }}!')).toEqual([
      { name: 'client_name', start: 3, end: 18 },
      { name: 'due', start: 20, end: 29 },
    ]);
    expect(findPlaceholderNames('{{a}} {{b}} {{a}} {{}} {{ }}')).toEqual(['a', 'b']);
  });

  it('substitutes once: values are literal and missing values are empty', () => {
    const values: Record<string, string> = { a: '{{b}}', b: 'B' };
    expect(substitutePlaceholders('[{{a}}] [{{b}}] [{{c}}]', (n) => values[n])).toBe('[{{b}}] [B] []');
  });
});

describe('value formatting', () => {
  it('formats ISO dates readably for the locale', () => {
    expect(formatPlaceholderValue('2025-03-05', 'date')).toBe('March 5, 2025');
    expect(formatPlaceholderValue('2025-03-05', 'date', 'de-DE')).toBe('5. März 2025');
    expect(formatPlaceholderValue('2025-02-30', 'date')).toBe('2025-02-30');
    expect(formatPlaceholderValue('next week', 'date')).toBe('next week');
  });

  it('groups numbers and keeps the typed decimals', () => {
    expect(formatPlaceholderValue('1234567.50', 'number')).toBe('1,234,567.50');
    expect(formatPlaceholderValue('-1000', 'number', 'en-IN')).toBe('-1,000');
    expect(formatPlaceholderValue('12345678', 'number', 'en-IN')).toBe('1,23,45,678');
    expect(formatPlaceholderValue('12345678901234567890', 'number')).toBe('12345678901234567890');
    expect(formatPlaceholderValue('12 apples', 'number')).toBe('12 apples');
  });

  it('falls back to en-US for an unknown locale and leaves other types alone', () => {
    expect(formatPlaceholderValue('1000', 'number', 'zz-invalid-locale-tag-xx')).toBe('1,000');
    expect(formatPlaceholderValue('1000', 'text')).toBe('1000');
  });
});

describe('renamePlaceholderTags', () => {
  it('rewrites every tag of the renamed placeholder, however it was typed, and nothing else', () => {
    expect(renamePlaceholderTags('Dear {{Client Name}}, {{ client_name }} and {{client_names}} at {{x}}.', 'client_name', 'customer')).toBe(
      'Dear {{customer}}, {{customer}} and {{client_names}} at {{x}}.',
    );
    expect(renamePlaceholderTags('No tags here', 'a', 'b')).toBe('No tags here');
  });
});

describe('guessPlaceholderType', () => {
  it('guesses from the words of the name', () => {
    expect(guessPlaceholderType('start_date')).toBe('date');
    expect(guessPlaceholderType('Client Email')).toBe('email');
    expect(guessPlaceholderType('annual_salary')).toBe('number');
    expect(guessPlaceholderType('total')).toBe('number');
    expect(guessPlaceholderType('unit_price')).toBe('number');
    expect(guessPlaceholderType('mobile_phone')).toBe('tel');
    expect(guessPlaceholderType('billing_address')).toBe('textarea');
    expect(guessPlaceholderType('client_name')).toBe('text');
    expect(guessPlaceholderType('updated')).toBe('text');
  });
});

describe('guessNumberDisplay', () => {
  it('guesses money, percent or plain from the words of the name', () => {
    for (const name of ['amount', 'unit_price', 'annual_salary', 'total', 'subtotal', 'late_fee', 'monthly_rent', 'cost', 'deposit', 'budget']) {
      expect(guessNumberDisplay(name), name).toBe('currency');
    }
    for (const name of ['balance_due', 'hourly_wage', 'take_home_pay', 'tax_amount', 'hourly_rate']) expect(guessNumberDisplay(name), name).toBe('currency');
    for (const name of ['tax_rate', 'Interest Rate', 'discount_percent', 'tax']) expect(guessNumberDisplay(name), name).toBe('percent');
    for (const name of ['qty', 'quantity', 'hours', 'term_years', 'rent_due_day_count']) expect(guessNumberDisplay(name), name).not.toBe('percent');
    expect(guessNumberDisplay('qty')).toBe('plain');
    expect(guessNumberDisplay('course_hours')).toBe('plain');
    // A formula's tax is the amount it computes; its rate is still a percent.
    expect(guessNumberDisplay('tax', 'formula')).toBe('currency');
    expect(guessNumberDisplay('tax_rate', 'formula')).toBe('percent');
  });

  it('gives a new number placeholder its display, and other types none', () => {
    expect(guessPlaceholder('total_amount')).toEqual({ type: 'number', display: 'currency' });
    expect(guessPlaceholder('tax_rate')).toEqual({ type: 'number', display: 'percent' });
    expect(guessPlaceholder('discount_percent')).toEqual({ type: 'number', display: 'percent' });
    expect(guessPlaceholder('qty')).toEqual({ type: 'number' });
    expect(guessPlaceholder('start_date')).toEqual({ type: 'date' });
  });
});

describe('number display', () => {
  it('is optional, so a placeholder stored before displays parses as it did', () => {
    expect(ZPlaceholder.parse({ name: 'n', type: 'number' })).toEqual({ name: 'n', type: 'number', required: false, options: [] });
    expect(ZPlaceholder.parse({ name: 'n', type: 'number', display: 'decimal', decimals: 3 })).toMatchObject({ display: 'decimal', decimals: 3 });
    expect(ZPlaceholder.parse({ name: 'f', type: 'formula', expression: '1', display: 'currency' })).toMatchObject({ display: 'currency' });
  });

  it('belongs to numbers and formulas, with places only where they print', () => {
    expect(ZPlaceholder.safeParse({ name: 't', type: 'text', display: 'currency' }).success).toBe(false);
    expect(ZPlaceholder.safeParse({ name: 'n', type: 'number', display: 'money' }).success).toBe(false);
    expect(ZPlaceholder.safeParse({ name: 'n', type: 'number', decimals: 2 }).success).toBe(false);
    expect(ZPlaceholder.safeParse({ name: 'n', type: 'number', display: 'plain', decimals: 2 }).success).toBe(false);
    expect(ZPlaceholder.safeParse({ name: 'n', type: 'number', display: 'percent', decimals: 11 }).success).toBe(false);
    expect(ZPlaceholder.safeParse({ name: 'n', type: 'number', display: 'percent', decimals: 1.5 }).success).toBe(false);
    const list = (column: Record<string, unknown>) => ZPlaceholder.safeParse({ name: 'items', type: 'list', columns: [{ name: 'c', ...column }] }).success;
    expect(list({ type: 'number', display: 'currency', decimals: 0 })).toBe(true);
    expect(list({ type: 'formula', expression: '1', display: 'percent' })).toBe(true);
    expect(list({ type: 'date', display: 'percent' })).toBe(false);
  });

  it('prints by the locale and currency, a tag’s own format still winning', () => {
    const en = { locale: 'en-US', currency: 'USD' };
    const de = { locale: 'de-DE', currency: 'EUR' };
    const hi = { locale: 'hi-IN', currency: 'INR' };
    const money = { type: 'number', display: 'currency' } as const;
    expect(printValue('1234.5', money, en)).toBe('$1,234.50');
    expect(printValue('1234.5', money, de)).toBe('1.234,50\u00a0€');
    expect(printValue('123456.5', money, hi)).toBe('₹1,23,456.50');
    expect(printValue('1234.5', { ...money, decimals: 0 }, en)).toBe('$1,235');
    expect(printValue('1234.5', { type: 'number', display: 'decimal' }, en)).toBe('1,234.50');
    expect(printValue('1234.5', { type: 'formula', display: 'decimal', decimals: 3 }, de)).toBe('1.234,500');
    expect(printValue('12.5', { type: 'number', display: 'percent' }, en)).toBe('12.5%');
    expect(printValue('12.5', { type: 'number', display: 'percent' }, de)).toBe('12,5\u00a0%');
    expect(printValue('7', { type: 'formula', display: 'percent', decimals: 1 }, en)).toBe('7.0%');
    expect(printValue('1234.5', { type: 'number', display: 'plain' }, de)).toBe('1.234,5');
    expect(printValue('1234.5', { type: 'number' }, en)).toBe('1,234.5');
    // The tag's `| number:0` or `| currency` wins over the display.
    expect(printValue('1234.5', money, en, { kind: 'number', decimals: 0 })).toBe('1,235');
    expect(printValue('12.5', { type: 'number', display: 'percent' }, en, { kind: 'currency', currency: 'EUR' })).toBe('€12.50');
    // Text that is not a number prints as typed, whatever the display.
    expect(printValue('about 40', money, en)).toBe('about 40');
    expect(printValue('true', { type: 'formula', display: 'currency' }, en)).toBe('☑');
  });

  it('names the currency symbol or percent sign the form shows, on its side', () => {
    expect(displayAdornment('currency', { locale: 'en-US', currency: 'USD' })).toEqual({ text: '$', side: 'start' });
    expect(displayAdornment('currency', { locale: 'de-DE', currency: 'EUR' })).toEqual({ text: '€', side: 'end' });
    expect(displayAdornment('currency', { locale: 'hi-IN', currency: 'INR' })).toEqual({ text: '₹', side: 'start' });
    expect(displayAdornment('percent', { locale: 'en-US', currency: 'USD' })).toEqual({ text: '%', side: 'end' });
    expect(displayAdornment('decimal', { locale: 'en-US', currency: 'USD' })).toBeUndefined();
    expect(displayAdornment(undefined, { locale: 'en-US', currency: 'USD' })).toBeUndefined();
  });
});
