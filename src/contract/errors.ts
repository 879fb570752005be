import { z } from 'zod';

/** Every non-2xx response from the server carries this body (docs/decisions.md). */
export const ZErrorCode = z.enum([
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'email_unverified',
  'two_factor_required',
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
  'payment_failed',
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

/** The one table from an error code to its HTTP status. */
export const HTTP_STATUS_OF: Record<TErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  email_unverified: 403,
  two_factor_required: 403,
  csrf_rejected: 403,
  plan_limit: 403,
  payment_failed: 402,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  storage_limit: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  render_timeout: 422,
  document_too_large: 422,
  quota_exceeded: 429,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

/** What each code means to an API client: the reference page lists these. */
export const ERROR_CODE_MEANING: Record<TErrorCode, string> = {
  bad_request: 'The request is malformed: not JSON, a wrong header, a cursor this API did not give.',
  validation_failed: 'A value is missing or invalid; `fields` names each one.',
  unauthorized: 'No API key, or a wrong or revoked one.',
  forbidden: 'The key may not do this (test keys cannot start batches).',
  email_unverified: 'The account’s email address is not verified yet, so it may not send email, share links or create API keys.',
  two_factor_required: 'This installation asks administrators to use two-factor sign-in; set it up under Settings → Profile first.',
  csrf_rejected: 'A browser request from another site (never for API keys).',
  plan_limit: 'The plan does not include this (API access needs Enterprise).',
  not_found: 'Nothing with this id belongs to you.',
  conflict: 'The resource is busy or in another state; retry later.',
  payload_too_large: 'The body or file is larger than allowed.',
  unsupported_media_type: 'The file type or content type is not accepted.',
  unprocessable: 'Understood but not possible: an Idempotency-Key reused with another body, a failed background document.',
  render_timeout: 'The document took too long to render.',
  document_too_large: 'The filled-in document holds more text than a document may.',
  storage_limit: 'Your images would exceed the plan’s storage.',
  quota_exceeded: 'The monthly document quota is used up.',
  payment_failed: 'The payment provider declined the charge (a subscription change in the app).',
  rate_limited: 'Too many requests this minute; wait for Retry-After seconds.',
  internal: 'Our fault. Retry; the same Idempotency-Key is safe.',
  unavailable:
    'The server is busy, or a service it needs is briefly down. With a `Retry-After` header, nothing was done: send the same request again after that many seconds.',
};
