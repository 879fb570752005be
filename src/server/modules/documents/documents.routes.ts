import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCreateDocumentBody, ZDocument, ZDocumentListQuery } from '../../../contract/documents.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { notFound } from '../../http/app-error.ts';
import { admitBeforeBody } from '../../http/in-flight.ts';
import { sendPdf } from '../../http/send-file.ts';
import type { TDocumentsService } from './documents.service.ts';
import { GENERATION_ANSWER } from '../../http/load-shedding.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 429: ZApiError };

export async function documentsRoutes(app: FastifyInstance, opts: { documents: TDocumentsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/documents',
    {
      schema: {
        querystring: ZDocumentListQuery,
        response: { 200: z.array(ZDocument), ...errors },
      },
    },
    async (request) => opts.documents.list(request.callerId, request.query),
  );

  api.post(
    '/api/documents',
    {
      schema: { body: ZCreateDocumentBody, response: { 201: ZDocument, ...errors } },
      // A user who keeps sending data that fails, or sends many at once, is refused before a large
      // body is read and parsed.
      ...admitBeforeBody((request, bodyBytes) => opts.documents.admit(request.callerId, bodyBytes)),
      ...GENERATION_ANSWER,
    },
    async (request, reply) => reply.status(201).send(await opts.documents.create(request.callerId, request.body, { createdBy: request.actorId })),
  );

  api.get('/api/documents/:id', { schema: { params: ZIdParams, response: { 200: ZDocument, ...errors } } }, async (request) => {
    const document = await opts.documents.get(request.callerId, request.params.id);
    if (!document) throw notFound('Document');
    return document;
  });

  api.delete('/api/documents/:id', { schema: { params: ZIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.documents.delete(request.callerId, request.params.id);
    return reply.status(204).send(null);
  });

  for (const [suffix, disposition] of [
    ['preview', 'inline'],
    ['download', 'attachment'],
  ] as const) {
    api.get(`/api/documents/:id/${suffix}`, { schema: { params: ZIdParams } }, async (request, reply) => {
      const { document, bytes } = await opts.documents.pdf(request.callerId, request.params.id);
      return sendPdf(reply, bytes, document.name, disposition);
    });
  }
}
