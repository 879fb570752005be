/**
 * Why a sign-in through the installation's single sign-on failed, by code. The server sends the
 * sign-in page a code, never words: the page's address is anyone's to write, so it shows only these
 * texts, and any other value as the general one.
 */
export const SIGN_UP_REFUSALS = {
  sign_up_invitation_only: 'Accounts here are made by invitation only, and this address has no open invitation. Ask an administrator to invite you.',
  sign_up_domain:
    'This installation takes new accounts only from its organisation’s own addresses. Sign in with your work account, or ask an administrator to invite you.',
  sign_up_unverified_email:
    'Your sign-in provider did not confirm that this email address is yours, and new accounts here need that. Confirm the address with the provider, or ask an administrator.',
  account_suspended: 'This account is suspended. Ask an administrator of this installation to restore it.',
} as const;

export const SIGN_IN_ERRORS: Record<string, string> = {
  state_mismatch: 'The sign-in link was stale or had been tampered with. Please sign in again.',
  state_not_found: 'The sign-in session expired. Please sign in again.',
  please_restart_the_process: 'The sign-in session expired. Please sign in again.',
  invalid_code: 'The sign-in provider rejected the request. Please sign in again.',
  no_code: 'The sign-in provider did not complete the sign-in. Please try again.',
  unable_to_get_user_info: 'We could not read your profile from the sign-in provider. Please try again.',
  email_not_found: 'Your sign-in provider did not share an email address, which Formwork needs.',
  account_not_linked:
    'An account with this email address already exists here, and your sign-in provider has not confirmed the address, so the two were not joined. Sign in with your password instead.',
  access_denied: 'Sign-in was cancelled.',
  oauth_provider_not_found: 'The sign-in provider is not reachable right now. Please try again in a minute.',
  internal_server_error: 'The sign-in provider could not be reached. Please try again in a minute.',
  ...SIGN_UP_REFUSALS,
};

export const SIGN_IN_FAILED = 'Sign-in failed. Please try again.';

/** The text for a code the sign-in page was sent; the general text for anything else. */
export const signInErrorMessage = (code: string): string => (Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code]! : SIGN_IN_FAILED);
