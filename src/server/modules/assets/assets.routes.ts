import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZImageFromUrlBody } from '../../../contract/format-content.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { readUploadedFile } from '../../http/uploaded-file.ts';
import type { TAssetsService } from './assets.service.ts';

export const MAX_IMAGE_UPLOAD_BYTES = 10 * 1024 * 1024;

export async function assetsRoutes(app: FastifyInstance, opts: { assets: TAssetsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/upload/image',
    { schema: { response: { 200: z.object({ url: z.string() }), 400: ZApiError, 401: ZApiError, 413: ZApiError, 415: ZApiError } } },
    async (request) => {
      const { bytes } = await readUploadedFile(request, {
        maxBytes: MAX_IMAGE_UPLOAD_BYTES,
        tooLargeMessage: `The image is larger than ${MAX_IMAGE_UPLOAD_BYTES / 1024 / 1024} MB.`,
        missingHint: 'Choose an image to upload.',
        field: 'image',
      });
      return opts.assets.upload(request.callerId, bytes);
    },
  );

  api.post(
    '/api/assets/from-url',
    {
      schema: {
        body: ZImageFromUrlBody,
        response: { 200: z.object({ url: z.string() }), 400: ZApiError, 401: ZApiError, 415: ZApiError, 422: ZApiError, 429: ZApiError },
      },
    },
    async (request) => opts.assets.fromUrl(request.callerId, request.body.url),
  );

  api.get('/api/assets/:id', { schema: { params: ZIdParams } }, async (request, reply) => {
    const row = await opts.assets.get(request.callerId, request.params.id);
    return reply.type(row.mimeType).header('cache-control', 'private, max-age=31536000, immutable').header('etag', `"${row.sha256}"`).send(row.bytes);
  });
}
