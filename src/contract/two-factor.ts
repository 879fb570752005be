import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, ZUser } from './user.ts';

/** Every change to a second factor asks for the password again: a session left open is not enough. */
export const ZTwoFactorPasswordBody = z.object({
  password: z.string().min(1, 'Enter your password.').max(MAX_PASSWORD_LENGTH),
});

/** A code from an authenticator app: six digits, spaces allowed (apps show "123 456"). */
export const ZTotpCode = z
  .string()
  .max(20)
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

/** A recovery code as it was shown ("abcde-12345"); case and spaces as typed are kept. */
export const ZRecoveryCode = z.string().trim().min(1, 'Enter one of your recovery codes.').max(64);

/** What setting up an authenticator app needs: the otpauth:// address, its QR code and the secret to type in. */
export const ZTwoFactorSetup = z.object({
  totpURI: z.string(),
  /** The TOTP secret in base32, for apps that cannot scan: shown once, during setup. */
  secret: z.string(),
  /** The QR code of `totpURI` as an SVG data URL. */
  qrCode: z.string(),
});
export type TTwoFactorSetup = z.infer<typeof ZTwoFactorSetup>;

export const ZTwoFactorVerifyBody = z.object({ code: ZTotpCode });

/** Ten single-use codes, shown once: when two-factor is turned on and when they are made again. */
export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;

/** The second step of a sign-in: a code from the app, or one recovery code. */
export const ZTwoFactorSignInBody = z
  .object({ code: ZTotpCode.optional(), recoveryCode: ZRecoveryCode.optional() })
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), {
    message: 'Enter a code from your authenticator app or one recovery code.',
    path: ['code'],
  });
export type TTwoFactorSignInBody = z.infer<typeof ZTwoFactorSignInBody>;

/** Sign-in's answer when the password was right and the account has two-factor: no session yet. */
export const ZTwoFactorChallenge = z.object({
  status: z.literal('two_factor_required'),
  message: z.string(),
});
export type TTwoFactorChallenge = z.infer<typeof ZTwoFactorChallenge>;

export const ZSignInResponse = z.union([ZUser, ZTwoFactorChallenge]);
export type TSignInResponse = z.infer<typeof ZSignInResponse>;

/** Admin Panel → Settings: when "true", admins must have two-factor before any admin route answers. */
export const ADMIN_TWO_FACTOR_SETTING = 'security.admin_two_factor';
