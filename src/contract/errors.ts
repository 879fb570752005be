import { z } from 'zod';

/** Every non-2xx response from the server carries this body (docs/decisions.md). */
export const ZErrorCode = z.enum([
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'csrf_rejected',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'unprocessable',
  'render_timeout',
  'document_too_large',
  'storage_limit',
  'quota_exceeded',
  'plan_limit',
  'rate_limited',
  'internal',
  'unavailable',
]);
export type TErrorCode = z.infer<typeof ZErrorCode>;

export const ZApiError = z.object({
  error: z.object({
    code: ZErrorCode,
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type TApiError = z.infer<typeof ZApiError>;
