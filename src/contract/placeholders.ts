import { z } from 'zod';

/*
 * Placeholders: the named blanks of a format, referenced in any text as `{{name}}`.
 * Shared by the web app and the server (and the renderer), so nothing here may use Node APIs.
 */

export const PLACEHOLDER_TYPES = ['text', 'email', 'number', 'date', 'tel', 'textarea', 'select', 'checkbox', 'list', 'formula'] as const;
export const ZPlaceholderType = z.enum(PLACEHOLDER_TYPES);
export type TPlaceholderType = z.infer<typeof ZPlaceholderType>;
/** What a column of a list may be: anything but another list. */
export const COLUMN_TYPES = ['text', 'email', 'number', 'date', 'tel', 'textarea', 'select', 'checkbox', 'formula'] as const satisfies readonly TPlaceholderType[];
export const ZColumnType = z.enum(COLUMN_TYPES);
export type TColumnType = z.infer<typeof ZColumnType>;

/** A placeholder type as people read it (a spreadsheet column's expected content). */
export const PLACEHOLDER_TYPE_NAMES: Record<TPlaceholderType, string> = {
  text: 'text',
  email: 'email',
  number: 'number',
  date: 'date',
  tel: 'phone',
  textarea: 'long text',
  select: 'choice',
  checkbox: 'yes or no',
  list: 'list of rows',
  formula: 'computed',
};

export const MAX_PLACEHOLDER_NAME_LENGTH = 64;
export const MAX_PLACEHOLDERS = 200;
export const MAX_PLACEHOLDER_OPTIONS = 200;
/** Longest value a caller may fill a placeholder with; the API should reject longer ones. */
export const MAX_PLACEHOLDER_VALUE_LENGTH = 10_000;
/** Rows one list placeholder may hold, whatever its own maxItems says. */
export const MAX_LIST_ROWS = 1_000;
export const MAX_LIST_COLUMNS = 20;
export const MAX_FORMULA_LENGTH = 500;
/** Formulas one format may hold, list columns included: bounds the work of computing a document. */
export const MAX_FORMULAS = 50;
export const MAX_CHECKBOX_TEXT_LENGTH = 60;

/** Lowercases and turns every run of whitespace into one underscore (docs/decisions.md). */
export function normalizePlaceholderName(name: string): string {
  // Most names arrive normalised already (every key of every row of a list): no work for them.
  if (NORMALISED_NAME_RE.test(name)) return name;
  return name.trim().toLowerCase().replace(/\s+/g, '_');
}
const NORMALISED_NAME_RE = /^[a-z0-9_.]+$/;

