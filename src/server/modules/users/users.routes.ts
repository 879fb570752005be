import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAppConfig } from '../../../contract/admin.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { ZPlanCatalogue } from '../../../contract/plans.ts';
import { ZUserStats } from '../../../contract/user.ts';
import type { TAuthService } from '../auth/auth.service.ts';
import type { TSystemService } from '../system/system.service.ts';
import type { TUsersService } from './users.service.ts';

export async function usersRoutes(
  app: FastifyInstance,
  opts: { auth: TAuthService; users: TUsersService; system: TSystemService },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/user/stats', { schema: { response: { 200: ZUserStats, 401: ZApiError } } }, async (request) => {
    const userId = await opts.auth.currentUserId(request.headers);
    return opts.users.stats(userId);
  });

  api.get(
    '/api/plans',
    { schema: { response: { 200: z.object({ plans: ZPlanCatalogue, currency: z.enum(['USD', 'INR']) }) } } },
    async () => ({ plans: await opts.system.planCatalogue(), currency: await opts.system.priceCurrency() }),
  );

  api.get('/api/app-config', { schema: { response: { 200: ZAppConfig } } }, async () => opts.system.appConfig());
}
