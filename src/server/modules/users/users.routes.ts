import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAppConfig } from '../../../contract/admin.ts';
import { ZPlansResponse } from '../../../contract/plans.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZUserStats } from '../../../contract/user.ts';
import type { TSystemService } from '../system/index.ts';
import type { TUsersService } from './users.service.ts';

/** The signed-in user's own figures. */
export async function usersRoutes(app: FastifyInstance, opts: { users: TUsersService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/user/stats', { schema: { response: { 200: ZUserStats, 401: ZApiError } } }, async (request) => opts.users.stats(request.callerId));
}

/** What any visitor may read: the plan catalogue and the app's public settings. */
export async function publicSystemRoutes(app: FastifyInstance, opts: { system: TSystemService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/plans', { schema: { response: { 200: ZPlansResponse } } }, async () => {
    const [plans, gateway] = await Promise.all([opts.system.planCatalogue(), opts.system.activeGateway()]);
    return { plans, currency: gateway === 'razorpay' ? ('INR' as const) : ('USD' as const), checkout: gateway !== undefined };
  });

  api.get('/api/app-config', { schema: { response: { 200: ZAppConfig } } }, async () => opts.system.appConfig());
}
