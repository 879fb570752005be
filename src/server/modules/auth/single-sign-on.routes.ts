import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromNodeHeaders } from 'better-auth/node';
import { z } from 'zod';
import type { TConfig } from '../../config.ts';
import type { TAuthService } from './auth.service.ts';
import { AUTH_BASE_PATH, OIDC_PROVIDER_ID } from './better-auth.ts';
import { SIGN_IN_ERRORS } from '../../../contract/sign-in-errors.ts';

/** The code the sign-in page shows for a provider that cannot be reached (contract/sign-in-errors.ts). */
const PROVIDER_DOWN = 'oauth_provider_not_found';

/** To the sign-in page with the failure's code, which the page words (a code it does not know, in general words). */
function redirectToLoginError(reply: FastifyReply, code: string) {
  return reply.redirect(`/login?error=${encodeURIComponent(code)}`, 302);
}

/** Signing in through the installation's OIDC provider, and the library's callback from it. */
export async function singleSignOnRoutes(app: FastifyInstance, opts: { auth: TAuthService; config: TConfig }) {
  const { auth, config } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // `mode=signup` (Get Started) opens Create account; a single sign-on provider handles both itself.
  api.get('/api/login', { schema: { querystring: z.object({ mode: z.enum(['signin', 'signup']).optional() }) } }, async (request, reply) => {
    if (!config.oidc) return reply.redirect(request.query.mode === 'signup' ? '/login?mode=signup' : '/login', 302);
    const instance = await auth.authWithProvider();
    if (!instance) return redirectToLoginError(reply, PROVIDER_DOWN);
    try {
      const result = await instance.api.signInSocial({
        body: {
          provider: OIDC_PROVIDER_ID,
          callbackURL: `${config.publicUrl}/`,
          errorCallbackURL: `${config.publicUrl}/api/login/error`,
        },
        headers: fromNodeHeaders(request.headers),
        returnHeaders: true,
      });
      if (!result.response.url) return redirectToLoginError(reply, PROVIDER_DOWN);
      reply.header('set-cookie', result.headers.getSetCookie());
      return reply.redirect(result.response.url, 302);
    } catch (error) {
      request.log.warn({ err: error }, 'could not start OIDC sign-in');
      return redirectToLoginError(reply, PROVIDER_DOWN);
    }
  });

  api.get('/api/login/error', { schema: { querystring: z.object({ error: z.string().max(200).optional() }) } }, async (request, reply) => {
    const code = request.query.error ?? '';
    return redirectToLoginError(reply, Object.hasOwn(SIGN_IN_ERRORS, code) ? code : 'sign_in_failed');
  });

  // The auth library's own routes (the OIDC callback among them). It parses bodies itself, so this
  // scope hands it the raw request instead of Fastify's parsed body.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    // Only the OIDC callback is reachable: every other way in (email sign-in and sign-up above all)
    // goes through our routes, with their validation and throttling.
    scope.route({
      method: 'GET',
      url: `${AUTH_BASE_PATH}/callback/:providerId`,
      async handler(request, reply) {
        const url = new URL(request.url, config.publicUrl);
        const body = request.body instanceof Buffer && request.body.length > 0 ? request.body : undefined;
        const response = await auth.auth.handler(new Request(url, { method: request.method, headers: fromNodeHeaders(request.headers), body }));
        reply.status(response.status);
        response.headers.forEach((value, key) => {
          if (key !== 'set-cookie') reply.header(key, value);
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length) reply.header('set-cookie', cookies);
        return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
      },
    });
  });
}
