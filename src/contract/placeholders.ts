import { z } from 'zod';

export { defaultPlaceholderLabel, placeholderLabel } from './placeholder-labels.ts';

/*
 * Placeholders: the named blanks of a format, referenced in any text as `{{name}}`.
 * Shared by the web app and the server (and the renderer), so nothing here may use Node APIs.
 */

/** Filled in by a signer when the document is signed, never by the person generating it (docs/e-signing.md). */
export const SIGNING_PLACEHOLDER_TYPES = ['signature', 'initials', 'signed_date', 'signer_name'] as const;
export type TSigningPlaceholderType = (typeof SIGNING_PLACEHOLDER_TYPES)[number];
export const PLACEHOLDER_TYPES = [
  'text',
  'email',
  'number',
  'date',
  'tel',
  'textarea',
  'select',
  'checkbox',
  'list',
  'formula',
  ...SIGNING_PLACEHOLDER_TYPES,
] as const;
export const ZPlaceholderType = z.enum(PLACEHOLDER_TYPES);
export type TPlaceholderType = z.infer<typeof ZPlaceholderType>;
/** Signer roles run from Signer 1 to Signer 10. */
export const MAX_SIGNER_ROLE = 10;
/** What a column of a list may be: anything but another list. */
export const COLUMN_TYPES = [
  'text',
  'email',
  'number',
  'date',
  'tel',
  'textarea',
  'select',
  'checkbox',
  'formula',
] as const satisfies readonly TPlaceholderType[];
export const ZColumnType = z.enum(COLUMN_TYPES, {
  error: (issue) =>
    typeof issue.input === 'string' && (SIGNING_PLACEHOLDER_TYPES as readonly string[]).includes(issue.input)
      ? 'A list column cannot be a signing field: signers sign the document once, not once per row.'
      : undefined,
});
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
  signature: 'signature',
  initials: 'initials',
  signed_date: 'date signed',
  signer_name: "signer's name",
};

const SIGNING_TYPES = new Set<string>(SIGNING_PLACEHOLDER_TYPES);

/** True for a placeholder a signer fills in when signing: it has a `signer` role and no form field. */
export function isSigningPlaceholder<P extends { type: string }>(p: P): p is P & { type: TSigningPlaceholderType; signer: number } {
  return SIGNING_TYPES.has(p.type);
}

/** The signer roles a format's signing placeholders use, sorted, each once. */
export function signerRoles(placeholders: readonly { type: string; signer?: number | undefined }[]): number[] {
  const roles = new Set<number>();
  for (const p of placeholders) if (isSigningPlaceholder(p)) roles.add(p.signer ?? 1);
  return [...roles].sort((a, b) => a - b);
}

/** "Signer 2". */
export const signerLabel = (role: number): string => `Signer ${role}`;

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
 * How a number or a formula prints when its tag names no value format: `plain` as typed with the
 * locale's grouping (what a number printed before displays existed), `decimal` with a fixed number
 * of places, `currency` in the format's currency, `percent` with the locale's percent sign. A
 * percent is the number people type: 12.5 prints "12.5%" (never 1,250%), so `tax_rate` stays 12.5
 * and a formula divides it by 100 itself.
 */
export const NUMBER_DISPLAYS = ['plain', 'decimal', 'currency', 'percent'] as const;
export const ZNumberDisplay = z.enum(NUMBER_DISPLAYS);
export type TNumberDisplay = z.infer<typeof ZNumberDisplay>;
export const MAX_DISPLAY_DECIMALS = 10;
/** The types a display applies to. */
export const DISPLAY_TYPES: readonly TPlaceholderType[] = ['number', 'formula'];

/**
 * What a checkbox and a formula add to a placeholder (and to a list's column). All optional, so
 * every placeholder stored before they existed still parses as it did.
 */
