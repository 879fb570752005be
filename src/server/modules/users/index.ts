/*
 * The users module's front door: what the rest of the server may use. Everything else in this
 * folder (the export's use cases, the repositories' queries) is the module's own.
 */
export { createAccountDataRepository } from './account-data.repository.ts';
export { accountDataRoutes } from './account-data.routes.ts';
export { createAccountDeletion, type TAccountDeletion } from './account-deletion.ts';
export { createAccountExport } from './account-export.ts';
export { createAccountStanding, reachRefusal, type TAccountStanding, type TStanding } from './account-standing.ts';
export { createInvitationsRepository, type TInvitationRow } from './invitations.repository.ts';
export { invitationRoutes } from './invitations.routes.ts';
export { createInvitations, type TInvitations } from './invitations.ts';
export { countingPeriod, createUsersRepository, usagePeriod, type TUserRow, type TUsersRepository } from './users.repository.ts';
export { publicSystemRoutes, usersRoutes } from './users.routes.ts';
export { createUsersService, type TUsersService } from './users.service.ts';
