import { z } from 'zod';

/**
 * Who may create an account here (Admin Panel → Settings → Sign-ups): anyone, only people an
 * admin invited, or only through the single sign-on provider. Existing accounts keep signing in
 * whatever the mode.
 */
export const SIGN_UP_MODES = ['open', 'invitation', 'sso'] as const;
export const ZSignUpMode = z.enum(SIGN_UP_MODES);
export type TSignUpMode = z.infer<typeof ZSignUpMode>;

/** The system setting the policy is stored under, as JSON; it has an editor of its own. */
export const SIGN_UP_POLICY_SETTING = 'sign_ups.policy';
export const MAX_ALLOWED_DOMAINS = 100;

const DOMAIN_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** `example.com`; a leading `@` is forgiven, since people copy it from an address. */
export const ZEmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ''))
  .pipe(z.string().regex(DOMAIN_RE, 'Enter a domain such as example.com.'));

export const ZSignUpPolicy = z.object({
  mode: ZSignUpMode,
  /** Empty: any domain. Otherwise a new account's address must be at one of these (exactly). */
  allowedDomains: z
    .array(ZEmailDomain)
    .max(MAX_ALLOWED_DOMAINS, `List at most ${MAX_ALLOWED_DOMAINS} domains.`)
    .transform((domains) => [...new Set(domains)]),
});
export type TSignUpPolicy = z.output<typeof ZSignUpPolicy>;

/** The stored policy, as the server answers it (already cleaned). */
export const ZSignUpPolicyView = z.object({ mode: ZSignUpMode, allowedDomains: z.array(z.string()) });

export const DEFAULT_SIGN_UP_POLICY: TSignUpPolicy = { mode: 'open', allowedDomains: [] };

/** The part of an address after its last `@`, lower-cased. */
export function emailDomain(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

export function domainAllowed(policy: TSignUpPolicy, email: string): boolean {
  return policy.allowedDomains.length === 0 || policy.allowedDomains.includes(emailDomain(email));
}

/**
 * What the sign-up page needs to know before anyone types: the mode and the single sign-on
 * provider's name (null when none is set up). The allowed domains stay on the server: they would
 * tell anyone which organisations use this installation.
 */
export const ZSignUpConfig = z.object({
  mode: ZSignUpMode,
  singleSignOn: z.string().nullable(),
});
export type TSignUpConfig = z.infer<typeof ZSignUpConfig>;

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

export const ZInvitationInput = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Enter a valid email address.' })),
});
export type TInvitationInput = z.infer<typeof ZInvitationInput>;

/** The sign-up page asks which address an invitation link is for; the token is the permission. */
export const ZInvitationLookup = z.object({ token: z.string().trim().min(1).max(200) });
export const ZInvitationAddress = z.object({ email: z.string() });
export type TInvitationAddress = z.infer<typeof ZInvitationAddress>;

/** An invitation not yet used or revoked, as admins see it (its token is never shown again). */
export const ZInvitation = z.object({
  id: z.string(),
  email: z.string(),
  invitedBy: z.string(),
  sentAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type TInvitation = z.infer<typeof ZInvitation>;
