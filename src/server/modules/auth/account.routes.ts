import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZAccountSessions, ZChangeEmailBody, ZChangePasswordBody, ZConfirmEmailBody, ZProfileBody, ZUser } from '../../../contract/user.ts';
import type { TAuthService } from './auth.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 409: ZApiError, 429: ZApiError, 503: ZApiError };

/** The signed-in user's own credentials: name, email, password and sessions. */
export async function accountRoutes(app: FastifyInstance, opts: { auth: TAuthService }) {
  const { auth } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.put('/api/user/profile', { schema: { body: ZProfileBody, response: { 200: ZUser, ...errors } } }, async (request) =>
    auth.updateProfile(request.callerId, request.body),
  );

  api.put('/api/user/password', { schema: { body: ZChangePasswordBody, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    const cookies = await auth.changePassword(request.body, request.callerId, request.ip, request.headers);
    if (cookies.length) reply.header('set-cookie', cookies);
    return reply.status(204).send(null);
  });

  api.post(
    '/api/user/email',
    { schema: { body: ZChangeEmailBody, response: { 202: z.object({ pendingEmail: z.string() }), ...errors } } },
    async (request, reply) => {
      await auth.changeEmail(request.callerId, request.body.newEmail, request.headers);
      return reply.status(202).send({ pendingEmail: request.body.newEmail });
    },
  );

  api.post('/api/user/email/confirm', { schema: { body: ZConfirmEmailBody, response: { 200: ZUser, ...errors } } }, async (request, reply) => {
    const cookies = await auth.confirmEmailChange(request.body.token, request.headers);
    if (cookies.length) reply.header('set-cookie', cookies);
    return auth.currentUser(request.headers);
  });

  api.get('/api/user/sessions', { schema: { response: { 200: ZAccountSessions, 401: ZApiError } } }, async (request) => auth.listSessions(request.headers));

  api.post('/api/user/sessions/sign-out-others', { schema: { response: { 204: z.null(), 401: ZApiError } } }, async (request, reply) => {
    await auth.signOutOthers(request.callerId, request.headers);
    return reply.status(204).send(null);
  });
}
