import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAccountExport, ZAccountExportStatus, ZDeleteAccountBody } from '../../../contract/account-data.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { sendFile } from '../../http/send-file.ts';
import type { TAccountDeletion } from './account-deletion.ts';
import type { TAccountExportService } from './account-export.ts';

const errors = { 400: ZApiError, 401: ZApiError, 404: ZApiError, 409: ZApiError, 429: ZApiError, 503: ZApiError };

/** Settings → Profile → Your data: the export of everything, and deleting the account. */
export async function accountDataRoutes(app: FastifyInstance, opts: { exports: TAccountExportService; deletion: TAccountDeletion; secureCookies: boolean }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/user/export', { schema: { response: { 202: ZAccountExport, ...errors } } }, async (request, reply) => {
    const started = await opts.exports.start(request.callerId);
    if (started.kind === 'background') return reply.status(202).send(started.export);
    return sendFile(reply, started.stream, started.fileName, 'application/zip', 'attachment');
  });

  api.get('/api/user/exports/status', { schema: { response: { 200: ZAccountExportStatus, 401: ZApiError } } }, async (request) =>
    opts.exports.status(request.callerId),
  );

  api.get('/api/user/exports/:id/download', { schema: { params: ZIdParams } }, async (request, reply) => {
    const { stream, fileName } = await opts.exports.download(request.callerId, request.params.id);
    return sendFile(reply, stream, fileName, 'application/zip', 'attachment');
  });

  api.delete('/api/user', { schema: { body: ZDeleteAccountBody, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.deletion.deleteOwn(request.callerId, request.body, { ip: request.ip, headers: request.headers });
    // The session row is gone already; the browser forgets the cookie too.
    const name = `${opts.secureCookies ? '__Secure-' : ''}formwork.session_token`;
    reply.header('set-cookie', `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${opts.secureCookies ? '; Secure' : ''}`);
    return reply.status(204).send(null);
  });
}