/** The name with underscores as spaces, first letter capitalised (docs/decisions.md). */
export function defaultPlaceholderLabel(name: string): string {
  const spaced = name.replace(/_+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/*
 * Braces would make the tag ambiguous and `*` is inline emphasis syntax in paragraphs, which
 * could split a tag in two, so names may not contain them.
 */
const PLACEHOLDER_NAME_RE = /^[^\s{}*]+$/;

export const ZPlaceholderName = z
  .string()
  .overwrite(normalizePlaceholderName)
  .min(1, 'Enter a placeholder name.')
  .max(MAX_PLACEHOLDER_NAME_LENGTH)
  .regex(PLACEHOLDER_NAME_RE, 'A placeholder name cannot contain braces or asterisks.');

const ZOptions = z
  .array(z.string().trim().max(200))
  .max(MAX_PLACEHOLDER_OPTIONS)
  .default([])
  .overwrite((options) => options.filter((o) => o.length > 0));

/**
 * What a checkbox and a formula add to a placeholder (and to a list's column). All optional, so
 * every placeholder stored before they existed still parses as it did.
 */
const logicFields = {
  /** For `formula`: what it computes, e.g. `qty * price` or `round(subtotal * 0.18, 2)` (see formulas.ts). */
  expression: z.string().max(MAX_FORMULA_LENGTH).optional(),
  /** For `checkbox`: printed when ticked; default ☑. */
  checkedText: z.string().max(MAX_CHECKBOX_TEXT_LENGTH).optional(),
  /** For `checkbox`: printed when not ticked; default ☐. */
  uncheckedText: z.string().max(MAX_CHECKBOX_TEXT_LENGTH).optional(),
};

/** One column of a list placeholder: a placeholder definition of its own, filled once per row. */
export const ZListColumn = z.object({
  name: ZPlaceholderName,
  label: z.string().trim().max(200).optional(),
  type: ZColumnType.default('text'),
  required: z.boolean().default(false),
  options: ZOptions,
  ...logicFields,
});
export type TListColumn = z.infer<typeof ZListColumn>;
export type TListColumnInput = z.input<typeof ZListColumn>;

export const ZPlaceholder = z.object({
  name: ZPlaceholderName,
  label: z.string().trim().max(200).optional(),
  type: ZPlaceholderType.default('text'),
  required: z.boolean().default(false),
  /** For `select`: the choices. Blank entries are dropped. */
  options: ZOptions,
  ...logicFields,
  /** For `list`: the columns of each row; the value is an array of objects keyed by column name. */
  columns: z
    .array(ZListColumn)
    .max(MAX_LIST_COLUMNS)
    .refine((list) => new Set(list.map((c) => c.name)).size === list.length, { message: 'Column names must be unique.' })
    .optional(),
  /** For `list`: fewest and most rows a document may have (never more than MAX_LIST_ROWS). */
  minItems: z.number().int().min(0).max(MAX_LIST_ROWS).optional(),
  maxItems: z.number().int().min(1).max(MAX_LIST_ROWS).optional(),
});
export type TPlaceholder = z.infer<typeof ZPlaceholder>;
export type TPlaceholderInput = z.input<typeof ZPlaceholder>;

export const ZPlaceholderList = z
  .array(ZPlaceholder)
  .max(MAX_PLACEHOLDERS)
  .refine((list) => new Set(list.map((p) => p.name)).size === list.length, {
    message: 'Placeholder names must be unique.',
  });

/** The label shown for a placeholder: its own, or the one derived from its name. */
export function placeholderLabel(p: Pick<TPlaceholder, 'name' | 'label'>): string {
  return p.label && p.label.length > 0 ? p.label : defaultPlaceholderLabel(p.name);
}

/*
 * A tag is `{{` + up to 100 non-brace characters + `}}`. The inside is normalised the same way
 * as names, so `{{Client Name}}` and `{{ client_name }}` both find `client_name`: authors type
 * these by hand and a near miss would otherwise print nothing.
 *
 * A tag may end in a value format after a bar: `{{total | currency}}`, `{{start | date:long}}`,
 * `{{qty | number:0}}` (see VALUE_FORMATS). Only a known format counts as one; anything else after
 * a bar stays part of the name, as it was before formats existed.
 */
const TAG_RE = /\{\{([^{}]{1,100})\}\}/g;

export const VALUE_FORMATS = ['currency', 'number', 'date'] as const;
export const DATE_STYLES = ['short', 'medium', 'long', 'full'] as const;
export type TDateStyle = (typeof DATE_STYLES)[number];
/** How a tag asks for its value to be printed. */
export type TValueFormat =
  | { kind: 'currency'; /** ISO 4217 code; else the format's currency. */ currency?: string }
  | { kind: 'number'; /** Exactly this many decimals, rounded half away from zero; else as typed. */ decimals?: number }
  | { kind: 'date'; style: TDateStyle };

const FORMAT_SUFFIX_RE = /^(.*?)\s*\|\s*(currency|number|date)\s*(?::\s*([A-Za-z0-9]{1,8})\s*)?$/i;

/** The value format a tag's text after the bar names, or undefined when it names none. */
export function parseValueFormat(kind: string, arg: string | undefined): TValueFormat | undefined {
  switch (kind.toLowerCase()) {
    case 'currency':
      if (arg === undefined) return { kind: 'currency' };
      return /^[A-Za-z]{3}$/.test(arg) ? { kind: 'currency', currency: arg.toUpperCase() } : undefined;
    case 'number': {
      if (arg === undefined) return { kind: 'number' };
      return /^\d{1,2}$/.test(arg) && Number(arg) <= 10 ? { kind: 'number', decimals: Number(arg) } : undefined;
    }
    case 'date': {
      const style = (arg ?? 'long').toLowerCase();
      return (DATE_STYLES as readonly string[]).includes(style) ? { kind: 'date', style: style as TDateStyle } : undefined;
    }
    default:
      return undefined;
  }
}

export interface TPlaceholderTag {
  /** The normalised placeholder name (without its value format). */
  name: string;
  /** Offset of the first `{` in the text. */
  start: number;
  /** Offset just past the closing `}}`. */
  end: number;
  /** The value format after the bar, when the tag has one. */
  format?: TValueFormat;
  /** With a format: the whole inside normalised, which is the name such a tag had before formats existed. */
  whole?: string;
  /** With a format: the tag's text from the bar on (` | currency`), kept when the name is renamed. */
  suffix?: string;
}

function readTag(inner: string, start: number, end: number): TPlaceholderTag | undefined {
  const m = inner.includes('|') ? FORMAT_SUFFIX_RE.exec(inner) : null;
  const format = m ? parseValueFormat(m[2] ?? '', m[3]) : undefined;
  if (m && format) {
    const name = normalizePlaceholderName(m[1] ?? '');
    if (name.length > 0) {
      return { name, start, end, format, whole: normalizePlaceholderName(inner), suffix: inner.slice((m[1] ?? '').length) };
    }
  }
  const name = normalizePlaceholderName(inner);
  return name.length === 0 ? undefined : { name, start, end };
}

/** Every `{{name}}` tag in `text`, in order. */
export function findPlaceholderTags(text: string): TPlaceholderTag[] {
  const tags: TPlaceholderTag[] = [];
  if (!text.includes('{{')) return tags;
  for (const m of text.matchAll(TAG_RE)) {
    const tag = readTag(m[1] ?? '', m.index, m.index + m[0].length);
    if (tag) tags.push(tag);
  }
  return tags;
}

/** `text` with every tag naming `from` written as `{{to}}` (a placeholder's rename), its value format kept; other text untouched. */
export function renamePlaceholderTags(text: string, from: string, to: string): string {
  let out = '';
  let at = 0;
  for (const tag of findPlaceholderTags(text)) {
    if (tag.name !== from) continue;
    out += `${text.slice(at, tag.start)}{{${to}${tag.suffix ?? ''}}}`;
    at = tag.end;
  }
  return at === 0 ? text : out + text.slice(at);
}

/**
 * The type a new placeholder most likely has, from its name: `start_date` is a date,
 * `client_email` an email, `salary` or `total_amount` a number. Anything else is text.
 */
export function guessPlaceholderType(name: string): TPlaceholderType {
  const words = normalizePlaceholderName(name).split(/[_\W]+/).filter(Boolean);
  const has = (...candidates: string[]) => words.some((w) => candidates.includes(w));
  if (has('date', 'dob', 'birthday', 'deadline', 'day')) return 'date';
  if (has('email', 'mail')) return 'email';
  if (has('phone', 'tel', 'telephone', 'mobile', 'cell', 'fax')) return 'tel';
  if (has('amount', 'price', 'salary', 'total', 'subtotal', 'cost', 'fee', 'fees', 'rent', 'deposit', 'tax', 'quantity', 'qty', 'rate', 'hours', 'count', 'number', 'budget', 'balance', 'wage', 'pay'))
    return 'number';
  if (has('address', 'notes', 'note', 'description', 'comments', 'details', 'message', 'terms')) return 'textarea';
  return 'text';
}

/** The distinct placeholder names referenced in `text`, in order of first use. */
export function findPlaceholderNames(text: string): string[] {
  return [...new Set(findPlaceholderTags(text).map((t) => t.name))];
}

/**
 * Replaces every tag in one pass. Values are inserted literally: a value that itself contains
 * `{{x}}` is never substituted again. A tag with no value becomes empty text, never the raw tag.
 * `resolve` may return undefined to mean "no value". A tag with a value format is looked up by
 * its whole text first (its name before formats existed), then by its name.
 */
export function substitutePlaceholders(text: string, resolve: (name: string) => string | undefined): string {
  return substituteTags(text, (tag) => (tag.whole !== undefined ? resolve(tag.whole) : undefined) ?? resolve(tag.name));
}

/** A text split at its tags once: `literals[i]`, then `tags[i]`, …, then the last literal. */
interface TCompiledText {
  literals: string[];
  tags: TPlaceholderTag[];
}

/*
 * A document fills the same texts again and again (a repeating row once per line, a bulk job
 * once per row), so each text is split at its tags once. The tags are the same objects every
 * time, which lets a caller keep what it worked out for one. Bounded, as texts come from input.
 */
const compiledTexts = new Map<string, TCompiledText>();

function compileText(text: string): TCompiledText {
  let compiled = compiledTexts.get(text);
  if (compiled) return compiled;
  compiled = { literals: [], tags: [] };
  let at = 0;
  let literal = '';
  for (const m of text.matchAll(TAG_RE)) {
    const tag = readTag(m[1] ?? '', m.index, m.index + m[0].length);
    literal += text.slice(at, m.index);
    at = m.index + m[0].length;
    // A tag with no name stays as typed, part of the text around it.
    if (!tag) {
      literal += m[0];
      continue;
    }
    compiled.literals.push(literal);
    compiled.tags.push(tag);
    literal = '';
  }
  compiled.literals.push(literal + text.slice(at));
  if (compiledTexts.size >= 4_000) compiledTexts.clear();
  compiledTexts.set(text, compiled);
  return compiled;
}

/** Like substitutePlaceholders, with the whole tag (its value format included) handed to `resolve`. */
export function substituteTags(text: string, resolve: (tag: TPlaceholderTag) => string | undefined): string {
  if (!text.includes('{{')) return text;
  const { literals, tags } = compileText(text);
  let out = literals[0]!;
  for (let i = 0; i < tags.length; i++) out += (resolve(tags[i]!) ?? '') + literals[i + 1]!;
  return out;
}

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
export function formatPlaceholderValue(
  value: string,
  type: TPlaceholderType,
  locale: string = DEFAULT_LOCALE,
): string {
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
  const nf = optionFormatter(`n${decimals}`, (l) => new Intl.NumberFormat(l, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, signDisplay: 'negative' }), locale);
  return remember(key, nf.format(text as unknown as number));
}

/** `1234.5` -> "$1,234.50" (en-US, USD): the currency's own decimals, rounded half away from zero. */
export function formatCurrencyValue(value: string, currency: string = DEFAULT_CURRENCY, locale: string = DEFAULT_LOCALE): string {
  const text = value.trim();
  if (!PLAIN_TEXT_NUMBER_RE.test(text)) return value;
  const code = /^[A-Z]{3}$/.test(currency) ? currency : DEFAULT_CURRENCY;
  const key = `c${code}\u0000${locale}\u0000${text}`;
  const known = printedNumbers.get(key);
  if (known !== undefined) return known;
  const nf = optionFormatter(`c${code}`, (l) => new Intl.NumberFormat(l, { style: 'currency', currency: code, signDisplay: 'negative' }), locale) as Intl.NumberFormat;
  return remember(key, nf.format(text as unknown as number));
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

/** What a placeholder (or a list column) prints with: its type and, for a checkbox, its words. */
export type TPrintable = Pick<TPlaceholder, 'type' | 'checkedText' | 'uncheckedText'>;
export interface TPrintSettings {
  locale: string;
  /** ISO 4217 code for `| currency`. */
  currency: string;
}

/**
 * The text printed for a value: by the tag's value format when it has one, else by the
 * placeholder's type. For the types that existed before formats, this is formatPlaceholderValue.
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
      return formatNumberValue(value, settings.locale);
    default:
      return formatPlaceholderValue(value, printable.type, settings.locale);
  }
}
