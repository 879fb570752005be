import { describe, expect, it } from 'vitest';
import {
  ZPlaceholder,
  ZPlaceholderList,
  defaultPlaceholderLabel,
  findPlaceholderNames,
  findPlaceholderTags,
  formatPlaceholderValue,
  normalizePlaceholderName,
  placeholderLabel,
  guessPlaceholderType,
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
