import { z } from 'zod';
import {
  MAX_PLACEHOLDER_VALUE_LENGTH,
  placeholderLabel,
  substitutePlaceholders,
  type TPlaceholder,
} from './placeholders.ts';

export const DEFAULT_CLIENT_NAME = 'Unknown Client';
/** Placeholders whose value names a document's client ("Offer letter - Jane Doe"). */
export const CLIENT_NAME_PLACEHOLDERS: readonly string[] = ['client_name', 'clientname'];

/** The client a row of placeholder values names, if any. */
export function clientNameOf(values: Readonly<Record<string, string | undefined>>): string | undefined {
  return CLIENT_NAME_PLACEHOLDERS.map((name) => values[name]).find(Boolean);
}
/** A document made one at a time: "Offer letter - Jane Doe - Nov 24, 2026", the client left out when there is none. */
export function documentNameOf(formatName: string, values: Readonly<Record<string, string | undefined>>, date: string): string {
  const client = clientNameOf(values)?.trim();
  return client ? `${formatName} - ${client} - ${date}` : `${formatName} - ${date}`;
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
  return substitutePlaceholders(pattern, resolve)
    .replace(/\s+/g, ' ')
    .replace(separatorRuns, '$1')
    .replace(edgeSeparators, '')
    .trim();
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
 * filled in, else documentNameOf.
 */
export function documentNameFor(
  format: { name: string; documentNamePattern?: string | undefined },
  values: Readonly<Record<string, unknown>>,
  date: string,
): string {
  return nameFromPattern(format.documentNamePattern, values, date) || documentNameOf(format.name, values as Readonly<Record<string, string | undefined>>, date);
}

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields: ';

/** A filled value as the form or an API client sends it; numbers are accepted as numbers too. */
export const ZDataValue = z.union([z.string().max(MAX_PLACEHOLDER_VALUE_LENGTH), z.number(), z.boolean(), z.null()]);
export const ZDocumentData = z.record(z.string().max(100), ZDataValue).refine((d) => Object.keys(d).length <= 500, {
  message: 'Too many fields.',
});
export type TDocumentData = z.infer<typeof ZDocumentData>;

/** The form's live preview: the values typed so far; a field left empty shows its [Label]. */
export const ZFilledPreviewBody = z.object({ data: ZDocumentData });
export type TFilledPreviewBody = z.infer<typeof ZFilledPreviewBody>;

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

export const ZDocument = z.object({
  id: z.string(),
  name: z.string(),
  formatId: z.string().nullable(),
  formatName: z.string(),
  clientName: z.string(),
  data: z.record(z.string(), z.string()),
  status: z.string(),
  pdfSha256: z.string(),
  /** The bulk job (batch) that made it; null for documents made one at a time. */
  batchId: z.string().nullable(),
  warnings: z.array(ZRenderWarning),
  /** Made with a test API key: watermarked, not counted, deleted after 7 days. */
  test: z.boolean(),
  createdAt: z.string(),
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

/** The problem with one value of a placeholder's type, or undefined when it is fine. */
export function checkPlaceholderValue(placeholder: TPlaceholder, value: string): string | undefined {
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
    default:
      return undefined;
  }
}

export type TDataCheck = {
  /** Values as strings, trimmed, numbers without grouping commas; only the format's placeholders. */
  values: Record<string, string>;
  /** Field name -> message, for every invalid or missing field. */
  fields: Record<string, string>;
  /** The labels of the required fields left empty, in placeholder order. */
  missing: string[];
};

/** Checks filled data against a format's placeholders: the same rules in the form, the API and bulk rows. */
export function checkDocumentData(placeholders: readonly TPlaceholder[], data: TDocumentData): TDataCheck {
  const values: Record<string, string> = {};
  const fields: Record<string, string> = {};
  const missing: string[] = [];
  for (const placeholder of placeholders) {
    const raw = data[placeholder.name];
    let value = raw === null || raw === undefined ? '' : String(raw).trim();
    if (placeholder.type === 'number' && value !== '') value = value.replaceAll(',', '');
    if (value === '') {
      if (placeholder.required) {
        missing.push(placeholderLabel(placeholder));
        fields[placeholder.name] = 'This field is required.';
      }
      continue;
    }
    const problem = checkPlaceholderValue(placeholder, value);
    if (problem) fields[placeholder.name] = problem;
    values[placeholder.name] = value;
  }
  return { values, fields, missing };
}

export function requiredFieldsMessage(missing: readonly string[]): string {
  return `${REQUIRED_FIELDS_MESSAGE}${missing.join(', ')}`;
}

/** GET /api/documents: newest first, or one batch in spreadsheet row order. */
export const ZDocumentListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  batchId: z.string().min(1).max(64).optional(),
  /** `single`: only documents made one at a time; `batch`: only those a bulk job made. */
  kind: z.enum(['single', 'batch']).optional(),
});
export type TDocumentListQuery = z.output<typeof ZDocumentListQuery>;
