import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { ZCreatedWebhookEndpoint, ZCreateWebhookBody, ZWebhookDelivery, ZWebhookEndpoint } from '../../../contract/webhooks.ts';
import type { TWebhooksService } from './webhooks.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

/** Settings → API Access → Webhooks: the signed-in user's endpoints and their delivery log. */
export async function webhooksRoutes(app: FastifyInstance, opts: { webhooks: TWebhooksService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/user/webhooks', { schema: { response: { 200: z.array(ZWebhookEndpoint), ...errors } } }, async (request) =>
    opts.webhooks.list(request.callerId),
  );
  api.post('/api/user/webhooks', { schema: { body: ZCreateWebhookBody, response: { 201: ZCreatedWebhookEndpoint, ...errors } } }, async (request, reply) =>
    reply.status(201).send(await opts.webhooks.create(request.callerId, request.body)),
  );
  api.delete('/api/user/webhooks/:id', { schema: { params: ZIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.webhooks.delete(request.callerId, request.params.id);
    return reply.status(204).send(null);
  });
  api.post('/api/user/webhooks/:id/enable', { schema: { params: ZIdParams, response: { 200: ZWebhookEndpoint, ...errors } } }, async (request) =>
    opts.webhooks.enable(request.callerId, request.params.id),
  );
  api.post(
    '/api/user/webhooks/:id/test',
    { schema: { params: ZIdParams, response: { 202: ZWebhookDelivery, ...errors, 429: ZApiError } } },
    async (request, reply) => reply.status(202).send(await opts.webhooks.sendTest(request.callerId, request.params.id)),
  );
  api.get('/api/user/webhooks/:id/deliveries', { schema: { params: ZIdParams, response: { 200: z.array(ZWebhookDelivery), ...errors } } }, async (request) =>
    opts.webhooks.deliveries(request.callerId, request.params.id),
  );
}
