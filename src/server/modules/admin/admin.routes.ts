import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAdminUser,
  ZAdminUserUpdate,
  ZPaymentGateway,
  ZPaymentGatewayInput,
  ZPaymentGatewayUpdate,
  ZRoleChange,
  ZSystemSetting,
  ZSystemSettingInput,
} from '../../../contract/admin.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import type { TAdminService } from './admin.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };
const ZKeyParams = z.object({ key: z.string().min(1).max(100) });

export async function adminRoutes(app: FastifyInstance, opts: { admin: TAdminService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/users', { schema: { response: { 200: z.array(ZAdminUser), ...errors } } }, async () => opts.admin.listUsers());

  api.patch(
    '/api/admin/users/:id/role',
    { schema: { params: ZIdParams, body: ZRoleChange, response: { 200: ZAdminUser, ...errors } } },
    async (request) => opts.admin.setRole(request.callerId, request.params.id, request.body.role),
  );

  api.patch(
    '/api/admin/users/:id',
    { schema: { params: ZIdParams, body: ZAdminUserUpdate, response: { 200: ZAdminUser, ...errors } } },
    async (request) => opts.admin.updateUser(request.params.id, request.body),
  );

  api.get('/api/admin/settings', { schema: { response: { 200: z.array(ZSystemSetting), ...errors } } }, async () => opts.admin.listSettings());

  api.post(
    '/api/admin/settings',
    { schema: { body: ZSystemSettingInput, response: { 200: ZSystemSetting, ...errors } } },
    async (request) => opts.admin.saveSetting(request.body),
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
    async (request) => opts.admin.saveSetting({ key: request.params.key, ...request.body }),
  );

  api.delete(
    '/api/admin/settings/:key',
    { schema: { params: ZKeyParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await opts.admin.deleteSetting(request.params.key);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/api/admin/payment-gateways',
    { schema: { response: { 200: z.array(ZPaymentGateway), ...errors } } },
    async () => opts.admin.listGateways(),
  );

  api.post(
    '/api/admin/payment-gateways',
    { schema: { body: ZPaymentGatewayInput, response: { 201: ZPaymentGateway, ...errors } } },
    async (request, reply) => {
      return reply.status(201).send(await opts.admin.createGateway(request.body));
    },
  );

  api.patch(
    '/api/admin/payment-gateways/:id',
    { schema: { params: ZIdParams, body: ZPaymentGatewayUpdate, response: { 200: ZPaymentGateway, ...errors } } },
    async (request) => opts.admin.updateGateway(request.params.id, request.body),
  );
}
