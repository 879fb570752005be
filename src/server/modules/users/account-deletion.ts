import type { IncomingHttpHeaders } from 'node:http';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TAccountDataRepository } from './account-data.repository.ts';

// Deletion says what proof it asks for and the auth module checks it (services.ts wires
// auth's confirmIdentity in), so users does not import auth, which imports users.

/** What the owner gives to prove it is them before something that cannot be undone. */
export type TIdentityProof = { password: string; code?: string | undefined };

/** Where the proof came from: the throttle counts by address, and a code is checked against the caller's own session. */
export type TProofOrigin = { ip: string; headers: IncomingHttpHeaders };

/** Who deletes: the owner (who proves it is them), or later an administrator. */
export type TDeletedBy = { actorId: string | null; actorEmail: string };

/**
 * Deletes an account for good. In order, and stopping at the first refusal with nothing deleted:
 * the owner's identity, then a running subscription cancelled at its gateway (a person who has
 * left must not be charged again). Then one transaction removes the user row, with which every
 * row the account owns goes (the foreign keys cascade), and writes the audit entry; billing
 * orders, payments and invoices stay, without an owner, for the seller's books. Files on disk
 * (cached PDFs, a batch's spool, exports) are removed after the rows.
 */
export function createAccountDeletion(deps: {
  data: TAccountDataRepository;
  confirmIdentity: (userId: string, proof: TIdentityProof, origin: TProofOrigin) => Promise<void>;
  cancelSubscription: (userId: string) => Promise<void>;
  /** The account's session cookies stop working in this process at once. */
  forgetSessions: (userId: string) => void;
  removeFiles: {
    cachedPdf: (documentId: string) => Promise<void>;
    batchSpool: (jobId: string) => Promise<void>;
    exports: (exportIds: string[]) => Promise<void>;
  };
  log: { warn: (obj: object, msg: string) => void };
}) {
  async function erase(userId: string, by: TDeletedBy): Promise<void> {
    // An installation without an administrator could not be run from the app any more.
    if (await deps.data.isOnlyAdmin(userId)) {
      throw new AppError(
        'conflict',
        'You are the only administrator of this installation. Make someone else an administrator first, then delete your account.',
      );
    }
    const teams = await deps.data.teamsLeftWithoutOwner(userId);
    if (teams.length > 0) {
      throw new AppError(
        'conflict',
        `You are the only owner of ${teams.map((name) => `“${name}”`).join(', ')}, and others are in ${teams.length === 1 ? 'it' : 'them'}. Make another member an owner in Settings → Team first, then delete your account.`,
      );
    }
    await deps.cancelSubscription(userId);
    const files = await deps.data.filesOf(userId);
    if (!(await deps.data.deleteAccount(userId, by))) throw unauthorized();
    deps.forgetSessions(userId);
    const removals = await Promise.allSettled([
      ...files.documentIds.map((id) => deps.removeFiles.cachedPdf(id)),
      ...files.jobIds.map((id) => deps.removeFiles.batchSpool(id)),
      deps.removeFiles.exports(files.exportIds),
    ]);
    const failed = removals.filter((r) => r.status === 'rejected').length;
    // The rows are gone; a file left behind holds nothing anyone can reach, and the sweeps remove it.
    if (failed > 0) deps.log.warn({ userId, failed }, 'could not remove every file of a deleted account');
  }

  return {
    /** The owner deletes their own account: password (and second factor) first. */
    async deleteOwn(userId: string, body: TIdentityProof, origin: TProofOrigin): Promise<void> {
      await deps.confirmIdentity(userId, { password: body.password, code: body.code }, origin);
      await erase(userId, { actorId: userId, actorEmail: 'the account’s owner' });
    },
    erase,
  };
}
export type TAccountDeletion = ReturnType<typeof createAccountDeletion>;
