import { ZFormatInput, ZIdParams } from '../../../contract/formats.ts';
import { API_V1_PREFIX, ZPageQuery, ZV1Format, ZV1FormatPage } from '../../../contract/public-api.ts';
import { answerOnce } from './idempotency.ts';
import { errors, security, type TV1Routes } from './v1-routes-common.ts';

export function v1FormatRoutes({ api, v1, idempotency }: TV1Routes) {
  api.get(
    `${API_V1_PREFIX}/formats`,
    {
      schema: {
        tags: ['Formats'],
        summary: 'List formats',
        description: 'Your formats, newest first, with the placeholders each one fills in.',
        security,
        querystring: ZPageQuery,
        response: { 200: ZV1FormatPage, ...errors },
      },
    },
    async (request) => v1.formats.list(request.callerId, request.query),
  );

  api.get(
    `${API_V1_PREFIX}/formats/:id`,
    {
      schema: {
        tags: ['Formats'],
        summary: 'Get a format',
        description:
          'One format with its content and placeholders: everything needed to build the `data` of a document. `example` is such a `data` object, ready to send to `POST /api/v1/documents`.',
        security,
        params: ZIdParams,
        response: { 200: ZV1Format, ...errors },
      },
    },
    async (request) => v1.formats.get(request.callerId, request.params.id),
  );

  api.post(
    `${API_V1_PREFIX}/formats`,
    {
      schema: {
        tags: ['Formats'],
        summary: 'Create a format',
        description: 'Creates a format from content JSON, checked exactly as the builder checks it. Send an `Idempotency-Key` to retry safely.',
        security,
        body: ZFormatInput,
        response: { 201: ZV1Format, ...errors },
      },
    },
    async (request, reply) => answerOnce(request, reply, idempotency, () => v1.formats.create(request.callerId, request.body)),
  );
}
