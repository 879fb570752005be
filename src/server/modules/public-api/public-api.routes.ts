import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BULK_MAX_FILE_BYTES, type TBulkJob } from '../../../contract/bulk.ts';
import type { TDocument } from '../../../contract/documents.ts';
import { ZApiError, ZErrorCode } from '../../../contract/errors.ts';
import { ZFormatInput, ZIdParams, type TFormat } from '../../../contract/formats.ts';
import { placeholderLabel, type TListColumn, type TPlaceholder } from '../../../contract/placeholders.ts';
import {
  API_V1_PREFIX,
  MAX_BATCH_ROWS,
  PREFER_ASYNC,
  ZGenerateBody,
  ZGenerateResult,
  ZPageQuery,
  ZV1Batch,
  ZV1BatchErrors,
  ZV1CreateBatchBody,
  ZV1CreateDocumentBody,
  ZV1Document,
  ZV1DocumentListQuery,
  ZV1DocumentPage,
  ZV1Format,
  ZV1FormatPage,
  ZV1PendingDocument,
  type TV1Batch,
  type TV1Document,
  type TV1FormatSummary,
} from '../../../contract/public-api.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { decodePageCursor, pageOf } from '../../http/page-cursor.ts';
import { sendFile, sendPdf } from '../../http/send-file.ts';
import { readUploadedFile } from '../../http/uploaded-file.ts';
import type { TBulkService } from '../bulk/bulk.service.ts';
import type { TDocumentsService } from '../documents/documents.service.ts';
import type { TDeliveriesService } from '../deliveries/deliveries.service.ts';
import { ZDelivery, ZEmailDocumentBody } from '../../../contract/delivery.ts';
import type { TFormatsService } from '../formats/formats.service.ts';
import { answerOnce } from './idempotency.ts';
import type { TPublicApiService } from './public-api.service.ts';

