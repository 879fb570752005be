import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HTTP_STATUS_OF, type TApiError, type TErrorCode } from '../../contract/errors.ts';

import { AppError } from './app-error.ts';

/**
 * A 1,000-row list can fail in 20,000 cells; naming the first hundred tells a person or a client
 * what to fix, and keeps the answer (and the server's time writing it) small.
 */
export const MAX_ERROR_FIELDS = 100;

export function sendError(reply: FastifyReply, code: TErrorCode, message: string, fields?: Record<string, string>) {
  const named = fields ? Object.entries(fields) : [];
  const shown = named.length > MAX_ERROR_FIELDS ? Object.fromEntries(named.slice(0, MAX_ERROR_FIELDS)) : fields;
  const body: TApiError = { error: { code, message, ...(shown && named.length ? { fields: shown } : {}) } };
  return reply.status(HTTP_STATUS_OF[code]).type('application/json; charset=utf-8').send(body);
}

/** Zod issue paths become dotted field names, first message per field. */
function fieldsFromValidation(error: FastifyError): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return fields;
  for (const issue of error.validation) {
    const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
    fields[key] ??= issue.message ?? 'Invalid value';
  }
  return fields;
}

const FASTIFY_CODES: Record<string, { code: TErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'The request body is too large.' },
  FST_REQ_FILE_TOO_LARGE: { code: 'payload_too_large', message: 'The file is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'This content type is not supported here.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'bad_request', message: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'bad_request', message: 'The body is not valid JSON.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: 'bad_request', message: 'Expected a multipart upload.' },
};

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return sendError(reply, error.code, error.message, error.fields);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldsFromValidation(error);
      const first = Object.values(fields)[0];
      return sendError(reply, 'validation_failed', first ? `Invalid input: ${first}` : 'Invalid input.', fields);
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return sendError(reply, known.code, known.message);
    if (error.statusCode === 429) {
      return sendError(reply, 'rate_limited', error.message || 'Too many requests. Please slow down.');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Another 4xx from Fastify or a plugin: still the client's mistake, with its own status.
      const body: TApiError = { error: { code: 'bad_request', message: error.message } };
      return reply.status(error.statusCode).type('application/json; charset=utf-8').send(body);
    }
    request.log.error({ err: error }, 'unhandled error');
    // Internal details stay in the log; the client learns only that it was our fault.
    return sendError(reply, 'internal', 'Something went wrong on our side. Please try again.');
  });
}
