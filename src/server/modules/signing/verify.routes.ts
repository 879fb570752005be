import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZVerifyResult } from '../../../contract/signature-requests.ts';
import { readUploadedFile } from '../../http/uploaded-file.ts';
import type { TPdfVerifier } from './verify-pdf.ts';

/** A sealed PDF carries its certificate pages and drawn signatures; this leaves room for long documents. */
export const MAX_VERIFY_BYTES = 50 * 1024 * 1024;
/** Checks a person makes by hand; a script hashing files in bulk against the installation is slowed. */
const VERIFY_REQUESTS_PER_MINUTE = 20;

/**
 * Anyone holding a PDF may ask whether this installation sealed it: no account, no cookie read.
 * The answer names signers, so it is kept out of caches and search engines.
 */
export async function verifyRoutes(app: FastifyInstance, opts: { verifier: TPdfVerifier }) {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many checks from this address: at most ${context.max} a minute. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'private, no-store');
  });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/verify',
    {
      config: { rateLimit: { max: VERIFY_REQUESTS_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        description: 'Checks a PDF (multipart field "file", at most 50 MB): whether this installation sealed it, unchanged, and the request it completed.',
        response: { 200: ZVerifyResult, 400: ZApiError, 413: ZApiError, 415: ZApiError, 429: ZApiError },
      },
    },
    async (request) => {
      const { bytes } = await readUploadedFile(request, {
        maxBytes: MAX_VERIFY_BYTES,
        tooLargeMessage: 'The PDF is larger than 50 MB, more than any sealed document here.',
        missingHint: 'Choose the signed PDF.',
      });
      return opts.verifier.verify(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}