const logicFields = {
  display: ZNumberDisplay.optional().describe(
    'For `number` and `formula`: how the value prints when its tag has no `| format`. `plain` (the default) prints it as typed with ' +
      "the locale's digit grouping; `decimal` with `decimals` places (2 when not given); `currency` in the format's currency and locale " +
      "(`decimals` overrides the currency's own places); `percent` adds the locale's percent sign to the value as given, so 12.5 prints 12.5%.",
  ),
  decimals: z
    .number()
    .int()
    .min(0)
    .max(MAX_DISPLAY_DECIMALS)
    .optional()
    .describe('With a `decimal`, `currency` or `percent` display: exactly this many decimal places, rounded half away from zero.'),
  /** For `formula`: what it computes, e.g. `qty * price` or `round(subtotal * 0.18, 2)` (see formulas.ts). */
  expression: z.string().max(MAX_FORMULA_LENGTH).optional(),
  /** For `checkbox`: printed when ticked; default ☑. */
  checkedText: z.string().max(MAX_CHECKBOX_TEXT_LENGTH).optional(),
  /** For `checkbox`: printed when not ticked; default ☐. */
  uncheckedText: z.string().max(MAX_CHECKBOX_TEXT_LENGTH).optional(),
};

/** A display only where it means something: on a number or a formula, and places only with a display that has them. */
function refuseMisplacedDisplay(
  p: { name: string; type: TPlaceholderType; display?: TNumberDisplay | undefined; decimals?: number | undefined },
  ctx: z.RefinementCtx,
): void {
  if (p.display !== undefined && !DISPLAY_TYPES.includes(p.type)) {
    ctx.addIssue({ code: 'custom', path: ['display'], message: `${p.name}: only number and formula placeholders have a display.` });
  } else if (p.decimals !== undefined && (p.display === undefined || p.display === 'plain')) {
    ctx.addIssue({ code: 'custom', path: ['decimals'], message: `${p.name}: decimal places need a decimal, currency or percent display.` });
  }
}

/** One column of a list placeholder: a placeholder definition of its own, filled once per row. */
export const ZListColumn = z
  .object({
    name: ZPlaceholderName,
    label: z.string().trim().max(200).optional(),
    type: ZColumnType.default('text'),
    required: z.boolean().default(false),
    options: ZOptions,
    ...logicFields,
  })
  .superRefine((c, ctx) => refuseMisplacedDisplay(c, ctx));
export type TListColumn = z.infer<typeof ZListColumn>;

export const ZPlaceholder = z
  .object({
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
    /** For the signing types: which signer fills it in (1 is "Signer 1"); 1 when not given. */
    signer: z.number().int().min(1).max(MAX_SIGNER_ROLE).optional(),
  })
  .superRefine((p, ctx) => {
    const refuse = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    refuseMisplacedDisplay(p, ctx);
    if (!isSigningPlaceholder(p)) {
      if (p.signer !== undefined) refuse('signer', `${p.name}: only signature, initials, signed date and signer name placeholders have a signer.`);
      return;
    }
    const what = `${p.name} is filled in when ${signerLabel(p.signer ?? 1)} signs`;
    if (p.required) refuse('required', `${what}, so it cannot be required.`);
    if (p.options.length > 0) refuse('options', `${what}, so it has no options.`);
    if (p.expression !== undefined) refuse('expression', `${what}, so it has no formula.`);
    if (p.columns !== undefined) refuse('columns', `${what}, so it has no columns.`);
    if (p.minItems !== undefined || p.maxItems !== undefined) refuse('minItems', `${what}, so it has no rows.`);
    if (p.checkedText !== undefined || p.uncheckedText !== undefined) refuse('checkedText', `${what}, so it is not a checkbox.`);
  })
  // Only the signing types gain a role; every other placeholder parses as it did.
  .overwrite((p) => (isSigningPlaceholder(p) && p.signer === undefined ? { ...p, signer: 1 } : p));
