import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { roleAtLeast, TEAM_HEADER, TEAM_ROLE_LABELS, type TTeamRole } from '../../../contract/team-roles.ts';
import { forbidden, notFound } from '../../http/app-error.ts';
import { WORKSPACE_ROUTE_ROLES } from './route-roles.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person making the request; `callerId` is the workspace they act in (theirs, or a team's). */
    actorId: string;
    /** The person's role in that workspace: always owner of their own. */
    workspaceRole: TTeamRole;
  }
}

export function decorateWorkspace(app: FastifyInstance) {
  app.decorateRequest('actorId', '');
  app.decorateRequest('workspaceRole', 'member');
}

const ZWorkspaceHeaders = z.looseObject({
  [TEAM_HEADER]: z.string().max(100).optional().describe('The team to act in (its id). Without it, the call acts in the signed-in person’s own workspace.'),
});

/**
 * The team a request names: the header the web app's calls carry, or, for a read, a `team`
 * parameter in the address, so a plain link (a download, an image, a PDF opened in a tab) can
 * name it too. Writes take the header only.
 */
/** A team's id is a UUID (teams.repository `create`); anything else names no team. */
const TEAM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function teamNamedBy(request: FastifyRequest): string | undefined {
  const header = request.headers[TEAM_HEADER];
  const named = Array.isArray(header) ? header[0] : header;
  if (named) return named;
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.team === 'string' && query.team ? query.team : undefined;
}

/** `GET /api/formats/:id`: how a route is named in the role table. HEAD is answered as GET. */
export const routeKey = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;

/**
 * Every route in `scope` acts in a workspace: the person's own, or the team the TEAM_HEADER names.
 * Someone outside that team gets 404 (as for anything else not theirs), and a member whose role is
 * below the route's rule in route-roles.ts gets 403. A route with no rule stops the server from
 * starting, so a new route cannot slip in unguarded.
 */
export function resolveWorkspaceFor(
  scope: FastifyInstance,
  deps: { currentUserId: (request: FastifyRequest) => Promise<string>; roleOf: (teamId: string, userId: string) => Promise<TTeamRole | undefined> },
) {
  const unruled: string[] = [];
  scope.addHook('onRoute', (route) => {
    // Described on every route, so the API document says how to act in a team.
    route.schema = { ...route.schema, headers: ZWorkspaceHeaders };
    for (const method of [route.method].flat()) {
      const key = routeKey(method, route.url);
      if (!(key in WORKSPACE_ROUTE_ROLES)) unruled.push(key);
    }
  });
  scope.addHook('onReady', async () => {
    if (unruled.length) throw new Error(`These routes have no team role in workspaces/route-roles.ts: ${unruled.join(', ')}`);
  });
  scope.addHook('onRequest', async (request) => {
    const userId = await deps.currentUserId(request);
    request.actorId = userId;
    const teamId = teamNamedBy(request);
    if (!teamId) {
      request.callerId = userId;
      request.workspaceRole = 'owner';
      return;
    }
    // Read before the request's own validation runs, so a malformed id must not reach the database.
    const role = TEAM_ID.test(teamId) ? await deps.roleOf(teamId, userId) : undefined;
    if (!role) throw notFound('Team');
    const least = WORKSPACE_ROUTE_ROLES[routeKey(request.method, request.routeOptions.url ?? '')] ?? 'owner';
    if (!roleAtLeast(role, least)) {
      throw forbidden(`Your role in this team (${TEAM_ROLE_LABELS[role].toLowerCase()}) cannot do this. Ask a team ${least} to do it, or to change your role.`);
    }
    request.callerId = teamId;
    request.workspaceRole = role;
  });
}
