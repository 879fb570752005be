import { createHash, randomBytes } from 'node:crypto';
import { INVITATION_DAYS, type TInvitation } from '../../../contract/sign-ups.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TUsersRepository } from './users.repository.ts';
import type { TInvitationRow, TInvitationsRepository } from './invitations.repository.ts';

/**
 * Invitations to create an account with one address. The rule every caller shares: a token is 256
 * random bits kept only as its SHA-256, works once, for the address it was sent to, within
 * INVITATION_DAYS of its last sending, and not after it was revoked or replaced. Sign-up asks it
 * (auth/sign-up-policy.ts); a team's invitations can ask the same.
 */
export const INVITATION_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const DAY_MS = 24 * 60 * 60_000;

function invitationNotice(link: string, inviter: string): { subject: string; text: string } {
  return {
    subject: 'You are invited to Formwork',
    text: [
      'Hello,',
      '',
      `${inviter} invited you to create an account on Formwork, where you can build document formats and generate PDFs. Create your account here:`,
      '',
      link,
      '',
      `The link works once, for this email address, within ${INVITATION_DAYS} days.`,
      '',
      'If you do not know why you got this, ignore it: no account is made until the link is used.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

export function createInvitations(deps: {
  repository: TInvitationsRepository;
  users: TUsersRepository;
  publicUrl: string;
  mailServer: () => Promise<boolean>;
  /** Sends through the installation's mail server; false when it could not. */
  mailTo: (address: string, notice: { subject: string; text: string }) => Promise<boolean>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const r = deps.repository;

  function toInvitation(row: TInvitationRow, invitedByEmail: string | null, at: Date): TInvitation {
    return {
      id: row.id,
      email: row.email,
      invitedBy: invitedByEmail ?? 'a former admin',
      sentAt: row.sentAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      expired: row.expiresAt <= at,
    };
  }

  async function assertCanMail() {
    if (!(await deps.mailServer())) {
      throw new AppError('conflict', 'Invitations go by email, and this installation has no mail server. Set one up under Settings → Outgoing mail first.');
    }
  }

  /** A fresh token for `row`'s address, mailed; the answer says when the mail server refused it. */
  async function send(email: string, token: string, inviterEmail: string) {
    const link = `${deps.publicUrl}/sign-up?invitation=${token}`;
    if (!(await deps.mailTo(email, invitationNotice(link, inviterEmail)))) {
      throw new AppError(
        'unavailable',
        `The invitation to ${email} is saved, but the mail server did not take the email. Check Settings → Outgoing mail, then resend it.`,
      );
    }
  }

  const freshToken = () => randomBytes(32).toString('base64url');
  const expiry = (at: Date) => new Date(at.getTime() + INVITATION_DAYS * DAY_MS);

  return {
    async listOpen(): Promise<TInvitation[]> {
      const at = now();
      return (await r.listOpen()).map(({ invitation, invitedByEmail }) => toInvitation(invitation, invitedByEmail, at));
    },

    /** Invites an address that has no account yet; an open invitation of the same address is replaced. */
    async invite(email: string, inviter: { id: string; email: string }): Promise<TInvitation> {
      await assertCanMail();
      if (await deps.users.findByEmail(email)) {
        throw new AppError('conflict', `${email} already has an account.`, { email: 'This address already has an account.' });
      }
      const token = freshToken();
      const at = now();
      const row = await r.create({ email, tokenHash: digest(token), invitedBy: inviter.id, sentAt: at, expiresAt: expiry(at) });
      await send(email, token, inviter.email);
      return toInvitation(row, inviter.email, at);
    },

    /** Sends a new link (the old one stops working) valid for another INVITATION_DAYS. */
    async resend(id: string, inviter: { email: string }): Promise<TInvitation> {
      await assertCanMail();
      const token = freshToken();
      const at = now();
      const row = await r.renew(id, digest(token), at, expiry(at));
      if (!row) throw notFound('Invitation');
      await send(row.email, token, inviter.email);
      return toInvitation(row, inviter.email, at);
    },

    async revoke(id: string): Promise<TInvitationRow> {
      const row = await r.revoke(id, now());
      if (!row) throw notFound('Invitation');
      return row;
    },

    /** The address a usable token was sent to, for the sign-up page to fill in; undefined for any other token. */
    async addressOf(token: string): Promise<string | undefined> {
      if (!INVITATION_TOKEN_RE.test(token)) return undefined;
      return (await r.findUsable(digest(token), now()))?.email;
    },

    /** Uses a token for `email` once; undefined when it is unknown, for another address, used, revoked or expired. */
    async take(token: string, email: string): Promise<TInvitationRow | undefined> {
      if (!INVITATION_TOKEN_RE.test(token)) return undefined;
      return r.takeByToken(digest(token), email.toLowerCase(), now());
    },

    /** Uses the address's open invitation, when a sign-up carries no token (single sign-on). */
    takeForEmail(email: string): Promise<TInvitationRow | undefined> {
      return r.takeByEmail(email.toLowerCase(), now());
    },

    /** Gives back an invitation taken for an account that could not be made. */
    release(row: TInvitationRow): Promise<void> {
      return r.release(row.id);
    },
  };
}
export type TInvitations = ReturnType<typeof createInvitations>;
