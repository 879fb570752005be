/*
 * The bulk module's front door: batches made from spreadsheets or JSON rows. Other modules import
 * from here, never from the files behind it.
 */
export { bulkRoutes } from './bulk.routes.ts';
export { createBulkRepository } from './bulk.repository.ts';
export { createBulkService, type TBulkService } from './bulk.service.ts';
