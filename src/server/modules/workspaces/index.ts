/*
 * The workspaces module's front door: what a person and a team both own (plan, quota, mail
 * settings), and the teams themselves.
 */
export { countingPeriod, createWorkspacesRepository, usagePeriod, type TWorkspaceRow, type TWorkspacesRepository } from './workspaces.repository.ts';
