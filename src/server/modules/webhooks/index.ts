/*
 * The webhooks module's front door: what the rest of the server may use. Everything else in this
 * folder is the module's own; the repository factory is here for the composition roots only.
 */
export { createWebhookSender } from './webhook-sender.ts';
export { ACTIVE_ENDPOINTS_MEMO_MS, createWebhooksRepository, SHARED_ACTIVE_ENDPOINTS_MEMO_MS } from './webhooks.repository.ts';
export { webhooksRoutes } from './webhooks.routes.ts';
export { createWebhooksService, type TWebhooksService } from './webhooks.service.ts';
