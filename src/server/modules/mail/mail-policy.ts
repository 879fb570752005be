import type { TPlanId } from '../../../contract/plans.ts';
import { reachRefusal, type TStanding } from '../users/index.ts';

/**
 * What the policy knows of an account. The installation's mail server sends as this installation,
 * so its reputation is everyone's: an account made a second ago must not be able to write to
 * strangers through it in words of its own choosing.
 */
export type TMailAccount = {
  plan: TPlanId;
  standing: TStanding;
};

/**
 * Why `account` may not put its own subject and message in mail sent through the installation's
 * server, in words that say the way out; null when it may. Mail through the user's own SMTP server
 * is theirs to answer for and never asks. The one place this rule lives: the email endpoints, the
 * mail merge, the sender at send time and the settings the web dialog reads all ask it.
 */
export function ownWordsRefusal(account: TMailAccount): string | null {
  // An address nobody has confirmed writes nothing of its own (mail queued before it changed goes
  // out as the standard email).
  const unverified = reachRefusal(account.standing, 'email');
  if (unverified) return unverified.message;
  if (account.plan === 'free') {
    return 'On the Free plan, emails sent through this installation’s mail server use a standard subject and message that name the document and you. Upgrade your plan to write your own.';
  }
  return null;
}
