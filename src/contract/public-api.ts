import { z } from 'zod';
import { ZBulkJobStatus, ZFileNamePattern } from './bulk.ts';
import { FIRST_DAY, LAST_DAY, ZInstant } from './dates.ts';
import { checkDayRange, ZCreateDocumentBody, ZDocument, ZDocumentData, ZDocumentFilters } from './documents.ts';
import { ZFormatContent } from './format-content.ts';
import { ZPlaceholderType } from './placeholders.ts';

/**
 * The public API under /api/v1: what integrators call with a key. These schemas validate the
 * requests, shape the answers and make the OpenAPI document the reference page and generated
 * clients are built from.
 */
export const API_V1_PREFIX = '/api/v1';
/** The header that asks for a 202 and a URL to poll instead of waiting for the PDF. */
export const PREFER_ASYNC = 'respond-async';
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** How long a repeated Idempotency-Key returns the first answer. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;
export const MAX_BATCH_ROWS = 50_000;

export const ZPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25).describe('At most this many items (1–100).'),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page.'),
});

const v1Field = {
  name: z.string().describe('The key to send in `data` (in a row, for a column).'),
  label: z.string(),
  type: ZPlaceholderType,
  required: z.boolean(),
  options: z.array(z.string()).describe('For `select`: the allowed values.'),
  expression: z.string().optional().describe('For `formula`: what it computes. Never sent in `data`; the document holds its value.'),
};

export const ZV1ListColumn = z.object(v1Field).meta({ id: 'ListColumn' });

export const ZV1Placeholder = z
  .object({
    ...v1Field,
    columns: z
      .array(ZV1ListColumn)
      .optional()
      .describe(
        'For `list`: the columns of each row. Send the list as an array of objects keyed by column name, e.g. `"items": [{"description": "Design", "qty": 2}]`.',
      ),
    minItems: z.number().int().optional(),
    maxItems: z.number().int().optional(),
  })
  .meta({ id: 'Placeholder' });

export const ZV1FormatSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    version: z.number().int(),
    placeholders: z.array(ZV1Placeholder),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'FormatSummary' });
export type TV1FormatSummary = z.infer<typeof ZV1FormatSummary>;

export const ZV1Format = ZV1FormatSummary.extend({
  content: ZFormatContent,
  example: ZDocumentData.describe(
    'A `data` object that fills every placeholder with a value its type accepts (lists as arrays of rows, numbers as numbers, dates as YYYY-MM-DD, yes or no as booleans). `POST /api/v1/documents` with `{ "formatId": id, "data": example }` makes a document as it is.',
  ),
}).meta({ id: 'Format' });

export const ZV1FormatPage = z.object({ data: z.array(ZV1FormatSummary), nextCursor: z.string().nullable() }).meta({ id: 'FormatPage' });

/** A document as the app shows it, plus where to fetch its PDF with the same key. */
export const ZV1Document = ZDocument.extend({ status: z.literal('generated'), pdfUrl: z.string() }).meta({ id: 'Document' });
export type TV1Document = z.infer<typeof ZV1Document>;

/** What GET /api/v1/documents/{id} answers (202) while an asynchronous generation is under way. */
export const ZV1PendingDocument = z.object({ id: z.string(), status: z.literal('pending') }).meta({ id: 'PendingDocument' });

export const ZV1DocumentPage = z.object({ data: z.array(ZV1Document), nextCursor: z.string().nullable() }).meta({ id: 'DocumentPage' });

export const ZV1DocumentListQuery = ZPageQuery.extend(ZDocumentFilters.shape)
  .extend({
    createdAfter: ZInstant.optional().describe(`Only documents made after this instant (ISO 8601, ${FIRST_DAY} to ${LAST_DAY} in UTC).`),
  })
  .superRefine(checkDayRange);
export type TV1DocumentListQuery = z.output<typeof ZV1DocumentListQuery>;

export const ZV1CreateDocumentBody = ZCreateDocumentBody.meta({ id: 'CreateDocument' });

export const ZV1CreateBatchBody = z
  .object({
    formatId: z.string().min(1).max(64),
    rows: z
      .array(ZDocumentData)
      .min(1, 'Send at least one row.')
      .max(MAX_BATCH_ROWS, `Send at most ${MAX_BATCH_ROWS.toLocaleString('en-US')} rows.`),
    fileNamePattern: ZFileNamePattern.optional(),
    /** Leave out invalid rows instead of refusing the batch. */
    skipInvalid: z.boolean().default(false),
  })
  .meta({ id: 'CreateBatch' });

/**
 * The text fields sent with a spreadsheet instead of JSON rows: the same fields but the rows,
 * which the file holds. A form sends only text, so `skipInvalid` is read from "true" or "false".
 */
export const ZV1CreateBatchFields = ZV1CreateBatchBody.omit({ rows: true }).extend({
  skipInvalid: z.stringbool({ truthy: ['true'], falsy: ['false'], error: 'Send "true" or "false".' }).default(false),
});

export const ZV1Batch = z
  .object({
    id: z.string(),
    formatId: z.string().nullable(),
    status: ZBulkJobStatus,
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    zipUrl: z.string(),
    errorsUrl: z.string(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: 'Batch' });
export type TV1Batch = z.infer<typeof ZV1Batch>;

export const ZV1BatchErrors = z
  .object({ errors: z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() })), total: z.number().int() })
  .meta({ id: 'BatchErrors' });

/** The landing page's call: `POST /api/documents/generate`, with its snake_case names. */
export const ZGenerateBody = z.object({ template_id: z.string().min(1).max(64), data: ZDocumentData.default({}) }).meta({ id: 'GenerateRequest' });
export const ZGenerateResult = z.object({ id: z.string(), status: z.literal('generated'), document_url: z.string() }).meta({ id: 'GenerateResult' });
