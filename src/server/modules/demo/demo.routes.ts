import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEMO_BODY_LIMIT_BYTES, DEMO_REQUESTS_PER_MINUTE, ZDemoRenderBody } from '../../../contract/demo.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { sendPdf } from '../../http/send-file.ts';
import type { TDemoService } from './demo.service.ts';
import { SHED_UNDER_LOAD } from '../../http/load-shedding.ts';

export async function demoRoutes(app: FastifyInstance, opts: { demo: TDemoService }) {
  await app.register(rateLimit, {
    global: false,
    // Thrown to our error handler, which turns a 429 into the JSON error shape with this message.
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `The live demo is limited to ${context.max} PDFs a minute. Try again in ${Math.ceil(context.ttl / 1000)} seconds, or sign up for free.`,
    }),
  });
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/demo/render',
    {
      bodyLimit: DEMO_BODY_LIMIT_BYTES,
      config: { rateLimit: { max: DEMO_REQUESTS_PER_MINUTE, timeWindow: 60_000 }, ...SHED_UNDER_LOAD.config },
      schema: { body: ZDemoRenderBody, response: { 400: ZApiError, 413: ZApiError, 429: ZApiError, 503: ZApiError } },
    },
    async (request, reply) => sendPdf(reply, await opts.demo.render(request.body, request.ip), `Offer letter - ${request.body.client_name}`, 'inline'),
  );
}
