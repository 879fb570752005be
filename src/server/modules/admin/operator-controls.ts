import { SIGN_UP_POLICY_SETTING, type TInvitation, type TSignUpPolicy } from '../../../contract/sign-ups.ts';
import type { TAdminUser } from '../../../contract/admin.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TSystemService } from '../system/index.ts';
import type { TInvitations, TUserAccounts } from '../users/index.ts';
import type { TAdminRepository } from './admin.repository.ts';
import type { TAdminService } from './admin.service.ts';

const POLICY_DESCRIPTION = 'Who may create an account: open, by invitation only or through single sign-on only, and from which email domains.';

/**
 * The operator's controls over who gets in: the sign-up policy, invitations, and suspending,
 * signing out and sending a reset link to an account. Each is written to the audit log, never
 * with a token in it.
 */
export function createOperatorControls(deps: {
  admin: Pick<TAdminService, 'audit' | 'listUsers'>;
  adminRepository: TAdminRepository;
  users: Pick<TUserAccounts, 'findById'>;
  system: TSystemService;
  invitations: TInvitations;
  /** The single sign-on provider's name; null when none is set up. */
  singleSignOn: string | null;
  auth: { endSessionsOf: (userId: string) => Promise<void>; sendResetLink: (email: string) => Promise<void> };
  mailServer: () => Promise<boolean>;
}) {
  async function oneUser(id: string): Promise<TAdminUser> {
    const user = (await deps.admin.listUsers()).find((u) => u.id === id);
    if (!user) throw notFound('User');
    return user;
  }

  async function target(id: string) {
    const row = await deps.users.findById(id);
    if (!row) throw notFound('User');
    return row;
  }

  async function actor(id: string) {
    return { id, email: (await deps.users.findById(id))?.email ?? id };
  }

  return {
    signUpPolicy(): Promise<TSignUpPolicy> {
      return deps.system.signUpPolicy();
    },

    async saveSignUpPolicy(actorId: string, policy: TSignUpPolicy): Promise<TSignUpPolicy> {
      if (policy.mode === 'sso' && !deps.singleSignOn) {
        const message = 'Single sign-on is not set up on this installation (OIDC_ISSUER and its settings), so nobody could sign up. Choose another mode.';
        throw new AppError('validation_failed', message, { mode: message });
      }
      const before = await deps.system.signUpPolicy();
      await deps.adminRepository.upsertSetting(SIGN_UP_POLICY_SETTING, JSON.stringify(policy), POLICY_DESCRIPTION);
      deps.system.forgetPlanCatalogue();
      await deps.admin.audit(actorId, 'sign-ups.update', 'setting', SIGN_UP_POLICY_SETTING, {
        mode: { from: before.mode, to: policy.mode },
        allowedDomains: { from: before.allowedDomains, to: policy.allowedDomains },
      });
      return deps.system.signUpPolicy();
    },

    listInvitations(): Promise<TInvitation[]> {
      return deps.invitations.listOpen();
    },

    async invite(actorId: string, email: string): Promise<TInvitation> {
      const by = await actor(actorId);
      try {
        const invitation = await deps.invitations.invite(email, by);
        await deps.admin.audit(actorId, 'invitation.create', 'invitation', invitation.id, { email });
        return invitation;
      } catch (error) {
        // Saved but not mailed: still on record, since the list shows it and Resend can send it.
        if (error instanceof AppError && error.code === 'unavailable') {
          const saved = (await deps.invitations.listOpen()).find((i) => i.email === email);
          if (saved) await deps.admin.audit(actorId, 'invitation.create', 'invitation', saved.id, { email, mailed: false });
        }
        throw error;
      }
    },

    async resendInvitation(actorId: string, id: string): Promise<TInvitation> {
      const invitation = await deps.invitations.resend(id, await actor(actorId));
      await deps.admin.audit(actorId, 'invitation.resend', 'invitation', id, { email: invitation.email });
      return invitation;
    },

    async revokeInvitation(actorId: string, id: string): Promise<void> {
      const row = await deps.invitations.revoke(id);
      await deps.admin.audit(actorId, 'invitation.revoke', 'invitation', id, { email: row.email });
    },

    /** Nothing is deleted: the account, its work and its keys stay, and none of them answers until it is restored. */
    async suspend(actorId: string, id: string): Promise<TAdminUser> {
      if (actorId === id) throw new AppError('conflict', 'You cannot suspend your own account. Ask another admin to do it.');
      const row = await target(id);
      if (!row.suspendedAt) {
        await deps.adminRepository.setSuspended(id, new Date());
        await deps.auth.endSessionsOf(id);
        await deps.admin.audit(actorId, 'user.suspend', 'user', id, { email: row.email });
      }
      return oneUser(id);
    },

    async restore(actorId: string, id: string): Promise<TAdminUser> {
      const row = await target(id);
      if (row.suspendedAt) {
        await deps.adminRepository.setSuspended(id, null);
        await deps.admin.audit(actorId, 'user.restore', 'user', id, { email: row.email });
      }
      return oneUser(id);
    },

    async signOutEverywhere(actorId: string, id: string): Promise<void> {
      const row = await target(id);
      await deps.auth.endSessionsOf(id);
      await deps.admin.audit(actorId, 'user.sign_out_everywhere', 'user', id, { email: row.email });
    },

    /** The same email the forgot-password page sends; the link itself is never seen by the admin. */
    async sendPasswordReset(actorId: string, id: string): Promise<void> {
      const row = await target(id);
      if (!(await deps.mailServer())) {
        throw new AppError('conflict', 'This installation has no mail server, so no reset link can be sent. Set one up under Settings → Outgoing mail.');
      }
      if (row.suspendedAt) throw new AppError('conflict', 'This account is suspended: restore it before sending a reset link.');
      await deps.auth.sendResetLink(row.email);
      await deps.admin.audit(actorId, 'user.password_reset_link', 'user', id, { email: row.email });
    },
  };
}
export type TOperatorControls = ReturnType<typeof createOperatorControls>;
