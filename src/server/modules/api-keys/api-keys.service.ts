import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_PREFIX, MAX_API_KEYS, type TApiKey, type TApiKeyMode, type TCreatedApiKey } from '../../../contract/api-keys.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TApiKeysRepository, TListedApiKey } from './api-keys.repository.ts';
import type { TAccountStanding } from '../users/index.ts';
import { isoOrNull, pick } from '../api-fields.ts';

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

function toApiKey(row: TListedApiKey): TApiKey {
  return {
    ...pick(row, ['id', 'name', 'mode', 'last4', 'madeBy']),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: isoOrNull(row.lastUsedAt),
    stopped: row.suspended ? 'maker_suspended' : row.makerAway ? 'maker_not_admin' : null,
  };
}

/**
 * API keys: made only for plans with API access, stored as a hash, listed by their last 4
 * characters, revoked at once. The API admits a key in one statement (public-api.repository.ts `admit`).
 */
export function createApiKeysService(deps: {
  keys: TApiKeysRepository;
  hasApiAccess: (ownerId: string) => Promise<boolean>;
  standing: Pick<TAccountStanding, 'assertMayReach'>;
}) {
  return {
    async list(ownerId: string): Promise<TApiKey[]> {
      return (await deps.keys.list(ownerId)).map(toApiKey);
    },

    /** A key for the workspace, made by `actorId` (whose standing it needs, and in whose name it acts). */
    async create(ownerId: string, actorId: string, input: { name: string; mode: TApiKeyMode }): Promise<TCreatedApiKey> {
      if (!(await deps.hasApiAccess(ownerId))) {
        throw new AppError('plan_limit', 'API keys come with the Enterprise plan. Contact sales to upgrade.');
      }
      await deps.standing.assertMayReach(actorId, 'api_key');
      if ((await deps.keys.countActive(ownerId)) >= MAX_API_KEYS) {
        throw new AppError('conflict', `You can hold at most ${MAX_API_KEYS} keys. Revoke one you no longer use first.`);
      }
      const key = `${API_KEY_PREFIX[input.mode]}${randomBytes(32).toString('base64url')}`;
      const { id } = await deps.keys.insert({
        id: randomUUID(),
        ownerId,
        createdBy: actorId,
        name: input.name,
        mode: input.mode,
        keyHash: hashApiKey(key),
        last4: key.slice(-4),
      });
      const [listed] = await deps.keys.list(ownerId, id);
      return { ...toApiKey(listed!), key };
    },

    async revoke(ownerId: string, id: string): Promise<void> {
      if (!(await deps.keys.revoke(ownerId, id))) throw notFound('API key');
    },

    /** Every key the owner has made, revoked ones too: the API usage report names each. */
    async listForUsage(ownerId: string): Promise<{ id: string; name: string; last4: string; revoked: boolean }[]> {
      return (await deps.keys.listAll(ownerId)).map((k) => ({ id: k.id, name: k.name, last4: k.last4, revoked: k.revokedAt !== null }));
    },

    /** Records that a key was used at that moment (shown as "last used"). */
    async markUsed(keyId: string, at: Date): Promise<void> {
      await deps.keys.touch(keyId, at);
    },
  };
}
export type TApiKeysService = ReturnType<typeof createApiKeysService>;
