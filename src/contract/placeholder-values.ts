import type { TDateStyle, TNumberDisplay, TPlaceholder, TPlaceholderType, TValueFormat } from './placeholders.ts';

// How a filled-in value is printed: by its placeholder's type, or by the value format its tag asks for.

export const DEFAULT_LOCALE = 'en-US';

/*
 * Intl constructors cost tens of microseconds each and a bulk job formats thousands of values,
 * so formatters are kept per locale. The map is bounded because the locale can come from input.
 */
const formatterCache = new Map<string, { date: Intl.DateTimeFormat; number: Map<number, Intl.NumberFormat> }>();

function formattersFor(locale: string) {
  let entry = formatterCache.get(locale);
  if (!entry) {
    let resolved = locale;
    try {
      new Intl.DateTimeFormat(locale);
    } catch {
      resolved = DEFAULT_LOCALE;
    }
    // UTC: a date-only value is a calendar day, not an instant, and must not shift with the
    // server's time zone (which would also break deterministic output).
    entry = { date: new Intl.DateTimeFormat(resolved, { dateStyle: 'long', timeZone: 'UTC' }), number: new Map() };
    if (formatterCache.size >= 32) formatterCache.clear();
    formatterCache.set(locale, entry);
  }
  return entry;
}

const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const PLAIN_NUMBER_RE = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** `2025-03-05` -> "March 5, 2025" (en-US); anything that is not an ISO date is returned as typed. */
export function formatDateValue(value: string, locale: string = DEFAULT_LOCALE): string {
  const m = ISO_DATE_RE.exec(value.trim());
  if (!m) return value;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return value;
  const t = Date.UTC(y, mo - 1, d);
  const check = new Date(t);
  // Date.UTC rolls 2025-02-30 over to March; such input is shown as typed rather than silently changed.
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return value;
  return formattersFor(locale).date.format(t);
}

/** `1234567.5` -> "1,234,567.5" (en-US), keeping the decimals as typed; anything else as typed. */
export function formatNumberValue(value: string, locale: string = DEFAULT_LOCALE): string {
  const trimmed = value.trim();
  const m = PLAIN_NUMBER_RE.exec(trimmed);
  if (!m) return value;
  const intDigits = (m[2] ?? '').replace(/^0+(?=\d)/, '');
  const decimals = m[3]?.length ?? 0;
  // Beyond 15 significant digits a double would change the number; printing it as typed is safer.
  if (intDigits.length + decimals > 15 || decimals > 20) return value;
  const key = `N${locale}\u0000${trimmed}`;
  const known = printedNumbers.get(key);
  if (known !== undefined) return known;
  const entry = formattersFor(locale);
  let nf = entry.number.get(decimals);
  if (!nf) {
    let resolved = locale;
    try {
      new Intl.NumberFormat(locale);
    } catch {
      resolved = DEFAULT_LOCALE;
    }
    nf = new Intl.NumberFormat(resolved, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    entry.number.set(decimals, nf);
  }
  return remember(key, nf.format(Number(trimmed)));
}

/**
 * Printed numbers by formatter, locale and value. Intl's format costs about a microsecond a call
 * and a document prints the same quantities and prices over and over; bounded like the formatters.
 */
const printedNumbers = new Map<string, string>();

function remember(key: string, printed: string): string {
  if (printedNumbers.size >= 4096) printedNumbers.clear();
  printedNumbers.set(key, printed);
  return printed;
}

/** The text printed for a value of the given placeholder type. */
export function formatPlaceholderValue(value: string, type: TPlaceholderType, locale: string = DEFAULT_LOCALE): string {
  switch (type) {
    case 'date':
      return formatDateValue(value, locale);
    case 'number':
      return formatNumberValue(value, locale);
    default:
      return value;
  }
}

/** Printed for a ticked and an unticked checkbox unless the placeholder names words of its own. */
export const CHECKED_MARK = '\u2611';
export const UNCHECKED_MARK = '\u2610';
/** Places a `decimal` display prints when it names none. */
export const DEFAULT_DISPLAY_DECIMALS = 2;
/** The currency `{{x | currency}}` uses when a format names none. */
export const DEFAULT_CURRENCY = 'USD';

const TICKED = new Set(['true', 'yes', 'y', '1', 'x', 'on', 'checked', '\u2611', '\u2713', '\u2714']);
const UNTICKED = new Set(['', 'false', 'no', 'n', '0', 'off', 'unchecked', '\u2610']);

/** `'true'` or `'false'` for what a person or a spreadsheet writes for yes or no, or undefined when it is neither. */
export function checkboxValue(raw: string | boolean | number): 'true' | 'false' | undefined {
  if (typeof raw === 'boolean') return raw ? 'true' : 'false';
  const text = String(raw).trim().toLowerCase();
  if (TICKED.has(text)) return 'true';
  if (UNTICKED.has(text)) return 'false';
  return undefined;
}

export const isTicked = (value: string | undefined) => value !== undefined && checkboxValue(value) === 'true';

/** Formatters that take an option beyond the locale (a currency, a number of decimals, a date style), bounded like the others. */
const optionFormatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function optionFormatter<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: (locale: string) => T, locale: string): T {
  const cacheKey = `${locale}\u0000${key}`;
  let f = optionFormatters.get(cacheKey) as T | undefined;
  if (!f) {
    try {
      f = make(locale);
    } catch {
      try {
        f = make(DEFAULT_LOCALE);
      } catch {
        return make(DEFAULT_LOCALE);
      }
    }
    if (optionFormatters.size >= 256) optionFormatters.clear();
    optionFormatters.set(cacheKey, f);
  }
  return f;
}

