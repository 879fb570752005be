import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZDelivery,
  ZDeliveryWithDocument,
  ZEmailDocumentBody,
  ZMailMerge,
  ZMailMergeBody,
  ZMailMergeOptions,
  ZMailMergePreview,
  ZMailMergeRowPage,
  ZMailMergeRowsQuery,
} from '../../../contract/delivery.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import type { TDeliveriesService } from './deliveries.service.ts';
import type { TMailMergeService } from './mail-merge.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 422: ZApiError, 429: ZApiError };

/** Emailing a document, and the log of every email. */
export async function deliveriesRoutes(app: FastifyInstance, opts: { deliveries: TDeliveriesService; mailMerge: TMailMergeService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/documents/:id/email',
    { schema: { params: ZIdParams, body: ZEmailDocumentBody, response: { 202: ZDelivery, ...errors } } },
    async (request, reply) => reply.status(202).send(await opts.deliveries.email(request.callerId, request.params.id, request.body, request.actorId)),
  );

  api.get('/api/documents/:id/deliveries', { schema: { params: ZIdParams, response: { 200: z.array(ZDelivery), ...errors } } }, async (request) =>
    opts.deliveries.ofDocument(request.callerId, request.params.id),
  );

  api.get(
    '/api/deliveries',
    {
      schema: {
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: { 200: z.array(ZDeliveryWithDocument), ...errors },
      },
    },
    async (request) => opts.deliveries.recent(request.callerId, request.query.limit),
  );

  api.get('/api/deliveries/:id', { schema: { params: ZIdParams, response: { 200: ZDelivery, ...errors } } }, async (request) =>
    opts.deliveries.get(request.callerId, request.params.id),
  );

  // Mail merge: "Email each document" of a finished batch.
  api.get('/api/bulk-jobs/:id/mail-merge', { schema: { params: ZIdParams, response: { 200: ZMailMergeOptions, ...errors } } }, async (request) =>
    opts.mailMerge.options(request.callerId, request.params.id),
  );

  api.post(
    '/api/bulk-jobs/:id/mail-merge/preview',
    { schema: { params: ZIdParams, body: ZMailMergeBody, response: { 200: ZMailMergePreview, ...errors } } },
    async (request) => opts.mailMerge.preview(request.callerId, request.params.id, request.body),
  );

  api.post(
    '/api/bulk-jobs/:id/mail-merge',
    { schema: { params: ZIdParams, body: ZMailMergeBody, response: { 200: ZMailMerge, 201: ZMailMerge, ...errors, 409: ZApiError } } },
    async (request, reply) => {
      const { merge, created } = await opts.mailMerge.start(request.callerId, request.params.id, request.body, request.actorId);
      return reply.status(created ? 201 : 200).send(merge);
    },
  );

  api.get(
    '/api/bulk-jobs/:id/mail-merge/rows',
    { schema: { params: ZIdParams, querystring: ZMailMergeRowsQuery, response: { 200: ZMailMergeRowPage, ...errors } } },
    async (request) => opts.mailMerge.rows(request.callerId, request.params.id, request.query),
  );
}
