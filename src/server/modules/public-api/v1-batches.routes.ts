import { z } from 'zod';
import { BULK_MAX_FILE_BYTES } from '../../../contract/bulk.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { API_V1_PREFIX, MAX_BATCH_ROWS, ZV1Batch, ZV1BatchErrors, ZV1CreateBatchBody } from '../../../contract/public-api.ts';
import { sendFile } from '../../http/send-file.ts';
import { readUploadedFile } from '../../http/uploaded-file.ts';
import { answerOnce } from './idempotency.ts';
import { refuseTestKeyBatches } from './v1-batches.ts';
import { errors, modeOf, security, type TV1Routes } from './v1-routes-common.ts';

export function v1BatchRoutes({ api, v1, idempotency }: TV1Routes) {
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
        refuseTestKeyBatches(modeOf(request));
        const file = await readUploadedFile(request, {
          maxBytes: BULK_MAX_FILE_BYTES,
          tooLargeMessage: `The file is larger than ${BULK_MAX_FILE_BYTES / 1024 / 1024} MB. Split it into smaller files.`,
          missingHint: 'Attach an .xlsx, .xls or .csv file as the field "file", after the field "formatId".',
        });
        const answer = await v1.batches.startFromSpreadsheet(request.callerId, file);
        request.apiDocuments = answer.documents;
        return reply.status(answer.status).header('location', answer.location).send(answer.body);
      },
    },
    async (request, reply) => {
      refuseTestKeyBatches(modeOf(request));
      return answerOnce(request, reply, idempotency, async () => {
        const { documents, ...answer } = await v1.batches.startFromRows(request.callerId, request.body);
        request.apiDocuments = documents;
        return answer;
      });
    },
  );

  api.get(
    `${API_V1_PREFIX}/batches/:id`,
    {
      schema: { tags: ['Batches'], summary: 'Get a batch’s progress', security, params: ZIdParams, response: { 200: ZV1Batch, ...errors } },
    },
    async (request) => v1.batches.get(request.callerId, request.params.id, modeOf(request)),
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
      const { job, stream } = await v1.batches.zip(request.callerId, request.params.id, modeOf(request));
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
    async (request) => v1.batches.rowErrors(request.callerId, request.params.id, request.query, modeOf(request)),
  );
}
