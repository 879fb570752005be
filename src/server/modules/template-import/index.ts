/*
 * The template-import module's front door: turning an uploaded Word, PDF or text file into a draft
 * format. Other modules import from here, never from the files behind it.
 */
export { type TImportLimits } from './import-pool.ts';
export { templateImportRoutes } from './template-import.routes.ts';
