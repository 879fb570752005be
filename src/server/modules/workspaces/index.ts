/*
 * The workspaces module's front door: what a person and a team both own (plan, quota, mail
 * settings), and the teams themselves.
 */
export {
  countingPeriod,
  createWorkspacesRepository,
  generationLimitOf,
  usagePeriod,
  type TGenerationLimits,
  type TWorkspaceRow,
  type TWorkspacesRepository,
} from './workspaces.repository.ts';
export { createTeamsRepository } from './teams.repository.ts';
export { teamInvitationRoutes, teamsRoutes } from './teams.routes.ts';
export { createTeamsService } from './teams.service.ts';
export { decorateWorkspace, resolveWorkspaceFor } from './workspace-access.ts';
