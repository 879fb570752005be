import type { TProfileBody, TUser } from '../../../contract/user.ts';
import { unauthorized } from '../../http/app-error.ts';
import type { TAuthContext } from './auth-context.ts';

export function createUpdateProfile(ctx: TAuthContext) {
  const { deps } = ctx;
  return async function updateProfile(userId: string, body: TProfileBody): Promise<TUser> {
    await deps.users.setName(userId, body.firstName, body.lastName);
    const row = await deps.users.findById(userId);
    if (!row) throw unauthorized();
    return deps.usersService.toUser(row);
  };
}
