import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import {
  API_V1_PREFIX,
  PREFER_ASYNC,
  ZGenerateBody,
  ZGenerateResult,
  ZV1CreateDocumentBody,
  ZV1Document,
  ZV1DocumentListQuery,
  ZV1DocumentPage,
  ZV1PendingDocument,
} from '../../../contract/public-api.ts';
import { sendPdf } from '../../http/send-file.ts';
import { answerOnce } from './idempotency.ts';
import { busy, callerOf, errors, security, type TV1Routes } from './v1-routes-common.ts';
import { GENERATION_ANSWER } from '../../http/load-shedding.ts';

export function v1DocumentRoutes({ api, v1, idempotency }: TV1Routes) {
  api.post(
    `${API_V1_PREFIX}/documents`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'Generate a document',
        description: [
          'Fills a format with `data` and makes the PDF. Answers 201 with the document once the PDF exists.',
          'With `Prefer: respond-async` it answers 202 at once, with a `Location` to poll.',
          'Send an `Idempotency-Key` (for example a UUID) to retry safely: a repeat within 24 hours answers the first result and generates nothing.',
          'A test key (`fw_test_…`) makes a watermarked PDF that does not count against the quota and is deleted after 7 days.',
        ].join('\n\n'),
        security,
        headers: z.object({
          prefer: z.string().optional().describe('`respond-async` for a 202 and a URL to poll.'),
          'idempotency-key': z.string().max(255).optional().describe('Makes a retry return the first result.'),
        }),
        body: ZV1CreateDocumentBody,
        response: {
          201: ZV1Document,
          202: ZV1PendingDocument,
          ...errors,
          ...busy,
          422: ZApiError.describe(
            'The document could not be made (`document_too_large`, `render_timeout`), or the Idempotency-Key was used with another body (`unprocessable`).',
          ),
        },
      },
      ...GENERATION_ANSWER,
    },
    async (request, reply) => {
      const prefer = String(request.headers.prefer ?? '').toLowerCase();
      const respondAsync = prefer.split(/[,;]/).some((part) => part.trim() === PREFER_ASYNC);
      return answerOnce(request, reply, idempotency, async () => {
        const answer = await v1.documents.create(callerOf(request), request.body, respondAsync);
        request.apiDocuments = 1;
        if (answer.status === 202) reply.header('retry-after', '1');
        return answer;
      });
    },
  );

  api.get(
    `${API_V1_PREFIX}/documents`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'List documents',
        description:
          'Your documents, newest first, made in any way: in the app, from spreadsheets or by the API. A live key lists every document but those made with test keys; a test key lists only those.',
        security,
        querystring: ZV1DocumentListQuery,
        response: { 200: ZV1DocumentPage, ...errors },
      },
    },
    async (request) => v1.documents.list(callerOf(request), request.query),
  );

  api.get(
    `${API_V1_PREFIX}/documents/:id`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'Get a document',
        description: 'The document; 202 while an asynchronous generation is still under way (poll again after `Retry-After` seconds).',
        security,
        params: ZIdParams,
        response: { 200: ZV1Document, 202: ZV1PendingDocument, ...errors, 422: ZApiError.describe('An asynchronous generation failed; the error says why.') },
      },
    },
    async (request, reply) => {
      const answer = await v1.documents.get(callerOf(request), request.params.id);
      if (answer.status === 202) return reply.status(202).header('retry-after', '1').send(answer.body);
      return reply.status(200).send(answer.body);
    },
  );

  api.get(
    `${API_V1_PREFIX}/documents/:id/pdf`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'Download a document’s PDF',
        security,
        params: ZIdParams,
        produces: ['application/pdf'],
        response: { 200: z.any().describe('The PDF file (application/pdf).'), ...errors },
      },
    },
    async (request, reply) => {
      const { document, bytes } = await v1.documents.pdf(callerOf(request), request.params.id);
      return sendPdf(reply, bytes, document.name, 'attachment');
    },
  );

  api.delete(
    `${API_V1_PREFIX}/documents/:id`,
    {
      schema: {
        tags: ['Documents'],
        summary: 'Delete a document',
        security,
        params: ZIdParams,
        response: { 204: z.null().describe('Deleted.'), ...errors, 409: ZApiError.describe('Its batch is still generating (`conflict`).') },
      },
    },
    async (request, reply) => {
      await v1.documents.delete(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}

/** The landing page's call, with its snake_case names: the same generation as POST /api/v1/documents. */
export function landingPageGenerateRoute({ api, v1, idempotency }: TV1Routes) {
  api.post(
    '/api/documents/generate',
    {
      schema: {
        tags: ['Documents'],
        summary: 'Generate a document (short form)',
        description: 'The call shown on the landing page: `template_id` is a format id. Same behaviour, keys and limits as `POST /api/v1/documents`.',
        security,
        body: ZGenerateBody,
        response: {
          201: ZGenerateResult,
          ...errors,
          ...busy,
          422: ZApiError.describe('The document could not be made (`document_too_large`, `render_timeout`).'),
        },
      },
      ...GENERATION_ANSWER,
    },
    async (request, reply) =>
      answerOnce(request, reply, idempotency, async () => {
        const answer = await v1.documents.generate(callerOf(request), request.body);
        request.apiDocuments = 1;
        return answer;
      }),
  );
}
