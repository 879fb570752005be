/*
 * The admin module's front door: what the rest of the server may use. Everything else in this
 * folder (use cases, the context, the repository's rows) is the module's own.
 */
export { createAdminRepository } from './admin.repository.ts';
export { adminRoutes } from './admin.routes.ts';
export { createAdminService, type TAdminService } from './admin.service.ts';
export { documentSealRoutes } from './document-seal.routes.ts';
export { operatorControlsRoutes } from './operator-controls.routes.ts';
export { createOperatorControls } from './operator-controls.ts';
