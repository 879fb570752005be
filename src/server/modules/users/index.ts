/*
 * The users module's front door: what the rest of the server may use. Everything else in this
 * folder (the export's use cases, the repositories' queries) is the module's own; the repository
 * factories are here for services.ts, and other modules reach accounts through createUserAccounts.
 */
export { createAccountDataRepository } from './account-data.repository.ts';
export { accountDataRoutes } from './account-data.routes.ts';
export { createAccountDeletion, type TAccountDeletion, type TIdentityProof, type TProofOrigin } from './account-deletion.ts';
export { createAccountExport } from './account-export.ts';
export { createAccountStanding, reachRefusal, type TAccountStanding, type TStanding } from './account-standing.ts';
export { createInvitationsRepository, type TInvitationRow } from './invitations.repository.ts';
export { invitationRoutes } from './invitations.routes.ts';
export { createInvitations, type TInvitations } from './invitations.ts';
export { createUserAccounts, type TUserAccounts } from './user-accounts.ts';
export { createUsersRepository, type TUserRow } from './users.repository.ts';
export { publicSystemRoutes, usersRoutes } from './users.routes.ts';
export { createUsersService, type TUsersService } from './users.service.ts';
