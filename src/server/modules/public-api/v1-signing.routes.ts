import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { API_V1_PREFIX } from '../../../contract/public-api.ts';
import { ZAuditTrail, ZSignatureRequest, ZSignatureRequestDetail, ZV1CreateSignatureRequestBody } from '../../../contract/signature-requests.ts';
import { sendPdf } from '../../http/send-file.ts';
import { callerOf as signingCallerOf } from '../signing/index.ts';
import { answerOnce } from './idempotency.ts';
import { callerOf, errors, security, type TV1Routes } from './v1-routes-common.ts';

const tags = ['Signature requests'];
const ended = { 409: ZApiError.describe('The request has already ended, or is not complete yet (`conflict`).') };

export function v1SigningRoutes({ api, v1, idempotency }: TV1Routes) {
  const signing = v1.signing;
  api.post(
    `${API_V1_PREFIX}/signature-requests`,
    {
      schema: {
        tags,
        summary: 'Send a document for signature',
        description: [
          'Sends a document already made (`documentId`), or one made now from `formatId` and `data` (counted as a document), to its signers. The first `signers` fill the format’s “Signer 1”, “Signer 2”, … fields; a format without signing fields can still be sent, and the signatures then appear on the certificate page.',
          'Signers with equal `order` sign side by side; a higher order waits until every lower one has signed. Each signer gets an email with their own link (`signUrl`, also in the answer for handing over another way). When everyone has signed, every signer and `cc` address receives the sealed PDF, and `GET …/pdf` answers it.',
          'Needs a live key, and a mail server (yours under Settings → Email, or this installation’s). Counts against the plan’s signature requests a month. Send an `Idempotency-Key` to retry safely.',
        ].join('\n\n'),
        security,
        body: ZV1CreateSignatureRequestBody,
        response: {
          201: ZSignatureRequest,
          ...errors,
          409: ZApiError.describe('The document is already out for signature (`conflict`).'),
          422: ZApiError.describe('No mail server is set up to email signers (`unprocessable`).'),
        },
      },
    },
    async (request, reply) => answerOnce(request, reply, idempotency, () => signing.create(callerOf(request), request.body, signingCallerOf(request))),
  );

  api.get(
    `${API_V1_PREFIX}/signature-requests/:id`,
    {
      schema: {
        tags,
        summary: 'Get a signature request',
        description:
          'Its status (`sent`, `partly_signed`, `completed`, `declined`, `expired`, `cancelled`), each signer’s status and times, and the audit trail.',
        security,
        params: ZIdParams,
        response: { 200: ZSignatureRequestDetail, ...errors },
      },
    },
    async (request) => signing.detail(callerOf(request), request.params.id),
  );

  api.get(
    `${API_V1_PREFIX}/signature-requests/:id/audit`,
    {
      schema: {
        tags,
        summary: 'Get a request’s audit trail',
        description:
          'Every event (created, sent, delivered, opened, consented, signed, declined, reminded, expired, cancelled, sealed, completed) with its time (UTC), IP, user agent and the document’s SHA-256. Each event carries the hash of the one before; `intact` says whether the chain is whole.',
        security,
        params: ZIdParams,
        response: { 200: ZAuditTrail, ...errors },
      },
    },
    async (request) => signing.audit(callerOf(request), request.params.id),
  );

  api.get(
    `${API_V1_PREFIX}/signature-requests/:id/pdf`,
    {
      schema: {
        tags,
        summary: 'Download the sealed PDF',
        description:
          'The signed document with its certificate of completion, sealed with a PAdES signature; 409 until everyone has signed. `POST /api/verify` (or the /verify page) checks a copy.',
        security,
        params: ZIdParams,
        response: { 200: z.any().describe('The sealed PDF (application/pdf).'), ...errors, ...ended },
      },
    },
    async (request, reply) => {
      const { name, bytes } = await signing.sealedPdf(callerOf(request), request.params.id);
      return sendPdf(reply, bytes, name, 'attachment');
    },
  );

  for (const [action, summary, description] of [
    [
      'remind',
      'Remind the signers',
      'Emails a reminder now to every signer whose turn it is and who has not signed; at most once an hour per signer (429 otherwise).',
    ],
    ['cancel', 'Cancel a signature request', 'Ends an open request: its signing links stop working and the document is as it was before it was sent.'],
  ] as const) {
    api.post(
      `${API_V1_PREFIX}/signature-requests/:id/${action}`,
      { schema: { tags, summary, description, security, params: ZIdParams, response: { 200: ZSignatureRequest, ...errors, ...ended } } },
      async (request) => signing[action](callerOf(request), request.params.id, signingCallerOf(request)),
    );
  }
}