export type TPlaceholder = z.infer<typeof ZPlaceholder>;
export type TPlaceholderInput = z.input<typeof ZPlaceholder>;

export const ZPlaceholderList = z
  .array(ZPlaceholder)
  .max(MAX_PLACEHOLDERS)
  .refine((list) => new Set(list.map((p) => p.name)).size === list.length, {
    message: 'Placeholder names must be unique.',
  });

/*
 * A tag is `{{` + up to 100 non-brace characters + `}}`. The inside is normalised the same way
 * as names, so `{{Client Name}}` and `{{ client_name }}` both find `client_name`: authors type
 * these by hand and a near miss would otherwise print nothing.
 *
 * A tag may end in a value format after a bar: `{{total | currency}}`, `{{start | date:long}}`,
 * `{{qty | number:0}}` (see TValueFormat). Only a known format counts as one; anything else after
 * a bar stays part of the name, as it was before formats existed.
 */
const TAG_RE = /\{\{([^{}]{1,100})\}\}/g;

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
  const words = normalizePlaceholderName(name)
    .split(/[_\W]+/)
    .filter(Boolean);
  const has = (...candidates: string[]) => words.some((w) => candidates.includes(w));
  if (has('date', 'dob', 'birthday', 'deadline', 'day')) return 'date';
  if (has('email', 'mail')) return 'email';
  if (has('phone', 'tel', 'telephone', 'mobile', 'cell', 'fax')) return 'tel';
  if (
    has(
      'amount',
      'price',
      'salary',
      'total',
      'subtotal',
      'cost',
      'fee',
      'fees',
      'rent',
      'deposit',
      'tax',
      'quantity',
      'qty',
      'rate',
      'hours',
      'count',
      'number',
      'budget',
      'balance',
      'wage',
      'pay',
      'percent',
      'percentage',
    )
  )
    return 'number';
  if (has('address', 'notes', 'note', 'description', 'comments', 'details', 'message', 'terms')) return 'textarea';
  return 'text';
}

/**
 * How a new number placeholder most likely prints, from its name: `total_amount` or `monthly_rent`
 * in money, `tax_rate`, `tax` or `discount_percent` as a percent, anything else plain. For a formula,
 * a bare `tax` is the amount it computes.
 */
export function guessNumberDisplay(name: string, type: TPlaceholderType = 'number'): TNumberDisplay {
  const words = normalizePlaceholderName(name)
    .split(/[_\W]+/)
    .filter(Boolean);
  const has = (candidates: readonly string[]) => words.some((w) => candidates.includes(w));
  // An hourly or a daily rate is money; `tax_amount` is money, a bare `tax` a rate.
  if (has(PERCENT_WORDS)) return has(PER_TIME_WORDS) ? 'currency' : 'percent';
  if (has(MONEY_WORDS)) return 'currency';
  // A tax someone types is its rate; a tax a formula computes is an amount.
  if (has(['tax'])) return type === 'formula' ? 'currency' : 'percent';
  return 'plain';
}
const MONEY_WORDS = ['amount', 'price', 'salary', 'total', 'subtotal', 'fee', 'fees', 'rent', 'cost', 'deposit', 'budget', 'balance', 'wage', 'pay'];
const PERCENT_WORDS = ['rate', 'percent', 'percentage', 'pct'];
const PER_TIME_WORDS = ['hourly', 'daily', 'weekly', 'monthly', 'day', 'hour'];

/**
 * A new placeholder's guessed type and, for a number, its guessed display: what the builder
 * creates for a name it has not seen.
 */
export function guessPlaceholder(name: string): { type: TPlaceholderType; display?: TNumberDisplay } {
  const type = guessPlaceholderType(name);
  if (type !== 'number') return { type };
  const display = guessNumberDisplay(name);
  return display === 'plain' ? { type } : { type, display };
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

// Printing values lives beside this file; importers of the placeholders keep one import.
export * from './placeholder-values.ts';
