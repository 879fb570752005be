import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZFormat, ZFormatInput, ZIdParams } from '../../../contract/formats.ts';
import { ZCopyFormatToTeamBody } from '../../../contract/teams.ts';
import { type TTeamRole } from '../../../contract/team-roles.ts';
import { AppError } from '../../http/app-error.ts';
import type { TAssetsService } from '../assets/index.ts';
import type { TFormatsService } from './formats.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 413: ZApiError };

/**
 * "Copy to team": a format of the current workspace becomes a new format of a team the person
 * edits in, with its uploaded images copied; documents already made stay where they were made.
 */
export async function formatTransferRoutes(
  app: FastifyInstance,
  opts: {
    formats: TFormatsService;
    assets: TAssetsService;
    /** The teams module's check: 404 outside the team, 403 below the role. */
    requireTeamRole: (teamId: string, userId: string, least: TTeamRole) => Promise<unknown>;
  },
) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/formats/:id/copy-to-team',
      { schema: { params: ZIdParams, body: ZCopyFormatToTeamBody, response: { 201: ZFormat, ...errors } } },
      async (request, reply) => {
        const source = await opts.formats.load(request.callerId, request.params.id);
        const { teamId } = request.body;
        if (teamId === request.callerId) throw new AppError('bad_request', 'This format is already in that team.', { teamId: 'Choose another team.' });
        await opts.requireTeamRole(teamId, request.actorId, 'editor');
        const content = await opts.assets.copyImagesInto(request.callerId, teamId, source.content);
        // Read back through the input schema, as any saved format is, so the copy has today's defaults.
        const input = ZFormatInput.parse({ name: source.name, description: source.description, content, placeholders: source.placeholders });
        return reply.status(201).send(await opts.formats.create(teamId, input, request.actorId));
      },
    );
}
