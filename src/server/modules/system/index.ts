/*
 * The system module's front door: settings that hold for the whole installation. The repository
 * factory is here for the composition roots only.
 */
export { createSystemRepository } from './system.repository.ts';
export { createSystemService, PLAN_CATALOGUE_SETTING, type TSystemService } from './system.service.ts';
