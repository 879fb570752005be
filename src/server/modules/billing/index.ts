/*
 * The billing module's front door: what the rest of the server may use. Everything else in this
 * folder (use cases, gateways, the repository's rows) is the module's own.
 */
export { createBillingService } from './billing.service.ts';
export { createBillingRepository } from './billing.repository.ts';
export { adminBillingRoutes, billingRoutes, billingWebhookRoutes } from './billing.routes.ts';
export { createGatewayOpener } from './gateways/open-gateway.ts';
