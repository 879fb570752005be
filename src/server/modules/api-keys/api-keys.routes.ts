import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiKey, ZCreateApiKeyBody, ZCreatedApiKey, ZGeneratedApiKey } from '../../../contract/api-keys.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import type { TApiKeysService } from './api-keys.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

export async function apiKeysRoutes(app: FastifyInstance, opts: { keys: TApiKeysService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/user/api-keys', { schema: { response: { 200: z.array(ZApiKey), ...errors } } }, async (request) => opts.keys.list(request.callerId));

  api.post('/api/user/api-keys', { schema: { body: ZCreateApiKeyBody, response: { 201: ZCreatedApiKey, ...errors } } }, async (request, reply) =>
    reply.status(201).send(await opts.keys.create(request.callerId, request.actorId, request.body)),
  );

  api.delete('/api/user/api-keys/:id', { schema: { params: ZIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.keys.revoke(request.callerId, request.params.id);
    return reply.status(204).send(null);
  });

  // The original one-button call: a live key named "Default".
  api.post('/api/user/generate-api-key', { schema: { response: { 200: ZGeneratedApiKey, ...errors } } }, async (request) => {
    const { id, key, last4 } = await opts.keys.create(request.callerId, request.actorId, { name: 'Default', mode: 'live' });
    return { id, key, last4 };
  });
}
