import { AppError } from '../../http/app-error.ts';

/** What the rule knows of an account and of the installation it lives in. */
export type TStanding = {
  emailVerified: boolean;
  /**
   * Whether the installation has a mail server. Without one no verification link could reach
   * anybody, so nobody is held back for it (the admin role still needs a verified address).
   */
  mailServer: boolean;
};

/** What an account does that reaches other people in its own name, through this installation. */
export type TReach = 'email' | 'share' | 'api_key';

const DOING: Record<TReach, string> = {
  email: 'send email',
  share: 'share links',
  api_key: 'create API keys',
};

/** Whether the account waits for its verification link before it may reach other people. */
export const verificationRequired = (standing: TStanding): boolean => standing.mailServer && !standing.emailVerified;

/**
 * The one place the rule lives: an account whose address nobody has confirmed may build and
 * generate, but it may not yet send email, share links or hold API keys, so an address typed by
 * someone else cannot be used to write to strangers or publish documents in its owner's name.
 * The mail policy (`ownWordsRefusal`) asks it too. Null when the account may.
 */
export function reachRefusal(standing: TStanding, what: TReach): AppError | null {
  if (!verificationRequired(standing)) return null;
  return new AppError('email_unverified', `Verify your email address before you ${DOING[what]}: open the link we emailed you, or ask for a new one.`);
}

/** Reads an account's standing; `assertMayReach` throws the rule's refusal. */
export function createAccountStanding(deps: { emailVerified: (userId: string) => Promise<boolean | undefined>; mailServer: () => Promise<boolean> }) {
  async function of(userId: string): Promise<TStanding> {
    const [emailVerified, mailServer] = await Promise.all([deps.emailVerified(userId), deps.mailServer()]);
    return { emailVerified: emailVerified ?? false, mailServer };
  }
  return {
    of,
    /** The same, for an account whose row is already read: only the mail server is asked. */
    async ofAccount(account: { emailVerified: boolean }): Promise<TStanding> {
      return { emailVerified: account.emailVerified, mailServer: await deps.mailServer() };
    },
    async assertMayReach(userId: string, what: TReach): Promise<void> {
      const refusal = reachRefusal(await of(userId), what);
      if (refusal) throw refusal;
    },
  };
}
export type TAccountStanding = ReturnType<typeof createAccountStanding>;
