import { z } from 'zod';
import { ZDocumentAccessibility } from './accessibility-check.ts';
import { FIRST_DAY, LAST_DAY, ZCalendarDay } from './dates.ts';
import { computeFormulas, hiddenPlaceholders, ZFilledValues, type TFilledValues, type TListRow } from './filled-values.ts';
import type { TFormatContent } from './format-content.ts';
import {
  checkboxValue,
  isSigningPlaceholder,
  MAX_LIST_ROWS,
  MAX_PLACEHOLDER_VALUE_LENGTH,
  placeholderLabel,
  signerLabel,
  substitutePlaceholders,
  type TListColumn,
  type TPlaceholder,
} from './placeholders.ts';

export const DEFAULT_CLIENT_NAME = 'Unknown Client';
/** Placeholders whose value names a document's client ("Offer letter - Jane Doe"). */
export const CLIENT_NAME_PLACEHOLDERS: readonly string[] = ['client_name', 'clientname'];

/** The client a row of placeholder values names, if any. */
export function clientNameOf(values: Readonly<Record<string, unknown>>): string | undefined {
  return CLIENT_NAME_PLACEHOLDERS.map((name) => values[name]).find((v): v is string => typeof v === 'string' && v !== '');
}
/** The longest a name's subject (a client, or the first text filled in) gets before it is cut. */
const MAX_SUBJECT_LENGTH = 80;

/** The placeholders a name may take its subject from, in the format's order. */
export type TNamePlaceholders = readonly Pick<TPlaceholder, 'name' | 'type'>[];

/**
 * Who or what a document is about, so its name tells it apart from the format's other documents:
 * the client it names, else the first text field filled in ("Jane Doe"). Long values are cut.
 */
export function nameSubjectOf(placeholders: TNamePlaceholders, values: Readonly<Record<string, unknown>>): string | undefined {
  const first = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const subject = first(clientNameOf(values)) || placeholders.map((p) => (p.type === 'text' ? first(values[p.name]) : '')).find((v) => v !== '') || undefined;
  return subject && subject.length > MAX_SUBJECT_LENGTH ? `${subject.slice(0, MAX_SUBJECT_LENGTH - 1).trimEnd()}…` : subject;
}

/** A document made one at a time: "Offer letter - Jane Doe - Nov 24, 2026", the subject left out when there is none. */
export function documentNameOf(formatName: string, subject: string | undefined, date: string): string {
  return subject ? `${formatName} - ${subject} - ${date}` : `${formatName} - ${date}`;
}
/** The tag a document-name pattern takes the document's date from. */
export const DATE_TAG = 'date';

const SEPARATORS = '-–—|:,·/';
const separatorRuns = new RegExp(`([${SEPARATORS}])(\\s*[${SEPARATORS}])+`, 'g');
const edgeSeparators = new RegExp(`^[\\s${SEPARATORS}]+|[\\s${SEPARATORS}]+$`, 'g');

/**
 * A name from a pattern, the one way every generated name is made (document names, and a batch's
 * PDF file names): tags filled in, then the gaps an empty value leaves tidied, so
 * `Offer – {{name}} – {{date}}` without a name reads `Offer – 2026-11-24`, not `Offer –  – 2026-11-24`.
 */
export function fillNamePattern(pattern: string, resolve: (name: string) => string | undefined): string {
  return substitutePlaceholders(pattern, resolve).replace(/\s+/g, ' ').replace(separatorRuns, '$1').replace(edgeSeparators, '').trim();
}

/** A value as it reads in a name: text and numbers; a list or nothing reads as nothing. */
const nameText = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');

/**
 * A format's document-name pattern filled in: placeholders, `{{date}}`, and any `extra` tags (a
 * batch's `{{row}}`). Empty when there is no pattern or it fills to nothing.
 */
export function nameFromPattern(
  pattern: string | undefined,
  values: Readonly<Record<string, unknown>>,
  date: string,
  extra: Readonly<Record<string, string>> = {},
): string {
  const trimmed = pattern?.trim();
  return trimmed ? fillNamePattern(trimmed, (tag) => (tag === DATE_TAG ? date : (extra[tag] ?? nameText(values[tag])))) : '';
}

/**
 * The name a document made one at a time gets (in the form or by the API): its format's pattern
 * filled in, else the format, its subject (nameSubjectOf) and the date. The server names the
 * document with it; the form shows the same name before it is made.
 */
export function documentNameFor(
  format: { name: string; documentNamePattern?: string | undefined; placeholders: TNamePlaceholders },
  values: Readonly<Record<string, unknown>>,
  date: string,
): string {
  return nameFromPattern(format.documentNamePattern, values, date) || documentNameOf(format.name, nameSubjectOf(format.placeholders, values), date);
}

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields: ';

