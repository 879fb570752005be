import { z } from 'zod';
import { ZPlanId } from './plans.ts';

export const ZRole = z.enum(['user', 'admin']);
export type TRole = z.infer<typeof ZRole>;

/** The signed-in user as the browser sees it: never a password hash, never an API key. */
export const ZUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: ZRole,
  /** Whether the owner of the address has opened its verification link (or the provider vouched for it). */
  emailVerified: z.boolean(),
  /**
   * Whether the account waits for that link before it may send email, share links or create API
   * keys: only while the installation has a mail server (without one no link could arrive).
   */
  verificationRequired: z.boolean(),
  subscriptionPlan: ZPlanId,
  apiEnabled: z.boolean(),
  /** Last 4 characters of the active API key, for the masked display; null when none exists. */
  apiKeyLast4: z.string().nullable(),
  apiCallsUsed: z.number().int().nonnegative(),
  apiCallsLimit: z.number().int().nonnegative().nullable(),
  enterpriseEmail: z.string().nullable(),
  smtpHost: z.string().nullable(),
  smtpPort: z.number().int().nullable(),
  smtpSecure: z.boolean(),
  /** Whether sign-in asks for a code from an authenticator app after the password. */
  twoFactorEnabled: z.boolean(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserStats = z.object({
  totalFormats: z.number().int().nonnegative(),
  totalDocuments: z.number().int().nonnegative(),
  apiCallsUsed: z.number().int().nonnegative(),
  apiCallsLimit: z.number().int().nonnegative().nullable(),
  /** Bytes of images the user keeps, and what the plan allows. */
  storageUsedBytes: z.number().int().nonnegative(),
  storageLimitBytes: z.number().int().nonnegative(),
});
export type TUserStats = z.infer<typeof ZUserStats>;

/** New passwords only: accounts made with a shorter one keep signing in with it. */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid email address.' }));

/** A password being chosen. The server also refuses common passwords (common-passwords.ts) and says so. */
export const ZNewPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters.`);

export const ZSignInBody = z.object({
  email: ZEmail,
  password: z.string().min(1, 'Enter your password.').max(MAX_PASSWORD_LENGTH),
});
export type TSignInBody = z.infer<typeof ZSignInBody>;

export const ZSignUpBody = z.object({
  firstName: z.string().trim().min(1, 'Enter your first name.').max(100),
  lastName: z.string().trim().min(1, 'Enter your last name.').max(100),
  email: ZEmail,
  password: ZNewPassword,
  /** The token of an admin's invitation (`/sign-up?invitation=…`), when there is one. */
  invitation: z.string().trim().max(200).optional(),
});
export type TSignUpBody = z.infer<typeof ZSignUpBody>;

/**
 * Sign-up's answer when the installation has a mail server: the same for a new address and for one
 * that already has an account, so it tells nobody which addresses have accounts (docs/decisions.md).
 */
export const ZSignUpPending = z.object({
  status: z.literal('check_email'),
  message: z.string(),
});
export type TSignUpPending = z.infer<typeof ZSignUpPending>;

/** The link in a verification email is `/verify-email?token=…`; its page posts the token here. */
export const ZVerifyEmailBody = z.object({
  token: z.string().trim().min(1, 'The link has no token.').max(200),
});

export const ZVerifyEmailResult = z.object({ status: z.literal('verified') });
export type TVerifyEmailResult = z.infer<typeof ZVerifyEmailResult>;

export const ZResendVerificationResult = z.object({
  status: z.enum(['sent', 'logged', 'already_verified']),
  message: z.string(),
});
export type TResendVerificationResult = z.infer<typeof ZResendVerificationResult>;
export const ZForgotPasswordBody = z.object({ email: ZEmail });
/** The same answer whether or not the address has an account. */
export const ZForgotPasswordResponse = z.object({ message: z.string() });
export const FORGOT_PASSWORD_MESSAGE = 'If an account uses this address, we have sent it a link to choose a new password. The link works once, within an hour.';

export const ZResetPasswordBody = z.object({
  token: z.string().min(1, 'This link is incomplete.').max(512),
  newPassword: ZNewPassword,
});
export type TResetPasswordBody = z.infer<typeof ZResetPasswordBody>;

export const ZChangePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.').max(MAX_PASSWORD_LENGTH),
  newPassword: ZNewPassword,
});
export type TChangePasswordBody = z.infer<typeof ZChangePasswordBody>;

export const ZProfileBody = z.object({
  firstName: z.string().trim().min(1, 'Enter your first name.').max(100),
  lastName: z.string().trim().min(1, 'Enter your last name.').max(100),
});
export type TProfileBody = z.infer<typeof ZProfileBody>;

export const ZChangeEmailBody = z.object({ newEmail: ZEmail });

export const ZConfirmEmailBody = z.object({ token: z.string().min(1).max(4096) });

/** A signed-in session as its owner sees it: never its token. */
export const ZAccountSession = z.object({
  id: z.string(),
  userAgent: z.string().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  current: z.boolean(),
});
export type TAccountSession = z.infer<typeof ZAccountSession>;
export const ZAccountSessions = z.object({ sessions: z.array(ZAccountSession) });
export type TAccountSessions = z.infer<typeof ZAccountSessions>;