/*
 * Money and fixed decimals are formatted from the decimal text itself: Intl reads a numeric string
 * exactly and rounds it half away from zero ("halfExpand"), so 0.1 + 0.2 computed as 0.3 prints
 * 0.30 and 1.005 prints 1.01, never a double's 1.00. `signDisplay: 'negative'` keeps "-0.001"
 * from printing as "-$0.00".
 */
const PLAIN_TEXT_NUMBER_RE = /^[+-]?\d{1,40}(\.\d{1,40})?$/;

/** `1234.5` -> "1,234.50" with `decimals` 2, rounded half away from zero on the decimal digits themselves. */
export function formatFixedNumber(value: string, decimals: number, locale: string = DEFAULT_LOCALE): string {
  const text = value.trim();
  if (!PLAIN_TEXT_NUMBER_RE.test(text)) return value;
  const key = `n${decimals}\u0000${locale}\u0000${text}`;
  const known = printedNumbers.get(key);
  if (known !== undefined) return known;
  const nf = optionFormatter(
    `n${decimals}`,
    (l) => new Intl.NumberFormat(l, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, signDisplay: 'negative' }),
    locale,
  );
  return remember(key, nf.format(text as unknown as number));
}

/**
 * `1234.5` -> "$1,234.50" (en-US, USD): the currency's own decimals unless `decimals` names others,
 * rounded half away from zero.
 */
export function formatCurrencyValue(value: string, currency: string = DEFAULT_CURRENCY, locale: string = DEFAULT_LOCALE, decimals?: number): string {
  const text = value.trim();
  if (!PLAIN_TEXT_NUMBER_RE.test(text)) return value;
  const key = `c${currency}${decimals ?? ''}\u0000${locale}\u0000${text}`;
  const known = printedNumbers.get(key);
  if (known !== undefined) return known;
  return remember(key, currencyFormatter(currency, locale, decimals).format(text as unknown as number));
}

/** The one currency formatter for a code, locale and (optionally) a number of places; an unknown code is the default currency. */
export function currencyFormatter(currency: string, locale: string = DEFAULT_LOCALE, decimals?: number): Intl.NumberFormat {
  const code = /^[A-Z]{3}$/.test(currency) ? currency : DEFAULT_CURRENCY;
  const places = decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  return optionFormatter(
    `c${code}${decimals ?? ''}`,
    (l) => new Intl.NumberFormat(l, { style: 'currency', currency: code, signDisplay: 'negative', ...places }),
    locale,
  ) as Intl.NumberFormat;
}

/**
 * `12.5` -> "12.5%" (en-US), "12,5 %" (de-DE): the value is the percent itself, as people type it,
 * never multiplied by 100. Decimals as typed unless `decimals` names a number of places.
 */
export function formatPercentValue(value: string, locale: string = DEFAULT_LOCALE, decimals?: number): string {
  const text = value.trim();
  if (!PLAIN_TEXT_NUMBER_RE.test(text)) return value;
  const places = decimals ?? Math.min(text.split('.')[1]?.length ?? 0, 20);
  const key = `p${places}\u0000${locale}\u0000${text}`;
  const known = printedNumbers.get(key);
  if (known !== undefined) return known;
  return remember(key, percentFormatter(locale, places).format(text as unknown as number));
}

