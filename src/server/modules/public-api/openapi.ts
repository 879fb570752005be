import type { OpenAPIV3_1 } from 'openapi-types';
import { API_V1_PREFIX } from '../../../contract/public-api.ts';

type TDocument = OpenAPIV3_1.Document;

/** The parts of the OpenAPI document that no route states: who we are, where, and how keys are sent. */
export function publicApiDocumentBase(publicUrl: string): Partial<OpenAPIV3_1.Document> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Formwork API',
      version: '1.0.0',
      description: [
        'Generate PDF documents from your formats. Every call is authenticated with an API key from Settings → API Access, sent as `Authorization: Bearer <key>` or `X-API-Key: <key>`.',
        'Keys starting `fw_test_` make watermarked documents that do not count against your quota and are deleted after 7 days.',
        'Every answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; a 429 carries `Retry-After`. When the server is busy, a generation may be answered 503 with `Retry-After` before anything is done: wait that many seconds and send the same request again. Errors have one shape: `{ "error": { "code", "message", "fields"? } }`.',
      ].join('\n\n'),
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key as a bearer token.' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key in the X-API-Key header.' },
      },
    },
    tags: [
      { name: 'Formats', description: 'The templates documents are made from, and the placeholders each one fills in.' },
      { name: 'Documents', description: 'Generate one PDF, fetch it, list and delete documents.' },
      { name: 'Batches', description: 'Generate thousands of PDFs from JSON rows or a spreadsheet.' },
      { name: 'Email', description: 'Send a document by email, with its PDF attached, and follow the delivery.' },
      {
        name: 'Signature requests',
        description: 'Send a document for signature, follow each signer, and download the sealed PDF with its certificate of completion.',
      },
    ],
  };
}

/** Whether a path belongs to the public API (the rest is the web app's own). */
export const isPublicApiPath = (path: string) => path.startsWith(`${API_V1_PREFIX}/`) || path === '/api/documents/generate';

const STATUS_TEXT: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted: under way, poll the Location', '204': 'Done; no content' };

/** The whole document narrowed to the public API's paths, with a plain description on every answer. */
export function publicApiDocument(full: unknown): TDocument {
  const whole = full as TDocument;
  const paths = Object.fromEntries(
    Object.entries(whole.paths ?? {})
      .filter(([path]) => isPublicApiPath(path))
      .map(([path, item]) => [
        path,
        Object.fromEntries(
          Object.entries(item ?? {}).map(([method, operation]) => {
            if (typeof operation !== 'object' || operation === null || !('responses' in operation)) return [method, operation];
            const responses = Object.fromEntries(
              Object.entries((operation as OpenAPIV3_1.OperationObject).responses ?? {}).map(([status, response]) => [
                status,
                'description' in response && response.description === 'Default Response' && STATUS_TEXT[status]
                  ? { ...response, description: STATUS_TEXT[status] }
                  : response,
              ]),
            );
            return [method, { ...operation, responses }];
          }),
        ),
      ]),
  );
  return { ...whole, paths };
}
