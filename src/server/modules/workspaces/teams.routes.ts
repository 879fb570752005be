import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import {
  ZCreatedTeam,
  ZDeleteTeamBody,
  ZInvitationTokenParams,
  ZInviteBody,
  ZMemberRoleBody,
  ZTeam,
  ZTeamDetail,
  ZTeamInvitation,
  ZTeamInvitationParams,
  ZTeamInvitationPreview,
  ZTeamMemberParams,
  ZTeamNameBody,
  ZTeamParams,
} from '../../../contract/teams.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TTeamsService } from './teams.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 503: ZApiError };
const INVALID = 'This invitation is not valid any more: it was accepted, revoked, replaced by a newer one, or it expired. Ask the team for a new one.';

/** Settings → Team, and accepting an invitation: the signed-in person's teams. */
type TPersonRow = { id: string; email: string; name: string; firstName: string | null; lastName: string | null };

export async function teamsRoutes(app: FastifyInstance, opts: { teams: TTeamsService; users: { findById: (id: string) => Promise<TPersonRow | undefined> } }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const person = async (userId: string) => {
    const user = await opts.users.findById(userId);
    if (!user) throw unauthorized();
    return { id: user.id, email: user.email, name: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.name };
  };

  api.post('/api/teams', { schema: { body: ZTeamNameBody, response: { 201: ZCreatedTeam, ...errors } } }, async (request, reply) =>
    reply.status(201).send(await opts.teams.create(await person(request.callerId), request.body.name)),
  );
  api.get('/api/teams', { schema: { response: { 200: z.array(ZTeam), ...errors } } }, async (request) => opts.teams.list(request.callerId));
  api.get('/api/teams/:id', { schema: { params: ZTeamParams, response: { 200: ZTeamDetail, ...errors } } }, async (request) =>
    opts.teams.detail(request.params.id, request.callerId),
  );
  api.patch('/api/teams/:id', { schema: { params: ZTeamParams, body: ZTeamNameBody, response: { 200: ZTeam, ...errors } } }, async (request) =>
    opts.teams.rename(request.params.id, request.callerId, request.body.name),
  );
  api.delete('/api/teams/:id', { schema: { params: ZTeamParams, body: ZDeleteTeamBody, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.teams.delete(request.params.id, request.callerId, request.body.confirm);
    return reply.status(204).send(null);
  });

  api.post(
    '/api/teams/:id/invitations',
    { schema: { params: ZTeamParams, body: ZInviteBody, response: { 201: ZTeamInvitation, ...errors } } },
    async (request, reply) => reply.status(201).send(await opts.teams.invite(request.params.id, await person(request.callerId), request.body)),
  );
  api.post(
    '/api/teams/:id/invitations/:invitationId/resend',
    { schema: { params: ZTeamInvitationParams, response: { 200: ZTeamInvitation, ...errors } } },
    async (request) => opts.teams.resendInvitation(request.params.id, await person(request.callerId), request.params.invitationId),
  );
  api.delete(
    '/api/teams/:id/invitations/:invitationId',
    { schema: { params: ZTeamInvitationParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await opts.teams.revokeInvitation(request.params.id, request.callerId, request.params.invitationId);
      return reply.status(204).send(null);
    },
  );

  api.patch(
    '/api/teams/:id/members/:userId',
    { schema: { params: ZTeamMemberParams, body: ZMemberRoleBody, response: { 200: ZTeamDetail, ...errors } } },
    async (request) => opts.teams.setRole(request.params.id, request.callerId, request.params.userId, request.body.role),
  );
  api.delete('/api/teams/:id/members/:userId', { schema: { params: ZTeamMemberParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.teams.removeMember(request.params.id, request.callerId, request.params.userId);
    return reply.status(204).send(null);
  });

  api.post('/api/invitations/:token/accept', { schema: { params: ZInvitationTokenParams, response: { 200: ZTeam, ...errors } } }, async (request) =>
    opts.teams.accept(request.params.token, await person(request.callerId)),
  );
}

/** The invitation page, before anyone signs in: the token is the permission to see whose team it is. */
export async function teamInvitationRoutes(app: FastifyInstance, opts: { teams: TTeamsService }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/invitations/:token',
      { schema: { params: ZInvitationTokenParams, response: { 200: ZTeamInvitationPreview, 404: ZApiError } } },
      async (request) => {
        const preview = await opts.teams.preview(request.params.token);
        if (!preview) throw new AppError('not_found', INVALID);
        return preview;
      },
    );
}
