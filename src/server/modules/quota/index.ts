/*
 * The quota module's front door: plan allowances, usage counts and the limits on work in flight.
 * Other modules import from here, never from the files behind it.
 */
export { createQuotaService, type TQuotaService } from './quota.service.ts';
export { createWorkLimits, type TWorkLimits } from './work-limits.ts';
