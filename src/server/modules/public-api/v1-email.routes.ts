import { ZDelivery, ZEmailDocumentBody } from '../../../contract/delivery.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { API_V1_PREFIX } from '../../../contract/public-api.ts';
import { callerOf, errors, security, type TV1Routes } from './v1-routes-common.ts';

export function v1EmailRoutes({ api, v1 }: Pick<TV1Routes, 'api' | 'v1'>) {
  api.post(
    `${API_V1_PREFIX}/documents/:id/email`,
    {
      schema: {
        tags: ['Email'],
        summary: 'Email a document',
        description: [
          'Queues an email with the document’s PDF attached (byte for byte the PDF of `GET …/pdf`) and answers 202 with the delivery; poll it for `sent` or `failed`.',
          `To and Cc together name at most 10 people; every recipient counts against your plan’s hourly send rate (429 \`rate_limited\` past it). The subject defaults to the document’s name. A PDF over 10 MB goes as a link that opens it without an account.`,
          'It goes out through your own mail server (Settings → Email) when you set one up, else through this installation’s; with neither, the answer is 422.',
          'Through this installation’s server, an account on the Free plan sends a standard subject and message that name the document and the sender: a `subject` or `message` of its own is refused with 403 `plan_limit`. Past the installation’s daily limit, 429 `rate_limited` with Retry-After until midnight UTC.',
        ].join('\n\n'),
        security,
        params: ZIdParams,
        body: ZEmailDocumentBody,
        response: {
          202: ZDelivery,
          ...errors,
          422: ZApiError.describe('No mail server is set up to send with (`unprocessable`).'),
        },
      },
    },
    async (request, reply) => {
      const { delivery, location } = await v1.documents.email(callerOf(request), request.params.id, request.body);
      return reply.status(202).header('location', location).send(delivery);
    },
  );

  api.get(
    `${API_V1_PREFIX}/deliveries/:id`,
    {
      schema: {
        tags: ['Email'],
        summary: 'Get an email’s delivery',
        description:
          '`queued` (waiting, or retrying after a temporary failure at `nextAttemptAt`), `sending`, `sent` or `failed`, with the mail server’s own answer.',
        security,
        params: ZIdParams,
        response: { 200: ZDelivery, ...errors },
      },
    },
    async (request) => v1.documents.delivery(callerOf(request), request.params.id),
  );
}
