import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import {
  ZAuditTrail,
  ZBatchSignatureBody,
  ZBatchSignatureProgress,
  ZBatchSignatureResult,
  ZCreateSignatureRequestBody,
  ZDeclineBody,
  ZSignatureRequest,
  ZSignatureRequestDetail,
  ZSignBody,
  ZSigningSession,
  ZSignResult,
  ZSignToken,
} from '../../../contract/signature-requests.ts';
import { sendPdf } from '../../http/send-file.ts';
import type { TCaller, TOwnerCaller } from './signing-context.ts';
import type { TSigningService } from './signing.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 422: ZApiError, 429: ZApiError };

/** Where a call came from, as the audit trail records it. */
export const callerOf = (request: FastifyRequest): TCaller => ({ ip: request.ip ?? null, userAgent: request.headers['user-agent']?.slice(0, 500) ?? null });
/** Someone in the workspace: the trail's address and browser, and who they are. */
export const ownerCallerOf = (request: FastifyRequest): TOwnerCaller => ({ ...callerOf(request), actorId: request.actorId });

/** The owner's side: send a document for signature, follow it, remind, cancel, download the sealed PDF. */
export async function signatureRequestsRoutes(app: FastifyInstance, opts: { signing: TSigningService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { signing } = opts;

  api.post(
    '/api/documents/:id/signature-requests',
    { schema: { params: ZIdParams, body: ZCreateSignatureRequestBody, response: { 201: ZSignatureRequest, ...errors } } },
    async (request, reply) => reply.status(201).send(await signing.create(request.callerId, request.params.id, request.body, ownerCallerOf(request))),
  );

  api.get(
    '/api/documents/:id/signature-requests',
    { schema: { params: ZIdParams, response: { 200: z.array(ZSignatureRequest), ...errors } } },
    async (request) => signing.ofDocument(request.callerId, request.params.id),
  );

  api.post(
    '/api/bulk-jobs/:id/signature-requests',
    { schema: { params: ZIdParams, body: ZBatchSignatureBody, response: { 200: ZBatchSignatureResult, ...errors } } },
    async (request) => signing.sendBatch(request.callerId, request.params.id, request.body, ownerCallerOf(request)),
  );

  api.get('/api/bulk-jobs/:id/signature-requests', { schema: { params: ZIdParams, response: { 200: ZBatchSignatureProgress, ...errors } } }, async (request) =>
    signing.batchProgress(request.callerId, request.params.id),
  );

  api.get('/api/signature-requests/:id', { schema: { params: ZIdParams, response: { 200: ZSignatureRequestDetail, ...errors } } }, async (request) =>
    signing.detail(request.callerId, request.params.id),
  );

  api.get('/api/signature-requests/:id/audit', { schema: { params: ZIdParams, response: { 200: ZAuditTrail, ...errors } } }, async (request) =>
    signing.audit(request.callerId, request.params.id),
  );

  api.get('/api/signature-requests/:id/pdf', { schema: { params: ZIdParams } }, async (request, reply) => {
    const { name, bytes } = await signing.sealedPdf(request.callerId, request.params.id);
    return sendPdf(reply, bytes, name, 'attachment');
  });

  api.post('/api/signature-requests/:id/remind', { schema: { params: ZIdParams, response: { 200: ZSignatureRequest, ...errors } } }, async (request) =>
    signing.remind(request.callerId, request.params.id, callerOf(request)),
  );

  api.post('/api/signature-requests/:id/cancel', { schema: { params: ZIdParams, response: { 200: ZSignatureRequest, ...errors } } }, async (request) =>
    signing.cancel(request.callerId, request.params.id, callerOf(request)),
  );
}

/**
 * The signer's side: anyone holding a link, with no account. No cookie is read; the answers are
 * kept out of caches and search engines, and every wrong link is the same 404.
 */
export async function signerRoutes(app: FastifyInstance, opts: { signing: TSigningService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { signing } = opts;
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'private, no-store');
  });

  api.get('/api/sign/:token', { schema: { params: ZSignToken, response: { 200: ZSigningSession, ...errors } } }, async (request) =>
    signing.session(request.params.token, callerOf(request)),
  );

  api.get('/api/sign/:token/pdf', { schema: { params: ZSignToken } }, async (request, reply) => {
    const { name, bytes } = await signing.pdf(request.params.token);
    return sendPdf(reply, bytes, name, 'inline');
  });

  // A drawn signature and drawn initials, as base64 PNGs, fit in 4 MB.
  api.post(
    '/api/sign/:token',
    { bodyLimit: 4 * 1024 * 1024, schema: { params: ZSignToken, body: ZSignBody, response: { 200: ZSignResult, ...errors } } },
    async (request) => signing.sign(request.params.token, request.body, callerOf(request)),
  );

  api.post('/api/sign/:token/decline', { schema: { params: ZSignToken, body: ZDeclineBody, response: { 200: ZSignResult, ...errors } } }, async (request) =>
    signing.decline(request.params.token, request.body, callerOf(request)),
  );
}
