/*
 * The mail module's front door: what the rest of the server may use. Everything else in this
 * folder (use cases, the context, the repository's rows) is the module's own.
 */
export { createMailService, nextUtcDay, utcDay, type TMailService, type TSender } from './mail.service.ts';
export { createMailRepository } from './mail.repository.ts';
export { adminMailRoutes, emailSettingsRoutes } from './mail.routes.ts';
export { createMailer, type TMailer } from './mail-transport.ts';
