/*
 * The deliveries module's front door: what the rest of the server may use. Everything else in
 * this folder (use cases, the sender, the repository's rows) is the module's own.
 */
export { createDeliveriesRepository } from './deliveries.repository.ts';
export { deliveriesRoutes } from './deliveries.routes.ts';
export { createDeliveriesService, type TDeliveriesService, type TSigningEmailContent, type TSigningEmailRow, type TSigningMail } from './deliveries.service.ts';
export { createMailMergeService, type TMailMergeService } from './mail-merge.service.ts';
