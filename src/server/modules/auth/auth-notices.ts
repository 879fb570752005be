import { VERIFY_EMAIL_SECONDS } from './better-auth.ts';
import { describeWait, SIGN_IN_THROTTLE } from './sign-in-throttle.ts';

export type TNotice = { subject: string; text: string };

const greeting = (firstName: string | null | undefined) => `Hello ${firstName?.trim() || 'there'},`;

export function verificationNotice(firstName: string | null | undefined, email: string, link: string): TNotice {
  return {
    subject: 'Verify your email address for Formwork',
    text: [
      greeting(firstName),
      '',
      `Someone, probably you, created a Formwork account with this address (${email}). Open this link to verify that the address is yours:`,
      '',
      link,
      '',
      `The link works once, within ${VERIFY_EMAIL_SECONDS / 3600} hours. Until the address is verified, the account can build formats and generate documents, but cannot send email, share links or create API keys.`,
      '',
      'If you did not create this account, ignore this message: nothing is sent in your name until the link is opened.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

export function takenAddressNotice(firstName: string | null, email: string, publicUrl: string): TNotice {
  return {
    subject: 'Someone tried to create a Formwork account with your address',
    text: [
      greeting(firstName),
      '',
      `Someone tried to create a new Formwork account with your address (${email}), which already has an account. Nothing was changed, and nobody was signed in to your account.`,
      '',
      `If it was you, sign in instead: ${publicUrl}/login`,
      '',
      'If it was not you, there is nothing to do.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

export function resetNotice(firstName: string | null, link: string): TNotice {
  return {
    subject: 'Choose a new Formwork password',
    text: [
      greeting(firstName),
      '',
      'Someone (we hope you) asked to reset the password of your Formwork account. Choose a new one here:',
      '',
      link,
      '',
      'The link works once, within an hour. Using it signs you out everywhere else.',
      '',
      'If you did not ask for this, ignore this email: your password stays as it is.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

export function emailChangeLinkNotice(firstName: string | null, newEmail: string, link: string): TNotice {
  return {
    subject: 'Confirm your new Formwork email address',
    text: [
      greeting(firstName),
      '',
      `To make ${newEmail} the address of your Formwork account, open this link while signed in:`,
      '',
      link,
      '',
      'The link works within an hour. Until it is opened, the account keeps its current address.',
      '',
      'If you did not ask for this, ignore this email.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

export function emailChangeRequestedNotice(firstName: string | null, newEmail: string, publicUrl: string): TNotice {
  return {
    subject: 'Your Formwork email address is being changed',
    text: [
      greeting(firstName),
      '',
      `Someone signed in to your Formwork account asked to change its email address to ${newEmail}. The change happens only if the link we sent to that address is opened.`,
      '',
      `If this was not you, sign in, change your password and sign out everywhere else from Settings → Profile: ${publicUrl}/settings`,
      '',
      '— Formwork',
    ].join('\n'),
  };
}

/** The email an account's owner gets when its sign-ins go past the ceiling. */
export function guessingNotice(firstName: string | null, email: string, publicUrl: string): TNotice {
  const limits = SIGN_IN_THROTTLE;
  return {
    subject: 'Someone is trying to sign in to your Formwork account',
    text: [
      `Hello ${firstName?.trim() || 'there'},`,
      '',
      `Someone has entered a wrong password for your Formwork account (${email}) at least ${limits.accountCeiling} times within an hour.`,
      '',
      `To protect the account, every sign-in to it now waits a moment after each wrong password, up to ${describeWait(limits.maxAccountDelaySeconds * 1000)}. If the sign-in page asks you to wait, try again after the time it shows.`,
      '',
      'If this was you, there is nothing to do. If not, the attempts fail as long as your password is not easy to guess; a long password that you use nowhere else is the best protection.',
      '',
      `Sign in: ${publicUrl}/login`,
      '',
      '— Formwork',
    ].join('\n'),
  };
}

/** Told to a user whose second factor an admin removed. */
export function signInRemovedNotice(firstName: string | null): TNotice {
  return {
    subject: 'Two-factor sign-in was turned off for your Formwork account',
    text: [
      greeting(firstName),
      '',
      'An administrator of this Formwork installation removed two-factor sign-in from your account, so signing in now asks only for your password.',
      '',
      'If you asked for this (a lost phone, say), turn it on again under Settings → Profile with your new device. If you did not, change your password and tell the administrator.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}
