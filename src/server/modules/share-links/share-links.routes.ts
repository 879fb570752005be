import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCreateShareLinkBody, ZSharedDocument, ZShareLink, ZShareToken } from '../../../contract/delivery.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { sendPdf } from '../../http/send-file.ts';
import type { TShareLinksService } from './share-links.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** The owner's side: make, list and revoke a document's links. */
export async function shareLinksRoutes(app: FastifyInstance, opts: { shareLinks: TShareLinksService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/documents/:id/share',
    { schema: { params: ZIdParams, body: ZCreateShareLinkBody, response: { 201: ZShareLink, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await opts.shareLinks.create(request.callerId, request.params.id, request.body.expiresInDays, { actorId: request.actorId })),
  );

  api.get('/api/documents/:id/share-links', { schema: { params: ZIdParams, response: { 200: z.array(ZShareLink), ...errors } } }, async (request) =>
    opts.shareLinks.ofDocument(request.callerId, request.params.id),
  );

  api.delete('/api/share-links/:id', { schema: { params: ZIdParams, response: { 200: ZShareLink, ...errors } } }, async (request) =>
    opts.shareLinks.revoke(request.callerId, request.params.id),
  );
}

/**
 * Anyone with a link: no cookie is read and no caller resolved. The answers are kept out of
 * caches and search engines, and an unknown, expired or revoked token is the same 404.
 */
export async function sharedDocumentRoutes(app: FastifyInstance, opts: { shareLinks: TShareLinksService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'private, no-store');
  });

  api.get('/api/share/:token', { schema: { params: ZShareToken, response: { 200: ZSharedDocument, 400: ZApiError, 404: ZApiError } } }, async (request) =>
    opts.shareLinks.view(request.params.token),
  );

  api.get(
    '/api/share/:token/pdf',
    { schema: { params: ZShareToken, querystring: z.object({ download: z.enum(['1']).optional() }) } },
    async (request, reply) => {
      const download = request.query.download === '1';
      const { name, bytes } = await opts.shareLinks.pdf(request.params.token, download);
      return sendPdf(reply, bytes, name, download ? 'attachment' : 'inline');
    },
  );
}
