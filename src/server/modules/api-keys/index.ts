/*
 * The API keys module's front door: what the rest of the server may use. Everything else in this
 * folder is the module's own; the repository factory is here for the composition roots only.
 */
export { createApiKeysRepository } from './api-keys.repository.ts';
export { apiKeysRoutes } from './api-keys.routes.ts';
export { createApiKeysService, hashApiKey, type TApiKeysService } from './api-keys.service.ts';
export { keyJoins, keyMakerAway, keySuspended } from './key-standing.ts';
