import { z } from 'zod';
import { nameFromPattern, nameSubjectOf, type TNamePlaceholders } from './documents.ts';
import { ZFilledValues } from './filled-values.ts';
import { isSigningPlaceholder, type TPlaceholder } from './placeholders.ts';

/*
 * Bulk generation from a spreadsheet: upload -> mapping and validation preview -> start -> a
 * background job with live progress -> documents grouped by batch, a ZIP, a merged PDF and an
 * error CSV. One upload is one batch (a "bulk job"); its id is the batch id of its documents.
 */

export const BULK_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const BULK_MAX_ROWS = 50_000;
export const BULK_ACCEPTED_EXTENSIONS = ['.xlsx', '.xls', '.csv'] as const;
/** How many rows the preview shows (invalid rows first are not reordered: spreadsheet order). */
export const BULK_PREVIEW_ROWS = 20;
/**
 * The ZIP file-name pattern of a batch whose owner set none: the document's name, which already
 * tells the rows apart (batchDocumentName); the ZIP numbers only names that still collide.
 */
export const DEFAULT_FILE_NAME_PATTERN = '{{document}}';

/**
 * The name of a batch's document: the format's document-name pattern (with `{{row}}` too), else
 * the format and the row's subject ("Offer letter - Jane Doe", see nameSubjectOf), else the
 * format's name. The server names documents with it and the upload screen's example shows the same.
 */
export function batchDocumentName(
  format: { name: string; documentNamePattern?: string | undefined; placeholders: TNamePlaceholders },
  row: number,
  values: Readonly<Record<string, unknown>>,
  date: string,
): string {
  const named = nameFromPattern(format.documentNamePattern, values, date, { row: String(row) });
  if (named) return named;
  const subject = nameSubjectOf(format.placeholders, values);
  return subject ? `${format.name} - ${subject}` : format.name;
}

export const BULK_JOB_STATUSES = ['draft', 'queued', 'running', 'completed', 'cancelled', 'failed'] as const;
export const ZBulkJobStatus = z.enum(BULK_JOB_STATUSES);
export type TBulkJobStatus = z.infer<typeof ZBulkJobStatus>;

/** Placeholder name -> index of the spreadsheet column that fills it, or null when none does. */
export const ZColumnMapping = z.record(z.string().max(100), z.number().int().min(0).max(1000).nullable());
export type TColumnMapping = z.infer<typeof ZColumnMapping>;

export const ZPreviewRow = z.object({
  /** The row number as the spreadsheet shows it (the header is row 1). */
  row: z.number().int(),
  /** Placeholder name -> the value as it will be used (dates as YYYY-MM-DD); a list's rows. */
  values: ZFilledValues,
  /** Placeholder name -> the problem with that cell; empty when the row is valid. */
  errors: z.record(z.string(), z.string()),
});
export type TPreviewRow = z.infer<typeof ZPreviewRow>;

export const ZBulkUpload = z.object({
  id: z.string(),
  formatId: z.string(),
  fileName: z.string(),
  /** Header cells, in column order. */
  columns: z.array(z.string()),
  mapping: ZColumnMapping,
  /** Placeholders that no column fills yet (after automatic matching or the user's mapping). */
  unmappedPlaceholders: z.array(z.string()),
  /** Columns that fill no placeholder. */
  unusedColumns: z.array(z.number().int()),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  invalidRows: z.number().int(),
  preview: z.array(ZPreviewRow),
  /** Generations left this month, and how many of the valid rows that allows. */
  quota: z.object({ remaining: z.number().int(), canMake: z.number().int() }),
  /** For each list placeholder: the lines read for it (from a lines sheet or repeated keys), over how many documents. */
  lists: z.array(z.object({ name: z.string(), label: z.string(), lines: z.number().int(), documents: z.number().int() })).default([]),
});
export type TBulkUpload = z.infer<typeof ZBulkUpload>;

export const ZUpdateMappingBody = z.object({ mapping: ZColumnMapping });

export const ZFileNamePattern = z.string().trim().min(1, 'Enter a file name pattern.').max(200, 'The file name pattern is too long.');

export const ZStartBulkJobBody = z.object({
  /** false means "fix first": the start is refused while any row is invalid. */
  skipInvalid: z.boolean(),
  /** Omitted: defaultFileNamePattern of the format's placeholders. */
  fileNamePattern: ZFileNamePattern.optional(),
});
export type TStartBulkJobBody = z.input<typeof ZStartBulkJobBody>;

export const ZBulkJob = z.object({
  id: z.string(),
  formatId: z.string().nullable(),
  formatName: z.string(),
  fileName: z.string(),
  fileNamePattern: z.string(),
  status: ZBulkJobStatus,
  /** Rows that will be (or were) generated: the valid rows. */
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  /** Invalid rows left out when the job started. */
  skipped: z.number().int(),
  /** Documents per second since the job started running; null before it has. */
  ratePerSecond: z.number().nullable(),
  /** Seconds left at the current rate; null when unknown or finished. */
  etaSeconds: z.number().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why the job stopped early (cancelled, quota reached), shown to the user. */
  message: z.string().nullable(),
});
export type TBulkJob = z.infer<typeof ZBulkJob>;

export const ZBulkJobList = z.object({ jobs: z.array(ZBulkJob) });
export type TBulkJobList = z.infer<typeof ZBulkJobList>;

export const ZBulkRowError = z.object({ row: z.number().int(), column: z.string(), message: z.string() });
export type TBulkRowError = z.infer<typeof ZBulkRowError>;
export const ZBulkRowErrorList = z.object({ errors: z.array(ZBulkRowError), total: z.number().int() });

/**
 * The placeholders a column of a spreadsheet's main sheet fills: not a list (its rows come from a
 * lines sheet, or from rows that repeat the document key), not a formula (computed) and not a
 * signing field (filled in when the document is signed).
 */
export function columnPlaceholders<P extends Pick<TPlaceholder, 'type'>>(placeholders: readonly P[]): P[] {
  return placeholders.filter((p) => p.type !== 'list' && p.type !== 'formula' && !isSigningPlaceholder(p));
}

/** A, B, ... Z, AA: the letter a spreadsheet shows for the column at this 0-based index. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/**
 * The form a header and a placeholder name or label are compared in: case, spaces, underscores
 * and hyphens ignored ("Client Name" = client_name = "client-name"), and the " *" the Excel
 * template adds to required columns dropped.
 */
export function columnKey(text: string): string {
  return text
    .normalize('NFKC')
    .trim()
    .replace(/\s*\*$/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}
