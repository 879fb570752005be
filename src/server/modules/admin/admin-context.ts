import type { TPlanId } from '../../../contract/plans.ts';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import type { TSystemService } from '../system/index.ts';
import type { TUserAccounts } from '../users/index.ts';
import type { TAdminRepository } from './admin.repository.ts';

/** What the admin service is built from (see `createAdminService`). */
export type TAdminDeps = {
  admin: TAdminRepository;
  users: Pick<TUserAccounts, 'findById' | 'workspaceOf'>;
  system: TSystemService;
  secrets: TSecretBox;
  /** An admin set a user's plan by hand: gateway billing stops deciding it. */
  planSetByAdmin: (userId: string, planId: TPlanId) => Promise<void>;
  /** A user's plan or generation limit changed: what this process remembers of their room is dropped. */
  quotaChanged: (userId: string) => void;
  /** A gateway was added or changed (the pages' allowed checkout origins follow). */
  gatewaysChanged?: () => void;
  /** Marks an address verified as its link would (ADMIN_EMAILS then applies). */
  markEmailVerified?: (userId: string) => Promise<void>;
};

/** The state every admin use case shares: its dependencies and the audit log. */
export type TAdminContext = ReturnType<typeof createAdminContext>;

export function createAdminContext(deps: TAdminDeps) {
  /** Records who changed what; never a secret's value, only that it was replaced. */
  async function audit(actorId: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>) {
    const actor = await deps.users.findById(actorId);
    await deps.admin.audit({ actorId, actorEmail: actor?.email ?? actorId, action, targetType, targetId, details });
  }

  const seal = (secret: string | undefined) => (secret ? deps.secrets.seal(secret) : undefined);

  return { deps, audit, seal };
}