/** A filled value as the form or an API client sends it; numbers (and yes or no) are accepted as such too. */
export const ZScalarValue = z.union([z.string().max(MAX_PLACEHOLDER_VALUE_LENGTH), z.number(), z.boolean(), z.null()]);
/** One row of a list placeholder: its columns by name. */
export const ZListRowValue = z.record(z.string().max(100), ZScalarValue).refine((row) => Object.keys(row).length <= 100, {
  message: 'A row has too many fields.',
});
/** A list's rows are counted where they are checked (checkDocumentData), so the 400 names the list; the body limit bounds them here. */
export const ZDataValue = z.union([ZScalarValue, z.array(ZListRowValue)]);
export const ZDocumentData = z.record(z.string().max(100), ZDataValue).refine((d) => Object.keys(d).length <= 500, {
  message: 'Too many fields.',
});
export type TDocumentData = z.infer<typeof ZDocumentData>;

/** The form's live preview: the values typed so far; a field left empty shows its [Label]. */
export const ZFilledPreviewBody = z.object({ data: ZDocumentData });

export const ZCreateDocumentBody = z.object({
  formatId: z.string().min(1).max(64),
  name: z.string().trim().max(300).optional(),
  clientName: z.string().trim().max(300).optional(),
  data: ZDocumentData.default({}),
});
export type TCreateDocumentBody = z.input<typeof ZCreateDocumentBody>;

/** Something the renderer could not draw as asked; the document is still made. */
export const ZRenderWarning = z.object({
  code: z.string(),
  message: z.string(),
  elementId: z.string().optional(),
});
export type TRenderWarning = z.infer<typeof ZRenderWarning>;

/** Where a document stands: made, then (when sent for signature) out for signature, and signed or not. */
export const DOCUMENT_STATUSES = ['generated', 'out_for_signature', 'signed', 'declined', 'expired'] as const;
export type TDocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const ZDocument = z.object({
  id: z.string(),
  name: z.string(),
  formatId: z.string().nullable(),
  formatName: z.string(),
  clientName: z.string(),
  /** The values it was filled with: text, or rows for a list; formulas as they were computed. */
  data: ZFilledValues,
  status: z.string(),
  pdfSha256: z.string(),
  /** The bulk job (batch) that made it; null for documents made one at a time. */
  batchId: z.string().nullable(),
  warnings: z.array(ZRenderWarning),
  /** Made with a test API key: watermarked, not counted, deleted after 7 days. */
  test: z.boolean(),
  createdAt: z.string(),
  /** The person who made it (in a team, any member); null once their account is deleted. */
  createdBy: z.string().nullable(),
  /** Whether it is tagged PDF/UA and PDF/A-2, and what its format lacks; on one document, not in lists. */
  accessibility: ZDocumentAccessibility.optional(),
});
export type TDocument = z.infer<typeof ZDocument>;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TEL_RE = /^[+()\d\s./-]{3,40}$/;

function isRealDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The problem with one value of a placeholder's (or a column's) type, or undefined when it is fine. */
export function checkPlaceholderValue(placeholder: Pick<TPlaceholder, 'type' | 'options'>, value: string): string | undefined {
  if (value === '') return undefined;
  switch (placeholder.type) {
    case 'email':
      return EMAIL_RE.test(value) ? undefined : 'Enter a valid email address.';
    case 'number':
      return NUMBER_RE.test(value.replaceAll(',', '')) ? undefined : 'Enter a number.';
    case 'date':
      return isRealDate(value) ? undefined : 'Enter a date as YYYY-MM-DD.';
    case 'tel':
      return TEL_RE.test(value) ? undefined : 'Enter a phone number.';
    case 'select':
      return placeholder.options.includes(value) ? undefined : `Choose one of: ${placeholder.options.join(', ')}.`;
    case 'checkbox':
      return checkboxValue(value) ? undefined : 'Use yes or no (true or false).';
    default:
      return undefined;
  }
}

export type TDataCheck = {
  /**
   * Values as text, trimmed, numbers without grouping commas, yes or no as true or false; a list
   * as its rows; formulas computed. Only the format's placeholders.
   */
  values: TFilledValues;
  /** Field -> message, for every invalid or missing field; a list's cell as `items[3].qty` (rows from 0). */
  fields: Record<string, string>;
  /** The labels of the required fields left empty, in placeholder order. */
  missing: string[];
  /** Placeholders whose every use is in a hidden element: not asked for, never required. */
  hidden: Set<string>;
};

