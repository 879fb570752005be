import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import {
  ZForgotPasswordBody,
  ZForgotPasswordResponse,
  ZResendVerificationResult,
  ZResetPasswordBody,
  ZSignInBody,
  ZSignUpBody,
  ZSignUpPending,
  ZUser,
  ZVerifyEmailBody,
  ZVerifyEmailResult,
} from '../../../contract/user.ts';
import { ZSignInResponse } from '../../../contract/two-factor.ts';
import type { TConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import { clientGone } from '../../http/in-flight.ts';
import type { TAuthService } from './auth.service.ts';
import { singleSignOnRoutes } from './single-sign-on.routes.ts';

const errorResponses = { 400: ZApiError, 401: ZApiError, 409: ZApiError, 422: ZApiError, 429: ZApiError, 503: ZApiError };

const SIGN_OUT_CONFIRMATION = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out of Formwork?</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8fafc;
         font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #0f172a; }
  main { background: #fff; border: 1px solid #e2e8f0; border-radius: 12px; padding: 32px; max-width: 400px;
         margin: 16px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.08); }
  h1 { font-size: 1.25rem; margin: 0 0 8px; }
  p { margin: 0 0 24px; color: #475569; line-height: 1.5; }
  .actions { display: flex; gap: 12px; flex-wrap: wrap; }
  button, a { font: inherit; font-weight: 600; border-radius: 8px; padding: 10px 18px; cursor: pointer;
              text-decoration: none; border: 1px solid #cbd5e1; }
  button { background: #1d4ed8; color: #fff; border-color: #1d4ed8; }
  a { color: #0f172a; background: #fff; }
  :focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
</style>
</head>
<body>
<main>
  <h1>Sign out of Formwork?</h1>
  <p>A link from another site asked to sign you out. Sign out only if you meant to.</p>
  <div class="actions">
    <form method="post" action="/api/logout"><button type="submit">Sign out</button></form>
    <a href="/">Stay signed in</a>
  </div>
</main>
</body>
</html>
`;

export async function authRoutes(app: FastifyInstance, opts: { auth: TAuthService; config: TConfig }) {
  const { auth } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/auth/sign-up', { schema: { body: ZSignUpBody, response: { 200: ZUser, 202: ZSignUpPending, ...errorResponses } } }, async (request, reply) => {
    const result = await auth.signUp(request.body, request.ip, request.headers);
    if (result.kind === 'pending') return reply.status(202).send({ status: result.status, message: result.message });
    reply.header('set-cookie', result.setCookies);
    return result.user;
  });

  // The page at /verify-email?token=… posts its token here; the token is the permission.
  api.post('/api/auth/verify-email', { schema: { body: ZVerifyEmailBody, response: { 200: ZVerifyEmailResult, ...errorResponses } } }, async (request) => {
    await auth.verifyEmail(request.body.token);
    return { status: 'verified' as const };
  });

  api.post('/api/auth/resend-verification', { schema: { response: { 200: ZResendVerificationResult, ...errorResponses } } }, async (request) =>
    auth.resendVerification(await auth.currentUserId(request.headers), request.headers),
  );

  // A right password for an account with two-factor answers the challenge instead of the user:
  // the session starts only at /api/auth/sign-in/two-factor (two-factor.routes.ts).
  api.post('/api/auth/sign-in', { schema: { body: ZSignInBody, response: { 200: ZSignInResponse, ...errorResponses } } }, async (request, reply) => {
    const result = await auth.signIn(request.body, request.ip, request.headers, clientGone(reply));
    reply.header('set-cookie', result.setCookies);
    return 'challenge' in result ? result.challenge : result.user;
  });

  // 202 with one body whatever the address: whether it has an account is not told.
  api.post(
    '/api/auth/forgot-password',
    { schema: { body: ZForgotPasswordBody, response: { 202: ZForgotPasswordResponse, ...errorResponses } } },
    async (request, reply) => {
      const answer = await auth.forgotPassword(request.body.email, request.ip, request.headers);
      return reply.status(202).send(answer);
    },
  );

  api.post('/api/auth/reset-password', { schema: { body: ZResetPasswordBody, response: { 204: z.null(), ...errorResponses } } }, async (request, reply) => {
    await auth.resetPassword(request.body, request.ip);
    return reply.status(204).send(null);
  });

  api.get('/api/auth/user', { schema: { response: { 200: ZUser, 401: ZApiError } } }, async (request) => auth.currentUser(request.headers));

  // The SPA's probe on every page load: a signed-out visitor is an answer, not an error.
  api.get('/api/auth/session', { schema: { response: { 200: z.object({ user: ZUser.nullable() }) } } }, async (request) => {
    try {
      return { user: await auth.currentUser(request.headers) };
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized') return { user: null };
      throw error;
    }
  });

  // A sign-out link on another site must not end the session: cross-site GETs get a page that asks
  // first, and its button posts back here (a same-origin POST, which the CSRF check lets through).
  const signOut = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('set-cookie', await auth.signOut(request.headers));
    return reply.redirect('/', 302);
  };
  api.get('/api/logout', async (request, reply) => {
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(SIGN_OUT_CONFIRMATION);
    }
    return signOut(request, reply);
  });
  await app.register(async (formPost) => {
    // The confirmation page's form posts url-encoded; there is nothing in it to read.
    formPost.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_r, _b, done) => done(null, undefined));
    formPost.post('/api/logout', signOut);
  });

  await singleSignOnRoutes(app, opts);
}
