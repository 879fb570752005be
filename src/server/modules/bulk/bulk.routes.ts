import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BULK_MAX_FILE_BYTES, ZBulkJob, ZBulkJobList, ZBulkRowErrorList, ZBulkUpload, ZStartBulkJobBody, ZUpdateMappingBody } from '../../../contract/bulk.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { readUploadedFile } from '../../http/uploaded-file.ts';
import { sendFile } from '../../http/send-file.ts';
import type { TBulkService } from './bulk.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 429: ZApiError };

export async function bulkRoutes(app: FastifyInstance, opts: { bulk: TBulkService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/formats/:id/bulk',
    { schema: { params: ZIdParams, response: { 201: ZBulkUpload, ...errors, 413: ZApiError, 415: ZApiError } } },
    async (request, reply) => {
      const ownerId = request.callerId;
      const file = await readUploadedFile(request, {
        maxBytes: BULK_MAX_FILE_BYTES,
        tooLargeMessage: `The file is larger than ${BULK_MAX_FILE_BYTES / 1024 / 1024} MB. Split it into smaller files.`,
        missingHint: 'Choose an .xlsx, .xls or .csv file.',
      });
      const upload = await opts.bulk.upload(ownerId, request.params.id, file, request.actorId);
      return reply.status(201).send(upload);
    },
  );

  api.get('/api/bulk-jobs/:id/draft', { schema: { params: ZIdParams, response: { 200: ZBulkUpload, ...errors } } }, async (request) =>
    opts.bulk.draft(request.callerId, request.params.id),
  );

  api.put(
    '/api/bulk-jobs/:id/mapping',
    { schema: { params: ZIdParams, body: ZUpdateMappingBody, response: { 200: ZBulkUpload, ...errors } } },
    async (request) => opts.bulk.updateMapping(request.callerId, request.params.id, request.body.mapping),
  );

  api.delete('/api/bulk-jobs/:id/draft', { schema: { params: ZIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.bulk.discard(request.callerId, request.params.id);
    return reply.status(204).send(null);
  });

  api.post(
    '/api/bulk-jobs/:id/start',
    { schema: { params: ZIdParams, body: ZStartBulkJobBody, response: { 202: ZBulkJob, ...errors } } },
    async (request, reply) => reply.status(202).send(await opts.bulk.start(request.callerId, request.params.id, request.body)),
  );

  api.get(
    '/api/bulk-jobs',
    {
      schema: {
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(200).default(50),
          offset: z.coerce.number().int().min(0).default(0),
          /** Only the batches this person started (a team's Recent Documents filters by member). */
          createdBy: z.string().min(1).max(64).optional(),
        }),
        response: { 200: ZBulkJobList, ...errors },
      },
    },
    async (request) => ({ jobs: await opts.bulk.list(request.callerId, request.query) }),
  );

  api.get('/api/bulk-jobs/:id', { schema: { params: ZIdParams, response: { 200: ZBulkJob, ...errors } } }, async (request) =>
    opts.bulk.get(request.callerId, request.params.id),
  );

  api.post('/api/bulk-jobs/:id/cancel', { schema: { params: ZIdParams, response: { 200: ZBulkJob, ...errors } } }, async (request) =>
    opts.bulk.cancel(request.callerId, request.params.id),
  );

  api.get(
    '/api/bulk-jobs/:id/errors',
    {
      schema: {
        params: ZIdParams,
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(500).default(100),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: { 200: ZBulkRowErrorList, ...errors },
      },
    },
    async (request) => opts.bulk.rowErrors(request.callerId, request.params.id, request.query),
  );

  api.get('/api/bulk-jobs/:id/errors.csv', { schema: { params: ZIdParams } }, async (request, reply) => {
    const { job, stream } = await opts.bulk.errorsCsv(request.callerId, request.params.id);
    return sendFile(reply, stream, `${job.formatName} - row errors.csv`, 'text/csv; charset=utf-8', 'attachment');
  });

  api.get('/api/bulk-jobs/:id/documents.pdf', { schema: { params: ZIdParams } }, async (request, reply) => {
    const { job, bytes } = await opts.bulk.mergedPdf(request.callerId, request.params.id);
    return sendFile(reply, bytes, `${job.formatName} - ${job.done} documents.pdf`, 'application/pdf', 'attachment');
  });

  api.get('/api/bulk-jobs/:id/documents.zip', { schema: { params: ZIdParams } }, async (request, reply) => {
    const { job, stream } = await opts.bulk.zip(request.callerId, request.params.id);
    return sendFile(reply, stream, `${job.formatName} - ${job.done} documents.zip`, 'application/zip', 'attachment');
  });
}