/** Intl's `percent` unit, not its `percent` style: the style would multiply the value by 100. */
export function percentFormatter(locale: string = DEFAULT_LOCALE, decimals = 0): Intl.NumberFormat {
  return optionFormatter(
    `p${decimals}`,
    (l) =>
      new Intl.NumberFormat(l, { style: 'unit', unit: 'percent', minimumFractionDigits: decimals, maximumFractionDigits: decimals, signDisplay: 'negative' }),
    locale,
  ) as Intl.NumberFormat;
}

/** The value printed by a number's or a formula's display (see NUMBER_DISPLAYS). */
export function formatDisplayedNumber(value: string, display: TNumberDisplay, decimals: number | undefined, settings: TPrintSettings): string {
  switch (display) {
    case 'plain':
      return formatNumberValue(value, settings.locale);
    case 'decimal':
      return formatFixedNumber(value, decimals ?? DEFAULT_DISPLAY_DECIMALS, settings.locale);
    case 'currency':
      return formatCurrencyValue(value, settings.currency, settings.locale, decimals);
    case 'percent':
      return formatPercentValue(value, settings.locale, decimals);
  }
}

/**
 * What the form shows beside a number's input for its display: the currency's symbol and which side
 * of the number it goes ("$" before in en-US, "€" after in de-DE), or the percent sign. Nothing for
 * plain and decimal.
 */
export function displayAdornment(display: TNumberDisplay | undefined, settings: TPrintSettings): { text: string; side: 'start' | 'end' } | undefined {
  if (display !== 'currency' && display !== 'percent') return undefined;
  const parts = (display === 'currency' ? currencyFormatter(settings.currency, settings.locale) : percentFormatter(settings.locale)).formatToParts(1);
  const sign = parts.findIndex((p) => p.type === (display === 'currency' ? 'currency' : 'unit'));
  const number = parts.findIndex((p) => p.type === 'integer');
  if (sign < 0) return undefined;
  return { text: parts[sign]!.value, side: sign < number ? 'start' : 'end' };
}

/** An ISO date in one of Intl's date styles (`long` is what a date placeholder prints by default). */
export function formatDateStyle(value: string, style: TDateStyle, locale: string = DEFAULT_LOCALE): string {
  if (style === 'long') return formatDateValue(value, locale);
  const m = ISO_DATE_RE.exec(value.trim());
  if (!m) return value;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const check = new Date(t);
  if (mo < 1 || mo > 12 || check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return value;
  return optionFormatter(`d${style}`, (l) => new Intl.DateTimeFormat(l, { dateStyle: style, timeZone: 'UTC' }), locale).format(t);
}

/** What a placeholder (or a list column) prints with: its type, for a checkbox its words, for a number or a formula its display. */
export type TPrintable = Pick<TPlaceholder, 'type' | 'checkedText' | 'uncheckedText'> & Partial<Pick<TPlaceholder, 'display' | 'decimals'>>;
export interface TPrintSettings {
  locale: string;
  /** ISO 4217 code for `| currency`. */
  currency: string;
}

/**
 * The text printed for a value: by the tag's value format when it has one, else by the
 * placeholder's display (a number's or a formula's), else by its type. For the types that existed before formats, this is formatPlaceholderValue.
 */
export function printValue(value: string, printable: TPrintable, settings: TPrintSettings, format?: TValueFormat): string {
  if (format) {
    switch (format.kind) {
      case 'currency':
        return formatCurrencyValue(value, format.currency ?? settings.currency, settings.locale);
      case 'number':
        return format.decimals === undefined ? formatNumberValue(value, settings.locale) : formatFixedNumber(value, format.decimals, settings.locale);
      case 'date':
        return formatDateStyle(value, format.style, settings.locale);
    }
  }
  switch (printable.type) {
    case 'checkbox':
      return isTicked(value) ? (printable.checkedText ?? CHECKED_MARK) : (printable.uncheckedText ?? UNCHECKED_MARK);
    case 'formula':
      if (value === 'true' || value === 'false') return value === 'true' ? CHECKED_MARK : UNCHECKED_MARK;
      return printable.display ? formatDisplayedNumber(value, printable.display, printable.decimals, settings) : formatNumberValue(value, settings.locale);
    case 'number':
      if (printable.display) return formatDisplayedNumber(value, printable.display, printable.decimals, settings);
      return formatPlaceholderValue(value, printable.type, settings.locale);
    default:
      return formatPlaceholderValue(value, printable.type, settings.locale);
  }
}
