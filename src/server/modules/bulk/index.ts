/*
 * The bulk module's front door: batches made from spreadsheets or JSON rows. Other modules import
 * from here, never from the files behind it.
 */
export { bulkRoutes } from './bulk.routes.ts';
export { createBulkRepository, type TBulkRepository } from './bulk.repository.ts';
export { createBulkService, type TBulkService } from './bulk.service.ts';
export type { TBulkServiceDeps } from './bulk-deps.ts';
export { csvCell } from './csv-cell.ts';
export { SPOOL_MAX_AGE_MS } from './resume-unfinished.ts';
export { uniqueNamer, zipEntryName } from './zip-names.ts';
export { dateKindOfFormat, plainNumber, serialToText } from './spreadsheet/cell-values.ts';
export { readSpreadsheet } from './spreadsheet/read-spreadsheet.ts';
export type { TNamedSheet, TReadOptions, TReadStats, TSheet, TSheetRow } from './spreadsheet/sheet-types.ts';
export { BULK_MAX_COLUMNS, BULK_MAX_OTHER_SHEETS, BULK_MAX_UNZIPPED_BYTES, BULK_MAX_ZIP_ENTRIES, MESSAGES } from './spreadsheet/spreadsheet-limits.ts';
