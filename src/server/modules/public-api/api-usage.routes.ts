import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiUsage, ZApiUsageQuery } from '../../../contract/api-usage.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { sendFile } from '../../http/send-file.ts';
import type { TPublicApiService } from './public-api.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** Settings → API Access: the signed-in user's own usage. */
export async function apiUsageRoutes(app: FastifyInstance, opts: { publicApi: TPublicApiService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/user/api-usage', { schema: { querystring: ZApiUsageQuery, response: { 200: ZApiUsage, ...errors } } }, async (request) =>
    opts.publicApi.usage(request.callerId, request.query.keyId),
  );
  api.get('/api/user/api-usage.csv', { schema: { querystring: ZApiUsageQuery } }, async (request, reply) => {
    const csv = await opts.publicApi.usageCsv(request.callerId, request.query.keyId);
    return sendFile(reply, Buffer.from(csv), `Formwork API usage ${new Date().toISOString().slice(0, 10)}.csv`, 'text/csv; charset=utf-8', 'attachment');
  });
}

/** The admin panel: any user's usage. */
export async function adminApiUsageRoutes(app: FastifyInstance, opts: { publicApi: TPublicApiService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/admin/users/:id/api-usage',
    { schema: { params: ZIdParams, querystring: ZApiUsageQuery, response: { 200: ZApiUsage, ...errors } } },
    async (request) => opts.publicApi.usageOfUser(request.params.id, request.query.keyId),
  );
  api.get('/api/admin/users/:id/api-usage.csv', { schema: { params: ZIdParams, querystring: ZApiUsageQuery } }, async (request, reply) => {
    const csv = await opts.publicApi.usageCsvOfUser(request.params.id, request.query.keyId);
    return sendFile(reply, Buffer.from(csv), `Formwork API usage ${new Date().toISOString().slice(0, 10)}.csv`, 'text/csv; charset=utf-8', 'attachment');
  });
}
