import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '../../../contract/errors.ts';
import {
  ZEmailSettings,
  ZEmailSettingsInput,
  ZSystemMailSettings,
  ZSystemMailSettingsInput,
  ZTestEmailBody,
  ZTestEmailResult,
} from '../../../contract/mail.ts';
import type { TMailService } from './mail.service.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 422: ZApiError, 429: ZApiError };

/** Settings → Email: a user's own SMTP server (plans with API access) and which server sends. */
export async function emailSettingsRoutes(app: FastifyInstance, opts: { mail: TMailService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/user/email-settings', { schema: { response: { 200: ZEmailSettings, ...errors } } }, async (request) =>
    opts.mail.emailSettings(request.callerId),
  );

  api.put('/api/user/email-settings', { schema: { body: ZEmailSettingsInput, response: { 200: ZEmailSettings, ...errors } } }, async (request) =>
    opts.mail.saveEmailSettings(request.callerId, request.body),
  );

  api.post('/api/user/email-settings/test', { schema: { response: { 200: ZTestEmailResult, ...errors } } }, async (request) =>
    opts.mail.testEmailSettings(request.callerId),
  );
}

/** The installation's SMTP server, in the Admin Panel's Settings. */
export async function adminMailRoutes(
  app: FastifyInstance,
  opts: {
    mail: TMailService;
    audit: (actorId: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>) => Promise<void>;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/mail-settings', { schema: { response: { 200: ZSystemMailSettings, ...errors } } }, async () => opts.mail.systemSettings());

  api.put('/api/admin/mail-settings', { schema: { body: ZSystemMailSettingsInput, response: { 200: ZSystemMailSettings, ...errors } } }, async (request) => {
    const saved = await opts.mail.saveSystemSettings(request.body);
    const { password, ...shown } = request.body;
    await opts.audit(request.callerId, 'mail.update', 'setting', 'mail.smtp', { ...shown, password: password ? 'replaced' : 'kept' });
    return saved;
  });

  api.delete('/api/admin/mail-settings', { schema: { response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await opts.mail.deleteSystemSettings();
    await opts.audit(request.callerId, 'mail.delete', 'setting', 'mail.smtp', {});
    return reply.status(204).send(null);
  });

  api.post('/api/admin/mail-settings/test', { schema: { body: ZTestEmailBody, response: { 200: ZTestEmailResult, ...errors } } }, async (request) =>
    opts.mail.testSystemSettings(request.callerId, request.body.to),
  );
}