/** Every call may answer these; the OpenAPI document lists them on each operation. */
const errors = {
  400: ZApiError.describe('The request is malformed or a value is invalid (`bad_request`, `validation_failed`).'),
  401: ZApiError.describe('No API key, or a wrong or revoked one (`unauthorized`).'),
  403: ZApiError.describe('The plan has no API access (`plan_limit`).'),
  404: ZApiError.describe('Not found, or owned by someone else (`not_found`).'),
  429: ZApiError.describe('Too many requests this minute (`rate_limited`, with Retry-After), or the monthly quota is used up (`quota_exceeded`).'),
};
const security: { [scheme: string]: string[] }[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
/** A background document that has not appeared after this long was lost with a stopped server. */
const ASYNC_LOST_AFTER_MS = 10 * 60_000;

export type TPublicApiDeps = {
  publicUrl: string;
  formats: TFormatsService;
  documents: TDocumentsService;
  deliveries: TDeliveriesService;
  bulk: TBulkService;
  publicApi: TPublicApiService;
};

/** A placeholder or a list's column as the API describes it. */
function v1Field(p: TPlaceholder | TListColumn) {
  return { name: p.name, label: placeholderLabel(p), type: p.type, required: p.required, options: p.options, ...(p.expression !== undefined ? { expression: p.expression } : {}) };
}

function toV1FormatSummary(format: TFormat): TV1FormatSummary {
  return {
    id: format.id,
    name: format.name,
    description: format.description,
    version: format.version,
    placeholders: format.placeholders.map((p) => ({
      ...v1Field(p),
      ...(p.columns ? { columns: p.columns.map(v1Field) } : {}),
      ...(p.minItems !== undefined ? { minItems: p.minItems } : {}),
      ...(p.maxItems !== undefined ? { maxItems: p.maxItems } : {}),
    })),
    createdAt: format.createdAt,
    updatedAt: format.updatedAt,
  };
}

export async function publicApiRoutes(app: FastifyInstance, deps: TPublicApiDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const url = (path: string) => `${deps.publicUrl}${path}`;
  const documentUrl = (id: string) => url(`${API_V1_PREFIX}/documents/${id}`);

  const toV1Document = (document: TDocument): TV1Document => ({
    id: document.id,
    name: document.name,
    formatId: document.formatId,
    formatName: document.formatName,
    clientName: document.clientName,
    data: document.data,
    status: 'generated',
    pdfUrl: `${documentUrl(document.id)}/pdf`,
    pdfSha256: document.pdfSha256,
    batchId: document.batchId,
    test: document.test,
    warnings: document.warnings,
    createdAt: document.createdAt,
  });
  const toV1Batch = (job: TBulkJob): TV1Batch => ({
    id: job.id,
    formatId: job.formatId,
    status: job.status,
    total: job.total,
    done: job.done,
    failed: job.failed,
    skipped: job.skipped,
    zipUrl: url(`${API_V1_PREFIX}/batches/${job.id}/zip`),
    errorsUrl: url(`${API_V1_PREFIX}/batches/${job.id}/errors`),
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    message: job.message,
  });
  const testMode = (request: FastifyRequest) => request.apiKey?.mode === 'test';
  /** The key's mode: a test key sees only what test keys made, a live key never sees it. */
  const modeOf = (request: FastifyRequest) => request.apiKey?.mode ?? 'live';

  api.get(
    `${API_V1_PREFIX}/formats`,
    {
      schema: {
        tags: ['Formats'],
        summary: 'List formats',
        description: 'Your formats, newest first, with the placeholders each one fills in.',
        security,
        querystring: ZPageQuery,
        response: { 200: ZV1FormatPage, ...errors },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const { formats, rows } = await deps.formats.page(request.callerId, { limit: limit + 1, after: decodePageCursor(cursor) });
      return { data: formats.slice(0, limit).map(toV1FormatSummary), nextCursor: pageOf(rows, limit).nextCursor };
    },
  );

  api.get(
    `${API_V1_PREFIX}/formats/:id`,
    {
      schema: {
        tags: ['Formats'],
        summary: 'Get a format',
        description: 'One format with its content and placeholders: everything needed to build the `data` of a document.',
        security,
        params: ZIdParams,
        response: { 200: ZV1Format, ...errors },
      },
    },
    async (request) => {
      const format = await deps.formats.get(request.callerId, request.params.id);
      return { ...toV1FormatSummary(format), content: format.content };
    },
  );

  api.post(
    `${API_V1_PREFIX}/formats`,
    {
      schema: {
        tags: ['Formats'],
        summary: 'Create a format',
        description: 'Creates a format from content JSON, checked exactly as the builder checks it. Send an `Idempotency-Key` to retry safely.',
        security,
        body: ZFormatInput,
        response: { 201: ZV1Format, ...errors },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, deps.publicApi.idempotency, async () => {
        const format = await deps.formats.create(request.callerId, request.body);
        return { status: 201, body: { ...toV1FormatSummary(format), content: format.content }, location: url(`${API_V1_PREFIX}/formats/${format.id}`) };
      }),
  );

  async function createDocument(request: FastifyRequest, reply: FastifyReply, body: z.output<typeof ZV1CreateDocumentBody>) {
    const prefer = String(request.headers.prefer ?? '').toLowerCase();
    return answerOnce(request, reply, deps.publicApi.idempotency, async () => {
      if (prefer.split(/[,;]/).some((part) => part.trim() === PREFER_ASYNC)) {
        const ownerId = request.callerId;
        const { id } = await deps.documents.createLater(ownerId, body, { testMode: testMode(request) }, async (outcome) => {
          const error =
            'error' in outcome
              ? outcome.error instanceof AppError
                ? { code: outcome.error.code, message: outcome.error.message }
                : { code: 'unprocessable', message: 'The document could not be generated. Send the request again.' }
              : null;
          await deps.publicApi.asyncDocuments.finished(ownerId, id, error);
        });
        await deps.publicApi.asyncDocuments.started(ownerId, id, modeOf(request));
        request.apiDocuments = 1;
        reply.header('retry-after', '1');
        return { status: 202, body: { id, status: 'pending' }, location: documentUrl(id) };
      }
      const document = await deps.documents.create(request.callerId, body, { testMode: testMode(request) });
      request.apiDocuments = 1;
      return { status: 201, body: toV1Document(document), location: documentUrl(document.id) };
    });
  }

  api.post(
    `${API_V1_PREFIX}/documents`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'Generate a document',
        description: [
          'Fills a format with `data` and makes the PDF. Answers 201 with the document once the PDF exists.',
          'With `Prefer: respond-async` it answers 202 at once, with a `Location` to poll.',
          'Send an `Idempotency-Key` (for example a UUID) to retry safely: a repeat within 24 hours answers the first result and generates nothing.',
          'A test key (`fw_test_…`) makes a watermarked PDF that does not count against the quota and is deleted after 7 days.',
        ].join('\n\n'),
        security,
        headers: z.object({
          prefer: z.string().optional().describe('`respond-async` for a 202 and a URL to poll.'),
          'idempotency-key': z.string().max(255).optional().describe('Makes a retry return the first result.'),
        }),
        body: ZV1CreateDocumentBody,
        response: {
          201: ZV1Document,
          202: ZV1PendingDocument,
          ...errors,
          422: ZApiError.describe('The document could not be made (`document_too_large`, `render_timeout`), or the Idempotency-Key was used with another body (`unprocessable`).'),
        },
      },
    },
    async (request, reply) => createDocument(request, reply, request.body),
  );

  api.get(
    `${API_V1_PREFIX}/documents`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'List documents',
        description:
          'Your documents, newest first, made in any way: in the app, from spreadsheets or by the API. A live key lists every document but those made with test keys; a test key lists only those.',
        security,
        querystring: ZV1DocumentListQuery,
        response: { 200: ZV1DocumentPage, ...errors },
      },
    },
    async (request) => {
      const { limit, cursor, formatId, createdAfter } = request.query;
      const { documents, rows } = await deps.documents.page(request.callerId, {
        limit: limit + 1,
        after: decodePageCursor(cursor),
        ...(formatId ? { formatId } : {}),
        ...(createdAfter ? { createdAfter: new Date(createdAfter) } : {}),
        scope: modeOf(request),
      });
      return { data: documents.slice(0, limit).map(toV1Document), nextCursor: pageOf(rows, limit).nextCursor };
    },
  );

  api.get(
    `${API_V1_PREFIX}/documents/:id`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'Get a document',
        description: 'The document; 202 while an asynchronous generation is still under way (poll again after `Retry-After` seconds).',
        security,
        params: ZIdParams,
        response: { 200: ZV1Document, 202: ZV1PendingDocument, ...errors, 422: ZApiError.describe('An asynchronous generation failed; the error says why.') },
      },
    },
    async (request, reply) => {
      const document = await deps.documents.get(request.callerId, request.params.id, modeOf(request));
      if (document) return reply.status(200).send(toV1Document(document));
      const pending = await deps.publicApi.asyncDocuments.get(request.callerId, request.params.id, modeOf(request));
      if (!pending) throw notFound('Document');
      if (pending.status === 'failed' && pending.error) {
        const code = ZErrorCode.safeParse(pending.error.code).data ?? 'unprocessable';
        throw new AppError(code, pending.error.message);
      }
      if (Date.now() - pending.createdAt.getTime() > ASYNC_LOST_AFTER_MS) {
        throw new AppError('unprocessable', 'The server stopped before this document was made. Send the request again.');
      }
      return reply.status(202).header('retry-after', '1').send({ id: pending.id, status: 'pending' as const });
    },
  );

  api.get(
    `${API_V1_PREFIX}/documents/:id/pdf`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'Download a document’s PDF',
        security,
        params: ZIdParams,
        produces: ['application/pdf'],
        response: { 200: z.any().describe('The PDF file (application/pdf).'), ...errors },
      },
    },
    async (request, reply) => {
      const { document, bytes } = await deps.documents.pdf(request.callerId, request.params.id, modeOf(request));
      return sendPdf(reply, bytes, document.name, 'attachment');
    },
  );

  api.delete(
    `${API_V1_PREFIX}/documents/:id`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'Delete a document',
        security,
        params: ZIdParams,
        response: { 204: z.null().describe('Deleted.'), ...errors, 409: ZApiError.describe('Its batch is still generating (`conflict`).') },
      },
    },
    async (request, reply) => {
      await deps.documents.delete(request.callerId, request.params.id, modeOf(request));
      return reply.status(204).send(null);
    },
  );

  api.post(
    `${API_V1_PREFIX}/documents/:id/email`,
    {
      schema: {
        tags: ['Email'],
        summary: 'Email a document',
        description: [
          'Queues an email with the document’s PDF attached (byte for byte the PDF of `GET …/pdf`) and answers 202 with the delivery; poll it for `sent` or `failed`.',
          `To and Cc together name at most 10 people; every recipient counts against your plan’s hourly send rate (429 \`rate_limited\` past it). The subject defaults to the document’s name. A PDF over 10 MB goes as a link that opens it without an account.`,
          'It goes out through your own mail server (Settings → Email) when you set one up, else through this installation’s; with neither, the answer is 422.',
          'Through this installation’s server, an account on the Free plan sends a standard subject and message that name the document and the sender: a `subject` or `message` of its own is refused with 403 `plan_limit`. Past the installation’s daily limit, 429 `rate_limited` with Retry-After until midnight UTC.',
        ].join('\n\n'),
        security,
        params: ZIdParams,
        body: ZEmailDocumentBody,
        response: {
          202: ZDelivery,
          ...errors,
          422: ZApiError.describe('No mail server is set up to send with (`unprocessable`).'),
        },
      },
    },
    async (request, reply) => {
      const delivery = await deps.deliveries.email(request.callerId, request.params.id, request.body, modeOf(request));
      return reply.status(202).header('location', url(`${API_V1_PREFIX}/deliveries/${delivery.id}`)).send(delivery);
    },
  );

  api.get(
    `${API_V1_PREFIX}/deliveries/:id`,
    {
      schema: {
        tags: ['Email'],
        summary: 'Get an email’s delivery',
        description: '`queued` (waiting, or retrying after a temporary failure at `nextAttemptAt`), `sending`, `sent` or `failed`, with the mail server’s own answer.',
        security,
        params: ZIdParams,
        response: { 200: ZDelivery, ...errors },
      },
    },
    async (request) => deps.deliveries.get(request.callerId, request.params.id, modeOf(request)),
  );

  api.post(
    `${API_V1_PREFIX}/batches`,
    {
      bodyLimit: 64 * 1024 * 1024,
      schema: {
        tags: ['Batches'],
        summary: 'Generate many documents',
        description: [
          `Generates one document per row (up to ${MAX_BATCH_ROWS.toLocaleString('en-US')}) in the background. Answers 202; poll the batch, then fetch \`zipUrl\`.`,
          'Send JSON rows keyed by placeholder name, or a multipart upload of an .xlsx, .xls or .csv file (field `file`, after the fields `formatId`, and optionally `skipInvalid` and `fileNamePattern`): its columns are matched to placeholders by their headers.',
          'Invalid rows refuse the batch unless `skipInvalid` is true.',
        ].join('\n\n'),
        security,
        body: ZV1CreateBatchBody,
        response: {
          202: ZV1Batch,
          ...errors,
          409: ZApiError.describe('The upload was already started (`conflict`).'),
          413: ZApiError.describe('The body or the file is too large (`payload_too_large`).'),
          415: ZApiError.describe('The file is not an .xlsx, .xls or .csv spreadsheet (`unsupported_media_type`).'),
        },
      },
      // A spreadsheet upload is read here and answered directly; JSON goes on to the schema.
      preValidation: async (request, reply) => {
        if (!request.isMultipart()) return;
        if (testMode(request)) throw testKeyBatches();
        const file = await readUploadedFile(request, {
          maxBytes: BULK_MAX_FILE_BYTES,
          tooLargeMessage: `The file is larger than ${BULK_MAX_FILE_BYTES / 1024 / 1024} MB. Split it into smaller files.`,
          missingHint: 'Attach an .xlsx, .xls or .csv file as the field "file", after the field "formatId".',
        });
        const formatId = file.fields.formatId;
        if (!formatId) throw new AppError('validation_failed', 'Send the field "formatId" before the file.', { formatId: 'Required.' });
        const job = await deps.bulk.startFromSpreadsheet(request.callerId, {
          formatId,
          file,
          skipInvalid: file.fields.skipInvalid === 'true',
          ...(file.fields.fileNamePattern ? { fileNamePattern: file.fields.fileNamePattern } : {}),
        });
        request.apiDocuments = job.total;
        return reply.status(202).header('location', url(`${API_V1_PREFIX}/batches/${job.id}`)).send(toV1Batch(job));
      },
    },
    async (request, reply) => {
      if (testMode(request)) throw testKeyBatches();
      return answerOnce(request, reply, deps.publicApi.idempotency, async () => {
        const job = await deps.bulk.startFromRows(request.callerId, request.body);
        request.apiDocuments = job.total;
        return { status: 202, body: toV1Batch(job), location: url(`${API_V1_PREFIX}/batches/${job.id}`) };
      });
    },
  );

  api.get(
    `${API_V1_PREFIX}/batches/:id`,
    {
      schema: { tags: ['Batches'], summary: 'Get a batch’s progress', security, params: ZIdParams, response: { 200: ZV1Batch, ...errors } },
    },
    async (request) => toV1Batch(await deps.bulk.get(request.callerId, request.params.id, modeOf(request))),
  );

  api.get(
    `${API_V1_PREFIX}/batches/:id/zip`,
    {
      schema: {
        tags: ['Batches'],
        summary: 'Download a batch’s PDFs as a ZIP',
        description: 'Streams the documents made so far; fetch it once the batch is `completed` for all of them.',
        security,
        params: ZIdParams,
        produces: ['application/zip'],
        response: { 200: z.any().describe('The ZIP file (application/zip).'), ...errors },
      },
    },
    async (request, reply) => {
      const { job, stream } = await deps.bulk.zip(request.callerId, request.params.id, modeOf(request));
      return sendFile(reply, stream, `${job.formatName} - ${job.done} documents.zip`, 'application/zip', 'attachment');
    },
  );

  api.get(
    `${API_V1_PREFIX}/batches/:id/errors`,
    {
      schema: {
        tags: ['Batches'],
        summary: 'List a batch’s row errors',
        description: 'The rows left out as invalid, or that failed, with the column and the reason.',
        security,
        params: ZIdParams,
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(500).default(100),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: { 200: ZV1BatchErrors, ...errors },
      },
    },
    async (request) => deps.bulk.rowErrors(request.callerId, request.params.id, request.query, modeOf(request)),
  );

  // The landing page's call, with its snake_case names: the same generation as POST /api/v1/documents.
  api.post(
    '/api/documents/generate',
    {
      schema: {
        tags: ['Documents'],
        summary: 'Generate a document (short form)',
        description: 'The call shown on the landing page: `template_id` is a format id. Same behaviour, keys and limits as `POST /api/v1/documents`.',
        security,
        body: ZGenerateBody,
        response: { 201: ZGenerateResult, ...errors, 422: ZApiError.describe('The document could not be made (`document_too_large`, `render_timeout`).') },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, deps.publicApi.idempotency, async () => {
        const document = await deps.documents.create(request.callerId, { formatId: request.body.template_id, data: request.body.data }, { testMode: testMode(request) });
        request.apiDocuments = 1;
        return {
          status: 201,
          body: { id: document.id, status: 'generated', document_url: `${documentUrl(document.id)}/pdf` },
          location: documentUrl(document.id),
        };
      }),
  );
}

const testKeyBatches = () =>
  new AppError('forbidden', 'Batches need a live key: test keys make single documents only. Use a key that starts with fw_live_.');