const VALUE_TOO_LONG = `This value is longer than ${MAX_PLACEHOLDER_VALUE_LENGTH.toLocaleString('en-US')} characters.`;

/** One value as text the way a placeholder (or a column) of this type keeps it. */
function cleanValue(type: TPlaceholder['type'], raw: unknown): string {
  if (raw === null || raw === undefined) return '';
  let value = typeof raw === 'string' ? raw.trim() : typeof raw === 'object' ? '' : String(raw).trim();
  if (type === 'number' && value !== '') value = value.replaceAll(',', '');
  if (type === 'checkbox' && typeof raw === 'boolean') value = raw ? 'true' : 'false';
  else if (type === 'checkbox') value = checkboxValue(value) ?? value;
  return value;
}

const rowLabel = (i: number) => `row ${i + 1}`;

/** The rows of a list, cleaned and checked cell by cell; blank rows are dropped. */
function checkList(list: TPlaceholder, raw: unknown, fields: Record<string, string>): TListRow[] {
  const columns = (list.columns ?? []).filter((c) => c.type !== 'formula');
  if (raw === null || raw === undefined || raw === '') return [];
  if (!Array.isArray(raw)) {
    fields[list.name] = `Send a list of rows, e.g. [{ ${columns
      .slice(0, 2)
      .map((c) => `"${c.name}": …`)
      .join(', ')} }].`;
    return [];
  }
  const rows: TListRow[] = [];
  raw.forEach((item: unknown) => {
    const source = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : null;
    const index = rows.length;
    if (!source) {
      fields[`${list.name}[${index}]`] = 'Each row must be an object of column values.';
      rows.push({});
      return;
    }
    const row: TListRow = {};
    for (const column of columns) row[column.name] = cleanValue(column.type, source[column.name]);
    // A row with nothing in it is a row the person did not mean to add.
    if (columns.every((c) => row[c.name] === '' || (c.type === 'checkbox' && row[c.name] === 'false'))) return;
    rows.push(row);
    for (const column of columns) checkCell(list, column, index, row[column.name] ?? '', fields);
  });
  if (rows.length > MAX_LIST_ROWS) fields[list.name] = `A list may hold at most ${MAX_LIST_ROWS.toLocaleString('en-US')} rows.`;
  else if (list.maxItems !== undefined && rows.length > list.maxItems)
    fields[list.name] = `Enter at most ${list.maxItems} ${list.maxItems === 1 ? 'row' : 'rows'}.`;
  else if (list.minItems !== undefined && rows.length > 0 && rows.length < list.minItems)
    fields[list.name] = `Enter at least ${list.minItems} ${list.minItems === 1 ? 'row' : 'rows'}.`;
  return rows;
}

function checkCell(list: TPlaceholder, column: TListColumn, index: number, value: string, fields: Record<string, string>): void {
  const key = `${list.name}[${index}].${column.name}`;
  if (value === '' || (column.type === 'checkbox' && value === 'false' && column.required)) {
    if (column.required) fields[key] = column.type === 'checkbox' ? `Tick this in ${rowLabel(index)}.` : 'This field is required.';
    return;
  }
  if (value.length > MAX_PLACEHOLDER_VALUE_LENGTH) {
    fields[key] = VALUE_TOO_LONG;
    return;
  }
  const problem = checkPlaceholderValue(column, value);
  if (problem) fields[key] = problem;
}

/**
 * Checks filled data against a format's placeholders: the same rules in the form, the API and
 * bulk rows. With the format's `content`, placeholders that only hidden elements use are not
 * required, and their formulas may fail without refusing the document.
 */
