/*
 * The formats module's front door: what the rest of the server may use. Everything else in this
 * folder (use cases, the repository's queries) is the module's own; the repository factory is here
 * for the composition roots only.
 */
export { buildExcelTemplate, TEMPLATE_FIRST_DATA_ROW, TEMPLATE_KEY_LABEL, TEMPLATE_NAME_ROW } from './excel-template.ts';
export { createFormatsRepository, type TFormatRow, type TSnapshotRow } from './formats.repository.ts';
export { formatsRoutes } from './formats.routes.ts';
export { createFormatsService, type TFormatsService } from './formats.service.ts';
export { formatTransferRoutes } from './format-transfer.routes.ts';
