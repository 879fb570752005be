import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZInvitationAddress, ZInvitationLookup } from '../../../contract/sign-ups.ts';
import { AppError } from '../../http/app-error.ts';
import type { TInvitations } from './invitations.ts';

const INVALID = 'This invitation is not valid any more: it was used, revoked, replaced by a newer one, or it expired. Ask an administrator for a new one.';

/**
 * The sign-up page posts an invitation link's token to learn the address it was sent to (a POST,
 * so the token stays out of every address and log). Unknown, used, revoked and expired tokens get
 * one and the same 400.
 */
export async function invitationRoutes(
  app: FastifyInstance,
  opts: {
    invitations: TInvitations;
    /** The address a team's usable invitation was sent to (its link opens sign-up too). */
    teamInvitationAddress: (token: string) => Promise<string | undefined>;
  },
) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/auth/invitation', { schema: { body: ZInvitationLookup, response: { 200: ZInvitationAddress, 400: ZApiError } } }, async (request) => {
      const email = (await opts.invitations.addressOf(request.body.token)) ?? (await opts.teamInvitationAddress(request.body.token));
      if (!email) throw new AppError('bad_request', INVALID, { invitation: INVALID });
      return { email };
    });
}
