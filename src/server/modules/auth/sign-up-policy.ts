import { APIError } from 'better-auth';
import { domainAllowed, type TSignUpPolicy } from '../../../contract/sign-ups.ts';
import { AppError } from '../../http/app-error.ts';
import type { TInvitations, TInvitationRow } from '../users/index.ts';
import { SIGN_UP_REFUSALS } from '../../../contract/sign-in-errors.ts';

/** The codes single sign-on refusals carry to the sign-in page, which words them (contract/sign-in-errors.ts). */
export type TSignUpRefusal = keyof typeof SIGN_UP_REFUSALS;

export const SUSPENDED_MESSAGE = SIGN_UP_REFUSALS.account_suspended;

const INVALID_INVITATION =
  'This invitation is not valid any more: it was used, revoked, replaced by a newer one, expired, or it was sent to another address. Ask an administrator for a new one.';

/**
 * Who may create an account (Admin Panel → Settings → Sign-ups). Every refusal is decided before
 * anything tells whether the address already has an account, so none of them says so. An
 * admin's invitation names one address, so it also passes the domain limit: the admin chose it.
 */
export function createSignUpPolicy(deps: {
  policy: () => Promise<TSignUpPolicy>;
  invitations: TInvitations;
  /** Whether a team's open invitation link was sent to this address (it is accepted after sign-in). */
  teamInvites: (token: string, email: string) => Promise<boolean>;
  singleSignOn: string | null;
}) {
  return {
    /**
     * A sign-up with a password. Returns the invitation it used, to give back if the account is
     * not made after all.
     */
    async admitPassword(email: string, invitationToken: string | undefined): Promise<TInvitationRow | undefined> {
      const policy = await deps.policy();
      if (policy.mode === 'sso') {
        const button = deps.singleSignOn ? `“Continue with ${deps.singleSignOn}”` : 'single sign-on';
        throw new AppError('forbidden', `Accounts here are made through single sign-on only. Use ${button} on the sign-in page instead of a password.`, {
          email: 'Use single sign-on to create an account here.',
        });
      }
      if (invitationToken) {
        const taken = await deps.invitations.take(invitationToken, email);
        if (taken) return taken;
        // A team's invitation opens an installation closed to invitations; the domain limit still holds.
        const teamInvited = await deps.teamInvites(invitationToken, email);
        if (teamInvited && domainAllowed(policy, email)) return undefined;
        if (policy.mode === 'invitation')
          throw new AppError('bad_request', INVALID_INVITATION, { invitation: INVALID_INVITATION, email: 'This address has no valid invitation.' });
      }
      if (policy.mode === 'invitation') {
        throw new AppError(
          'forbidden',
          'Accounts here are made by invitation only. Ask an administrator to invite you; the email you get has the link to use.',
          {
            email: 'This address has not been invited.',
          },
        );
      }
      if (!domainAllowed(policy, email)) {
        throw new AppError(
          'forbidden',
          'This installation takes new accounts only from its organisation’s own addresses. Use your work address, or ask an administrator to invite you.',
          {
            email: 'Addresses at this domain cannot sign up here.',
          },
        );
      }
      return undefined;
    },

    /** Gives back an invitation taken for an account that was not made after all. */
    release(invitation: TInvitationRow): Promise<void> {
      return deps.invitations.release(invitation);
    },

    /**
     * A first sign-in through single sign-on, which makes the account inside the auth library:
     * the refusal goes back to the library, which sends the browser to our error page with its code.
     */
    async admitSingleSignOn(email: string, providerVerified: boolean): Promise<void> {
      const policy = await deps.policy();
      const refuse = (code: TSignUpRefusal) => new APIError('FORBIDDEN', { code, message: SIGN_UP_REFUSALS[code] });
      // An address the provider does not vouch for could be anyone's: it neither takes an
      // invitation nor passes a domain limit.
      if (providerVerified && (await deps.invitations.takeForEmail(email))) return;
      if (policy.mode === 'invitation') throw refuse(providerVerified ? 'sign_up_invitation_only' : 'sign_up_unverified_email');
      if (!domainAllowed(policy, email)) throw refuse('sign_up_domain');
      if (policy.allowedDomains.length > 0 && !providerVerified) throw refuse('sign_up_unverified_email');
    },
  };
}
export type TSignUpPolicyGate = ReturnType<typeof createSignUpPolicy>;
