import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAdminPayments,
  ZAdminPaymentsQuery,
  ZBillingOverview,
  ZChangePlanBody,
  ZCheckout,
  ZCheckoutQuote,
  ZCreateOrderBody,
  ZInvoiceSummary,
  ZQuoteBody,
  ZVerifyPaymentBody,
  ZVerifyPaymentResult,
} from '../../../contract/billing.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { sendFile } from '../../http/send-file.ts';
import type { TBillingService } from './billing.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 402: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 429: ZApiError, 503: ZApiError };

/** The signed-in user's plan, checkout, changes and invoices. */
export async function billingRoutes(
  app: FastifyInstance,
  opts: {
    billing: TBillingService;
    /** The sign-in session a request carries, as a key that is not the session's secret. */
    sessionOf: (headers: IncomingHttpHeaders) => string;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/subscription', { schema: { response: { 200: ZBillingOverview, ...errors } } }, async (request) => opts.billing.overview(request.callerId));

  // What a plan would cost, with the one-time token that create-order needs: money moves only
  // after the user has seen the price and clicked to pay it, in this sign-in session.
  api.post('/api/subscription/quote', { schema: { body: ZQuoteBody, response: { 200: ZCheckoutQuote, ...errors } } }, async (request) =>
    opts.billing.quote(request.callerId, opts.sessionOf(request.headers), request.body.planId),
  );

  api.post('/api/subscription/create-order', { schema: { body: ZCreateOrderBody, response: { 200: ZCheckout, ...errors } } }, async (request) =>
    opts.billing.startCheckout(request.callerId, opts.sessionOf(request.headers), request.body),
  );

  api.post('/api/subscription/verify-payment', { schema: { body: ZVerifyPaymentBody, response: { 200: ZVerifyPaymentResult, ...errors } } }, async (request) =>
    opts.billing.verifyPayment(request.callerId, request.body),
  );

  api.post('/api/subscription/downgrade', { schema: { body: ZChangePlanBody, response: { 200: ZBillingOverview, ...errors } } }, async (request) => {
    await opts.billing.scheduleDowngrade(request.callerId, request.body.planId);
    return opts.billing.overview(request.callerId);
  });

  api.post('/api/subscription/cancel', { schema: { response: { 200: ZBillingOverview, ...errors } } }, async (request) => {
    await opts.billing.cancel(request.callerId);
    return opts.billing.overview(request.callerId);
  });

  api.post('/api/subscription/resume', { schema: { response: { 200: ZBillingOverview, ...errors } } }, async (request) => {
    await opts.billing.resume(request.callerId);
    return opts.billing.overview(request.callerId);
  });

  api.get('/api/subscription/invoices', { schema: { response: { 200: z.array(ZInvoiceSummary), ...errors } } }, async (request) =>
    opts.billing.invoices(request.callerId),
  );

  api.get('/api/subscription/invoices/:id/pdf', { schema: { params: ZIdParams } }, async (request, reply) => {
    const { pdf, fileName } = await opts.billing.invoicePdf(request.params.id, request.callerId);
    return sendFile(reply, pdf, fileName, 'application/pdf', 'attachment');
  });
}

const ZGatewayParams = z.object({ gateway: z.enum(['razorpay', 'stripe', 'paypal']) });

/**
 * Gateways post their events here. The body is kept as bytes: signatures are computed over exactly
 * what was sent, and parsing first would change it.
 */
export async function billingWebhookRoutes(app: FastifyInstance, opts: { billing: TBillingService }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/billing/webhooks/:gateway',
    { schema: { params: ZGatewayParams, response: { 200: z.object({ received: z.literal(true) }), 400: ZApiError, 404: ZApiError, 409: ZApiError } } },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await opts.billing.handleWebhook(request.params.gateway, body, request.headers);
      return { received: true as const };
    },
  );
}

/** What administrators see of the money: payments with filters, and any invoice. */
export async function adminBillingRoutes(app: FastifyInstance, opts: { billing: TBillingService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/payments', { schema: { querystring: ZAdminPaymentsQuery, response: { 200: ZAdminPayments, ...errors } } }, async (request) =>
    opts.billing.adminPayments(request.query),
  );

  api.get('/api/admin/invoices/:id/pdf', { schema: { params: ZIdParams } }, async (request, reply) => {
    const { pdf, fileName } = await opts.billing.invoicePdf(request.params.id, undefined);
    return sendFile(reply, pdf, fileName, 'application/pdf', 'attachment');
  });
}