export function checkDocumentData(
  placeholders: readonly TPlaceholder[],
  data: Readonly<Record<string, unknown>>,
  content?: Pick<TFormatContent, 'elements' | 'header' | 'footer'>,
): TDataCheck {
  const values: TFilledValues = {};
  const fields: Record<string, string> = {};
  for (const placeholder of placeholders) {
    if (placeholder.type === 'formula') continue;
    if (isSigningPlaceholder(placeholder)) {
      // A signer fills it in when signing: a value sent now would print where the signature goes.
      const sent = data[placeholder.name];
      if (sent !== undefined && sent !== null && sent !== '') fields[placeholder.name] = signingValueMessage(placeholder);
      continue;
    }
    if (placeholder.type === 'list') {
      values[placeholder.name] = checkList(placeholder, data[placeholder.name], fields);
      continue;
    }
    const value = cleanValue(placeholder.type, data[placeholder.name]);
    values[placeholder.name] = value;
    if (value === '') continue;
    const problem = value.length > MAX_PLACEHOLDER_VALUE_LENGTH ? VALUE_TOO_LONG : checkPlaceholderValue(placeholder, value);
    if (problem) fields[placeholder.name] = problem;
  }
  const computed = computeFormulas(placeholders, values);
  const hidden = content ? hiddenPlaceholders(content, placeholders, computed.values) : new Set<string>();
  // A formula over a value that is wrong fails too; the value's own message is the one to fix first.
  const inputsValid = Object.keys(fields).every((key) => hidden.has(key.split('[')[0]!));
  const missing: string[] = [];
  const out: TFilledValues = {};
  for (const placeholder of placeholders) {
    if (isSigningPlaceholder(placeholder)) continue;
    const value = computed.values[placeholder.name] ?? '';
    const isHidden = hidden.has(placeholder.name);
    if (isHidden) {
      // Nothing the person could not see may stop the document.
      for (const key of Object.keys(fields)) if (key === placeholder.name || key.startsWith(`${placeholder.name}[`)) delete fields[key];
    }
    if (placeholder.type === 'formula') {
      if (value !== '') out[placeholder.name] = value;
      if (computed.errors[placeholder.name] && !isHidden && inputsValid) fields[placeholder.name] = computed.errors[placeholder.name]!;
      continue;
    }
    if (placeholder.type === 'list') {
      out[placeholder.name] = value;
      for (const [key, message] of Object.entries(computed.errors))
        if (key.startsWith(`${placeholder.name}[`) && !isHidden && inputsValid) fields[key] = message;
      if (fields[placeholder.name]) continue;
      if (placeholder.required && !isHidden && Array.isArray(value) && value.length === 0) {
        missing.push(placeholderLabel(placeholder));
        fields[placeholder.name] = 'Add at least one row.';
      } else if (!isHidden && Array.isArray(value) && placeholder.minItems !== undefined && value.length < placeholder.minItems) {
        fields[placeholder.name] = `Enter at least ${placeholder.minItems} ${placeholder.minItems === 1 ? 'row' : 'rows'}.`;
      }
      continue;
    }
    const empty = value === '' || (placeholder.type === 'checkbox' && value === 'false');
    if (empty && placeholder.required && !isHidden) {
      missing.push(placeholderLabel(placeholder));
      fields[placeholder.name] = placeholder.type === 'checkbox' ? 'Tick this box to go on.' : 'This field is required.';
    }
    if (value !== '') out[placeholder.name] = value;
  }
  return { values: out, fields, missing, hidden };
}

/** Why a value sent for a signing placeholder is refused. */
function signingValueMessage(p: Pick<TPlaceholder, 'name' | 'signer'>): string {
  return `${p.name} is filled in when ${signerLabel(p.signer ?? 1)} signs.`;
}

export function requiredFieldsMessage(missing: readonly string[]): string {
  return `${REQUIRED_FIELDS_MESSAGE}${missing.join(', ')}`;
}

/**
 * The search and filters of a documents list, the same in the app (GET /api/documents) and the
 * API (GET /api/v1/documents). Days are UTC and both ends are included.
 */
export const ZDocumentFilters = z.object({
  /** Part of the document's name, its client's name or its format's name, in any case. */
  q: z.string().trim().max(200).optional().describe('Part of the document name, client name or format name (any case).'),
  formatId: z.string().min(1).max(64).optional().describe('Only documents made from this format.'),
  from: ZCalendarDay.optional().describe(`Only documents made on or after this day (YYYY-MM-DD, UTC, ${FIRST_DAY} to ${LAST_DAY}).`),
  to: ZCalendarDay.optional().describe(`Only documents made on or before this day (YYYY-MM-DD, UTC, ${FIRST_DAY} to ${LAST_DAY}).`),
  /** Only the documents this person made (a team's documents list filters by member). */
  createdBy: z.string().min(1).max(64).optional().describe('Only documents made by this team member (user id).'),
});
export type TDocumentFilters = z.output<typeof ZDocumentFilters>;

/** A range that ends before it starts is a mistake to report, not an empty list to show. */
export function checkDayRange(query: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (query.from && query.to && query.from > query.to) ctx.addIssue({ code: 'custom', path: ['to'], message: '`to` must not be before `from`.' });
}

/** GET /api/documents: newest first, or one batch in spreadsheet row order. */
export const ZDocumentListQuery = ZDocumentFilters.extend({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  batchId: z.string().min(1).max(64).optional(),
  /** `single`: only documents made one at a time; `batch`: only those a bulk job made. */
  kind: z.enum(['single', 'batch']).optional(),
}).superRefine(checkDayRange);
export type TDocumentListQuery = z.output<typeof ZDocumentListQuery>;
