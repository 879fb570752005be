// The auth module's front door: what the rest of the server (and its scripts) may use of it.
export { accountRoutes } from './account.routes.ts';
export { AdminAccountInputError, createAdminAccount, parseAdminAccountInput } from './admin-account.ts';
export { authRoutes } from './auth.routes.ts';
export { createAuthService, sessionKeyOf, type TAuthService } from './auth.service.ts';
export { CLIENT_IP_HEADER } from './better-auth.ts';
export type { THashGateLimits, TScryptCost } from './password-hasher.ts';
export { createSignUpPolicy } from './sign-up-policy.ts';
export { createAdminSecondFactorGate } from './two-factor.ts';
export { adminTwoFactorRoutes, twoFactorRoutes, twoFactorSignInRoutes } from './two-factor.routes.ts';
