import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZFilledPreviewBody } from '../../../contract/documents.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZFormat, ZFormatInput, ZIdParams } from '../../../contract/formats.ts';
import { admitBeforeBody } from '../../http/in-flight.ts';
import { sendFile, sendPdf } from '../../http/send-file.ts';
import type { TFormatsService } from './formats.service.ts';
import { SHED_UNDER_LOAD } from '../../http/load-shedding.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

export async function formatsRoutes(app: FastifyInstance, opts: { formats: TFormatsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/formats', { schema: { response: { 200: z.array(ZFormat), ...errors } } }, async (request) => opts.formats.list(request.callerId));

  api.get('/api/formats/:id', { schema: { params: ZIdParams, response: { 200: ZFormat, ...errors } } }, async (request) =>
    opts.formats.get(request.callerId, request.params.id),
  );

  api.post('/api/formats', { schema: { body: ZFormatInput, response: { 201: ZFormat, ...errors } } }, async (request, reply) => {
    const format = await opts.formats.create(request.callerId, request.body, request.actorId);
    return reply.status(201).send(format);
  });

  // Previews past the user's rate, or too many at once, are refused before their (possibly large)
  // body is read and parsed.
  const previewRate = admitBeforeBody((request, bodyBytes) => opts.formats.admitPreview(request.callerId, bodyBytes));

  api.post('/api/formats/preview', { schema: { body: ZFormatInput, response: errors }, ...previewRate, ...SHED_UNDER_LOAD }, async (request, reply) => {
    const bytes = await opts.formats.previewUnsaved(request.callerId, request.body);
    return sendPdf(reply, bytes, `${request.body.name} (preview)`, 'inline');
  });

  api.put('/api/formats/:id', { schema: { params: ZIdParams, body: ZFormatInput, response: { 200: ZFormat, ...errors } } }, async (request) =>
    opts.formats.update(request.callerId, request.params.id, request.body),
  );

  api.delete('/api/formats/:id', { schema: { params: ZIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.formats.delete(request.callerId, request.params.id);
    return reply.status(204).send(null);
  });

  api.get('/api/formats/:id/preview', { schema: { params: ZIdParams }, ...previewRate, ...SHED_UNDER_LOAD }, async (request, reply) => {
    const userId = request.callerId;
    const format = await opts.formats.get(userId, request.params.id);
    const bytes = await opts.formats.preview(userId, request.params.id);
    return sendPdf(reply, bytes, `${format.name} (preview)`, 'inline');
  });

  api.post(
    '/api/formats/:id/preview',
    { schema: { params: ZIdParams, body: ZFilledPreviewBody, response: errors }, ...previewRate, ...SHED_UNDER_LOAD },
    async (request, reply) => {
      const userId = request.callerId;
      const format = await opts.formats.get(userId, request.params.id);
      const bytes = await opts.formats.previewFilled(userId, request.params.id, request.body.data);
      return sendPdf(reply, bytes, `${format.name} (preview)`, 'inline');
    },
  );

  api.get('/api/formats/:id/excel-template', { schema: { params: ZIdParams } }, async (request, reply) => {
    const { name, bytes } = await opts.formats.excelTemplate(request.callerId, request.params.id);
    return sendFile(reply, bytes, `${name} - data template.xlsx`, XLSX_TYPE, 'attachment');
  });
}
