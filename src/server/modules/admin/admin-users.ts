import type { TAdminUser, TAdminUserUpdate } from '../../../contract/admin.ts';
import { AppError, forbidden, notFound, unauthorized } from '../../http/app-error.ts';
import type { TUserRow } from '../users/index.ts';
import { usagePeriod } from '../workspaces/index.ts';
import type { TAdminContext } from './admin-context.ts';

/** Every account with its usage, for the users tab. */
export async function listUsers({ deps }: TAdminContext): Promise<TAdminUser[]> {
  const plans = await deps.system.planCatalogue();
  const rows = await deps.admin.listUsers(usagePeriod());
  return rows.map(({ user, workspace, totalFormats, totalDocuments, apiCallsUsed }) => ({
    id: user.id,
    suspendedAt: user.suspendedAt?.toISOString() ?? null,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    emailVerified: user.emailVerified,
    subscriptionPlan: workspace.subscriptionPlan,
    apiCallsLimit: workspace.apiCallsLimit ?? plans.find((p) => p.id === workspace.subscriptionPlan)?.generationsPerMonth ?? null,
    apiCallsUsed,
    totalFormats,
    totalDocuments,
    twoFactorEnabled: user.twoFactorEnabled,
    createdAt: user.createdAt.toISOString(),
  }));
}

async function oneUser(ctx: TAdminContext, id: string): Promise<TAdminUser> {
  const user = (await listUsers(ctx)).find((u) => u.id === id);
  if (!user) throw notFound('User');
  return user;
}

/** Admin routes answer 401 signed out and 403 to signed-in users who are not admins. */
export async function requireAdmin({ deps }: TAdminContext, userId: string | undefined): Promise<TUserRow> {
  if (!userId) throw unauthorized();
  const user = await deps.users.findById(userId);
  if (!user) throw unauthorized();
  if (user.role !== 'admin') throw forbidden('Access Denied: the Admin Panel is for administrators.');
  return user;
}

/** Makes a user an admin or takes the role away (never an admin's own). */
export async function setRole(ctx: TAdminContext, actorId: string, id: string, role: 'user' | 'admin'): Promise<TAdminUser> {
  const { deps, audit } = ctx;
  if (actorId === id && role !== 'admin') {
    throw new AppError('conflict', 'You cannot remove your own admin role. Ask another admin to do it.');
  }
  const before = await deps.users.findById(id);
  if (!before || !(await deps.admin.updateUser(id, { role }))) throw notFound('User');
  await audit(actorId, 'user.role', 'user', id, { email: before.email, from: before.role, to: role });
  return oneUser(ctx, id);
}

/** An admin vouches for a user's address (they know the person), as the verification link would. */
export async function markEmailVerified(ctx: TAdminContext, actorId: string, id: string): Promise<TAdminUser> {
  const { deps, audit } = ctx;
  const before = await deps.users.findById(id);
  if (!before || !deps.markEmailVerified) throw notFound('User');
  if (!before.emailVerified) {
    await deps.markEmailVerified(id);
    await audit(actorId, 'user.email_verified', 'user', id, { email: before.email });
  }
  return oneUser(ctx, id);
}

/** Sets a user's plan or generation limit by hand. */
export async function updateUser(ctx: TAdminContext, actorId: string, id: string, changes: TAdminUserUpdate): Promise<TAdminUser> {
  const { deps, audit } = ctx;
  const [before, workspace] = await Promise.all([deps.users.findById(id), deps.users.workspaceOf(id)]);
  if (!before || !workspace) throw notFound('User');
  if (changes.subscriptionPlan !== undefined && changes.subscriptionPlan !== workspace.subscriptionPlan) {
    await deps.planSetByAdmin(id, changes.subscriptionPlan);
  }
  if (!(await deps.admin.updatePersonalPlan(id, changes))) throw notFound('User');
  deps.quotaChanged(id);
  const details: Record<string, unknown> = { email: before.email };
  if (changes.subscriptionPlan !== undefined) details.plan = { from: workspace.subscriptionPlan, to: changes.subscriptionPlan };
  if (changes.apiCallsLimit !== undefined) details.limit = { from: workspace.apiCallsLimit, to: changes.apiCallsLimit };
  await audit(actorId, 'user.plan', 'user', id, details);
  return oneUser(ctx, id);
}
