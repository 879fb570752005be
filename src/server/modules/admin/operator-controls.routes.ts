import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAdminUser } from '../../../contract/admin.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZIdParams } from '../../../contract/formats.ts';
import { ZInvitation, ZInvitationInput, ZSignUpPolicy, ZSignUpPolicyView } from '../../../contract/sign-ups.ts';
import type { TOperatorControls } from './operator-controls.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 503: ZApiError };

/** Admin Panel → Settings → Sign-ups and Users → invitations, suspension, sign-out, reset link. */
export async function operatorControlsRoutes(app: FastifyInstance, opts: { controls: TOperatorControls }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const c = opts.controls;

  api.get('/api/admin/sign-up-policy', { schema: { response: { 200: ZSignUpPolicyView, ...errors } } }, async () => c.signUpPolicy());
  api.put('/api/admin/sign-up-policy', { schema: { body: ZSignUpPolicy, response: { 200: ZSignUpPolicyView, ...errors } } }, async (request) =>
    c.saveSignUpPolicy(request.callerId, request.body),
  );

  api.get('/api/admin/invitations', { schema: { response: { 200: z.array(ZInvitation), ...errors } } }, async () => c.listInvitations());
  api.post('/api/admin/invitations', { schema: { body: ZInvitationInput, response: { 201: ZInvitation, ...errors } } }, async (request, reply) =>
    reply.status(201).send(await c.invite(request.callerId, request.body.email)),
  );
  api.post('/api/admin/invitations/:id/resend', { schema: { params: ZIdParams, response: { 200: ZInvitation, ...errors } } }, async (request) =>
    c.resendInvitation(request.callerId, request.params.id),
  );
  api.delete('/api/admin/invitations/:id', { schema: { params: ZIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await c.revokeInvitation(request.callerId, request.params.id);
    return reply.status(204).send(null);
  });

  api.post('/api/admin/users/:id/suspend', { schema: { params: ZIdParams, response: { 200: ZAdminUser, ...errors } } }, async (request) =>
    c.suspend(request.callerId, request.params.id),
  );
  api.post('/api/admin/users/:id/restore', { schema: { params: ZIdParams, response: { 200: ZAdminUser, ...errors } } }, async (request) =>
    c.restore(request.callerId, request.params.id),
  );
  api.post('/api/admin/users/:id/sign-out', { schema: { params: ZIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await c.signOutEverywhere(request.callerId, request.params.id);
    return reply.status(204).send(null);
  });
  api.post(
    '/api/admin/users/:id/password-reset',
    { schema: { params: ZIdParams, response: { 202: z.object({ message: z.string() }), ...errors } } },
    async (request, reply) => {
      await c.sendPasswordReset(request.callerId, request.params.id);
      return reply.status(202).send({ message: 'The reset email is on its way.' });
    },
  );
}
