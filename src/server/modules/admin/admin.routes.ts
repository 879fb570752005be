import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAdminUser,
  ZAdminUserUpdate,
  ZAuditPage,
  ZAuditQuery,
  ZPlanCatalogueInput,
  ZPaymentGateway,
  ZPaymentGatewayInput,
  ZPaymentGatewayUpdate,
  ZRoleChange,
  ZSystemSetting,
  ZSystemSettingInput,
} from '../../../contract/admin.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZPlanCatalogue } from '../../../contract/plans.ts';
import { ZPublicPages } from '../../../contract/public-pages.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import type { TAdminService } from './admin.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };
const ZKeyParams = z.object({ key: z.string().min(1).max(100) });

export async function adminRoutes(app: FastifyInstance, opts: { admin: TAdminService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/users', { schema: { response: { 200: z.array(ZAdminUser), ...errors } } }, async () => opts.admin.listUsers());

  api.patch('/api/admin/users/:id/role', { schema: { params: ZIdParams, body: ZRoleChange, response: { 200: ZAdminUser, ...errors } } }, async (request) =>
    opts.admin.setRole(request.callerId, request.params.id, request.body.role),
  );

  api.post('/api/admin/users/:id/verify-email', { schema: { params: ZIdParams, response: { 200: ZAdminUser, ...errors } } }, async (request) =>
    opts.admin.markEmailVerified(request.callerId, request.params.id),
  );

  api.patch('/api/admin/users/:id', { schema: { params: ZIdParams, body: ZAdminUserUpdate, response: { 200: ZAdminUser, ...errors } } }, async (request) =>
    opts.admin.updateUser(request.callerId, request.params.id, request.body),
  );

  api.get('/api/admin/plans', { schema: { response: { 200: ZPlanCatalogue, ...errors } } }, async () => opts.admin.planCatalogue());

  api.put('/api/admin/plans', { schema: { body: ZPlanCatalogueInput, response: { 200: ZPlanCatalogue, ...errors } } }, async (request) =>
    opts.admin.savePlanCatalogue(request.callerId, request.body),
  );

  api.get('/api/admin/public-pages', { schema: { response: { 200: ZPublicPages, ...errors } } }, async () => opts.admin.publicPages());

  api.put('/api/admin/public-pages', { schema: { body: ZPublicPages, response: { 200: ZPublicPages, ...errors } } }, async (request) =>
    opts.admin.savePublicPages(request.callerId, request.body),
  );

  api.get('/api/admin/audit', { schema: { querystring: ZAuditQuery, response: { 200: ZAuditPage, ...errors } } }, async (request) =>
    opts.admin.auditEntries(request.query.limit, request.query.offset),
  );

  api.get('/api/admin/settings', { schema: { response: { 200: z.array(ZSystemSetting), ...errors } } }, async () => opts.admin.listSettings());

  api.post('/api/admin/settings', { schema: { body: ZSystemSettingInput, response: { 200: ZSystemSetting, ...errors } } }, async (request) =>
    opts.admin.saveSetting(request.callerId, request.body),
  );

  api.put(
    '/api/admin/settings/:key',
    {
      schema: {
        params: ZKeyParams,
        body: ZSystemSettingInput.omit({ key: true }),
        response: { 200: ZSystemSetting, ...errors },
      },
    },
    async (request) => opts.admin.saveSetting(request.callerId, { key: request.params.key, ...request.body }),
  );

  api.delete('/api/admin/settings/:key', { schema: { params: ZKeyParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.admin.deleteSetting(request.callerId, request.params.key);
    return reply.status(204).send(null);
  });

  api.get('/api/admin/payment-gateways', { schema: { response: { 200: z.array(ZPaymentGateway), ...errors } } }, async () => opts.admin.listGateways());

  api.post('/api/admin/payment-gateways', { schema: { body: ZPaymentGatewayInput, response: { 201: ZPaymentGateway, ...errors } } }, async (request, reply) => {
    return reply.status(201).send(await opts.admin.createGateway(request.callerId, request.body));
  });

  api.patch(
    '/api/admin/payment-gateways/:id',
    { schema: { params: ZIdParams, body: ZPaymentGatewayUpdate, response: { 200: ZPaymentGateway, ...errors } } },
    async (request) => opts.admin.updateGateway(request.callerId, request.params.id, request.body),
  );
}
