import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleAtLeast, TEAM_HEADER, TEAM_ROLES, type TTeamRole } from '../../../contract/team-roles.ts';
import { eq } from 'drizzle-orm';
import { teamMembers, workspaces } from '../../db/schema.ts';
import { createTestApp, errorOf, TestClient, type TTestApp } from '../../test/test-app.ts';
import { WORKSPACE_ROUTE_ROLES } from './route-roles.ts';

/*
 * Every workspace route, called in a team by each kind of caller: its four roles, a removed member,
 * a member of another team and an outsider. The routes come from the role table the server itself
 * refuses to start without, so a new route is in this matrix the day it is added.
 * A role below the route's rule gets 403; anyone outside the team gets the 404 of a missing team,
 * and no caller outside it ever gets an answer about it.
 */

let t: TTestApp;
let teamId: string;
const callers = new Map<string, TestClient>();
type TCaller = TTeamRole | 'removed' | 'other team' | 'outsider';
const OUTSIDE: TCaller[] = ['removed', 'other team', 'outsider'];

beforeAll(async () => {
  t = await createTestApp();
  const make = async (who: TCaller) => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp({ email: `${who.replace(' ', '-')}-${randomUUID().slice(0, 8)}@matrix.example.com` });
    callers.set(who, client);
    return { client, id: user.id };
  };
  const owner = await make('owner');
  teamId = ((await owner.client.post('/api/teams', { name: 'Matrix' })).json() as { id: string }).id;
  // On the plan with everything, so no route refuses for the plan's sake.
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, teamId));
  // Members are added straight into the table: invitations are tested on their own.
  for (const role of TEAM_ROLES.filter((r) => r !== 'owner')) {
    const { id } = await make(role);
    await t.database.db.insert(teamMembers).values({ teamId, userId: id, role });
  }
  const removed = await make('removed');
  await t.database.db.insert(teamMembers).values({ teamId, userId: removed.id, role: 'admin' });
  expect((await owner.client.request('DELETE', `/api/teams/${teamId}/members/${removed.id}`)).statusCode).toBe(204);
  const other = await make('other team');
  await other.client.post('/api/teams', { name: 'Elsewhere' });
  await make('outsider');
  for (const client of callers.values()) client.team = teamId;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A route's path with its parameters filled with ids that name nothing. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, () => randomUUID());

const ROUTES = Object.entries(WORKSPACE_ROUTE_ROLES);

describe('the role matrix', () => {
  it(`covers every workspace route (${ROUTES.length}) for ${TEAM_ROLES.length + OUTSIDE.length} kinds of caller`, async () => {
    let leaks = 0;
    const wrong: string[] = [];
    for (const [key, least] of ROUTES) {
      const [method, url] = key.split(' ') as [string, string];
      for (const [who, client] of callers) {
        const response = await client.request(method, concrete(url), method === 'GET' || method === 'DELETE' ? undefined : {});
        const message = response.headers['content-type']?.toString().includes('json') && response.statusCode >= 400 ? errorOf(response).message : '';
        const teamMissing = response.statusCode === 404 && message === 'Team not found.';
        const roleRefused = response.statusCode === 403 && message.startsWith('Your role in this team');
        if (OUTSIDE.includes(who as TCaller)) {
          if (!teamMissing) {
            wrong.push(`${key} as ${who}: ${response.statusCode}, expected the missing team's 404`);
            if (response.statusCode < 400) leaks++;
          }
        } else if (!roleAtLeast(who as TTeamRole, least)) {
          if (!roleRefused) wrong.push(`${key} as ${who}: ${response.statusCode}, expected 403 (needs ${least})`);
        } else if (roleRefused || teamMissing) {
          wrong.push(`${key} as ${who}: ${response.statusCode}, expected to be let through (needs ${least})`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(leaks).toBe(0);
  }, 120_000);

  it('describes the team header on every workspace route in the API document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/internal/openapi.json' });
    expect(response.statusCode, response.body.slice(0, 2_000)).toBe(200);
    const document = response.json() as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const missing = ROUTES.map(([key]) => key.split(' ') as [string, string])
      .filter(([method, url]) => {
        const operation = document.paths[url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[method.toLowerCase()];
        return !operation?.parameters?.some((p) => p.in === 'header' && p.name === TEAM_HEADER);
      })
      .map(([method, url]) => `${method} ${url}`);
    expect(missing).toEqual([]);
  });
});
