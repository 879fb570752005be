import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSealSettings, ZSealUpload, ZTimestampUrlInput } from '../../../contract/admin.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { createDocumentSeal } from './document-seal.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

/** Admin Panel → Settings → Document seal. */
export async function documentSealRoutes(app: FastifyInstance, opts: Parameters<typeof createDocumentSeal>[0]) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const seal = createDocumentSeal(opts);

  api.get('/api/admin/seal', { schema: { response: { 200: ZSealSettings, ...errors } } }, async () => seal.settings());

  api.put('/api/admin/seal/timestamp-url', { schema: { body: ZTimestampUrlInput, response: { 200: ZSealSettings, ...errors } } }, async (request) =>
    seal.saveTimestampUrl(request.callerId, request.body.timestampUrl),
  );

  api.post('/api/admin/seal/certificate', { schema: { body: ZSealUpload, response: { 200: ZSealSettings, ...errors } } }, async (request) =>
    seal.upload(request.callerId, request.body),
  );
}
