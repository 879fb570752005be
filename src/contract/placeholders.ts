import { z } from 'zod';

/*
 * Placeholders: the named blanks of a format, referenced in any text as `{{name}}`.
 * Shared by the web app and the server (and the renderer), so nothing here may use Node APIs.
 */

export const PLACEHOLDER_TYPES = ['text', 'email', 'number', 'date', 'tel', 'textarea', 'select'] as const;
export const ZPlaceholderType = z.enum(PLACEHOLDER_TYPES);
export type TPlaceholderType = z.infer<typeof ZPlaceholderType>;

/** A placeholder type as people read it (a spreadsheet column's expected content). */
export const PLACEHOLDER_TYPE_NAMES: Record<TPlaceholderType, string> = {
  text: 'text',
  email: 'email',
  number: 'number',
  date: 'date',
  tel: 'phone',
  textarea: 'long text',
  select: 'choice',
};

export const MAX_PLACEHOLDER_NAME_LENGTH = 64;
export const MAX_PLACEHOLDERS = 200;
export const MAX_PLACEHOLDER_OPTIONS = 200;
/** Longest value a caller may fill a placeholder with; the API should reject longer ones. */
export const MAX_PLACEHOLDER_VALUE_LENGTH = 10_000;

/** Lowercases and turns every run of whitespace into one underscore (docs/decisions.md). */
export function normalizePlaceholderName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '_');
}

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

export const ZPlaceholder = z.object({
  name: ZPlaceholderName,
  label: z.string().trim().max(200).optional(),
  type: ZPlaceholderType.default('text'),
  required: z.boolean().default(false),
  /** For `select`: the choices. Blank entries are dropped. */
  options: z
    .array(z.string().trim().max(200))
    .max(MAX_PLACEHOLDER_OPTIONS)
    .default([])
    .overwrite((options) => options.filter((o) => o.length > 0)),
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
 */
const TAG_RE = /\{\{([^{}]{1,100})\}\}/g;

export interface TPlaceholderTag {
  /** The normalised placeholder name. */
  name: string;
  /** Offset of the first `{` in the text. */
  start: number;
  /** Offset just past the closing `}}`. */
  end: number;
}

/** Every `{{name}}` tag in `text`, in order. */
export function findPlaceholderTags(text: string): TPlaceholderTag[] {
  const tags: TPlaceholderTag[] = [];
  for (const m of text.matchAll(TAG_RE)) {
    const name = normalizePlaceholderName(m[1] ?? '');
    if (name.length === 0) continue;
    tags.push({ name, start: m.index, end: m.index + m[0].length });
  }
  return tags;
}

/** `text` with every tag naming `from` written as `{{to}}` (a placeholder's rename); other text untouched. */
export function renamePlaceholderTags(text: string, from: string, to: string): string {
  let out = '';
  let at = 0;
  for (const tag of findPlaceholderTags(text)) {
    if (tag.name !== from) continue;
    out += `${text.slice(at, tag.start)}{{${to}}}`;
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
 * `resolve` may return undefined to mean "no value".
 */
export function substitutePlaceholders(text: string, resolve: (name: string) => string | undefined): string {
  if (!text.includes('{{')) return text;
  return text.replace(TAG_RE, (whole, inner: string) => {
    const name = normalizePlaceholderName(inner);
    if (name.length === 0) return whole;
    return resolve(name) ?? '';
  });
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
  return nf.format(Number(trimmed));
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
