import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { ZRecoveryCodes, ZTwoFactorPasswordBody, ZTwoFactorSetup, ZTwoFactorSignInBody, ZTwoFactorVerifyBody } from '../../../contract/two-factor.ts';
import { ZUser } from '../../../contract/user.ts';
import type { TAuthService } from './auth.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 429: ZApiError, 503: ZApiError };

/** The second step of a sign-in: public, the library's two-factor cookie is the permission. */
export async function twoFactorSignInRoutes(app: FastifyInstance, opts: { auth: TAuthService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/api/auth/sign-in/two-factor', { schema: { body: ZTwoFactorSignInBody, response: { 200: ZUser, ...errors } } }, async (request, reply) => {
    const result = await opts.auth.twoFactor.completeSignIn(request.body, request.ip, request.headers);
    reply.header('set-cookie', result.setCookies);
    return result.user;
  });
}

/** The signed-in user's own second factor (Settings → Profile). */
export async function twoFactorRoutes(app: FastifyInstance, opts: { auth: TAuthService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const twoFactor = opts.auth.twoFactor;

  api.post(
    '/api/user/two-factor/enable',
    { schema: { body: ZTwoFactorPasswordBody, response: { 200: ZTwoFactorSetup, ...errors } } },
    async (request, reply) => {
      // The secret is in the answer: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return twoFactor.enable(request.callerId, request.body.password, request.ip, request.headers);
    },
  );

  api.post('/api/user/two-factor/verify', { schema: { body: ZTwoFactorVerifyBody, response: { 200: ZRecoveryCodes, ...errors } } }, async (request, reply) => {
    const { recoveryCodes, setCookies } = await twoFactor.confirm(request.callerId, request.body.code, request.ip, request.headers);
    if (setCookies.length) reply.header('set-cookie', setCookies);
    reply.header('cache-control', 'no-store');
    return { recoveryCodes };
  });

  api.post('/api/user/two-factor/disable', { schema: { body: ZTwoFactorPasswordBody, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    const setCookies = await twoFactor.disable(request.callerId, request.body.password, request.ip, request.headers);
    if (setCookies.length) reply.header('set-cookie', setCookies);
    return reply.status(204).send(null);
  });

  api.post(
    '/api/user/two-factor/recovery-codes',
    { schema: { body: ZTwoFactorPasswordBody, response: { 200: ZRecoveryCodes, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return twoFactor.regenerateRecoveryCodes(request.callerId, request.body.password, request.ip, request.headers);
    },
  );
}

/** Admin Panel → Users: "Reset two-factor", audited. */
export async function adminTwoFactorRoutes(
  app: FastifyInstance,
  opts: {
    auth: TAuthService;
    audit: (actorId: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>) => Promise<void>;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // The web app asks before it opens the Admin Panel: the scope's checks (the role, and
  // two-factor when an admin setting asks for it) answer here as on every admin route.
  api.get('/api/admin/access', { schema: { response: { 204: z.null(), ...errors } } }, async (_request, reply) => reply.status(204).send(null));

  api.post('/api/admin/users/:id/two-factor/reset', { schema: { params: ZIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.auth.twoFactor.resetByAdmin(request.callerId, request.params.id, opts.audit);
    return reply.status(204).send(null);
  });
}
