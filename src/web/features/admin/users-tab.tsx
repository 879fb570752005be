import { ChartColumnIcon, CreditCardIcon, SearchIcon, ShieldCheckIcon, ShieldIcon, UserIcon, UsersIcon, XIcon } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import type { TAdminUser } from '../../../contract/admin';
import type { TPlan, TPlanCatalogue, TPlanId } from '../../../contract/plans';
import type { TRole } from '../../../contract/user';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { cn, formatNumber } from '../../lib/utils';
import { Field, FormDialogFooter, formatDay, NativeSelect } from './admin-ui';
import { usePlans } from '../../hooks/use-plans';
import { userApiUsageCsvUrl, useAdminUsers, useChangeRole, useUpdateUser, useUserApiUsage } from './api';
import { UsagePanel } from '../api-access/usage-panel';
import { AccountActionsMenu } from './account-actions';
import { InviteButton, PendingInvitations } from './invitations-panel';

export function displayName(u: Pick<TAdminUser, 'firstName' | 'lastName' | 'email'>): string {
  const name = [u.firstName, u.lastName].filter(Boolean).join(' ').trim();
  return name || u.email.split('@')[0] || u.email;
}

function initials(u: TAdminUser): string {
  const parts = [u.firstName, u.lastName].filter((p): p is string => !!p && p.trim() !== '');
  const letters = parts.length > 0 ? parts.map((p) => p.trim()[0]) : [u.email[0]];
  return letters.join('').slice(0, 2).toUpperCase();
}

function findPlan(catalogue: TPlanCatalogue, id: TPlanId): TPlan | undefined {
  return catalogue.find((p) => p.id === id);
}

function planLimit(catalogue: TPlanCatalogue, id: TPlanId): number {
  return findPlan(catalogue, id)?.generationsPerMonth ?? 0;
}

function Avatar({ user }: { user: TAdminUser }) {
  return (
    <span
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-soft text-[13px] font-semibold text-primary"
      aria-hidden
    >
      {initials(user)}
    </span>
  );
}

function RoleBadge({ role }: { role: TRole }) {
  return role === 'admin' ? (
    <Badge variant="soft" data-testid="role-badge">
      <ShieldCheckIcon aria-hidden /> Admin
    </Badge>
  ) : (
    <Badge variant="secondary" data-testid="role-badge">
      User
    </Badge>
  );
}

/**
 * The user's own limit, or null when they are on the plan's. The list may report the plan's limit
 * itself rather than null, so a limit equal to the plan's counts as the plan's.
 */
function customLimit(user: TAdminUser, catalogue: TPlanCatalogue): number | null {
  if (user.apiCallsLimit === null) return null;
  return user.apiCallsLimit === planLimit(catalogue, user.subscriptionPlan) ? null : user.apiCallsLimit;
}

function Usage({ user, catalogue }: { user: TAdminUser; catalogue: TPlanCatalogue }) {
  const limit = user.apiCallsLimit ?? planLimit(catalogue, user.subscriptionPlan);
  const custom = customLimit(user, catalogue) !== null;
  const pct = limit > 0 ? Math.min(100, Math.round((user.apiCallsUsed / limit) * 100)) : user.apiCallsUsed > 0 ? 100 : 0;
  return (
    <div className="min-w-[112px]">
      <p className="text-sm whitespace-nowrap tabular-nums">
        <span className="font-medium text-foreground">{formatNumber(user.apiCallsUsed)}</span>
        <span className="text-muted-foreground"> / {formatNumber(limit)}</span>
        {custom && (
          <span className="ml-1.5 text-[11px] font-medium text-primary" title="A limit set for this user, not the plan's">
            custom
          </span>
        )}
      </p>
      <div className="mt-1.5 h-1 w-full max-w-[128px] overflow-hidden rounded-full bg-secondary" aria-hidden>
        <div
          className={cn('h-full rounded-full', pct >= 90 ? 'bg-destructive' : 'bg-primary')}
          style={{ width: `${pct}%` }}
        />
      </div>
    </div>
  );
}

type DialogTarget = { kind: 'role' | 'plan' | 'usage'; user: TAdminUser } | null;

function SuspendedBadge({ user }: { user: TAdminUser }) {
  if (!user.suspendedAt) return null;
  return (
    <Badge variant="destructive" className="ml-1.5" title={`Suspended since ${formatDay(user.suspendedAt)}: no sign-in, session or API key works`}>
      Suspended
    </Badge>
  );
}

function UnverifiedBadge({ user }: { user: TAdminUser }) {
  if (user.emailVerified) return null;
  return (
    <Badge variant="outline" className="ml-1.5" title="The address has not been verified: its owner has not opened the link">
      Unverified
    </Badge>
  );
}

function RowActions({ user, isSelf, onOpen }: { user: TAdminUser; isSelf: boolean; onOpen: (t: DialogTarget) => void }) {
  return (
    <div className="flex items-center justify-end gap-0.5">
      <Button
        variant="ghost"
        size="icon-sm"
        onClick={() => onOpen({ kind: 'role', user })}
        aria-label={`Change role for ${user.email}`}
        title="Change role"
      >
        <ShieldIcon aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        onClick={() => onOpen({ kind: 'plan', user })}
        aria-label={`Change plan for ${user.email}`}
        title="Change plan and limit"
      >
        <CreditCardIcon aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        onClick={() => onOpen({ kind: 'usage', user })}
        aria-label={`API usage of ${user.email}`}
        title="API usage"
      >
        <ChartColumnIcon aria-hidden />
      </Button>
      <AccountActionsMenu user={user} isSelf={isSelf} />
    </div>
  );
}

export function UsersTab({ currentUserId }: { currentUserId: string }) {
  const users = useAdminUsers(true);
  const { plans: catalogue } = usePlans();
  const [query, setQuery] = useState('');
  const [target, setTarget] = useState<DialogTarget>(null);

  const list = users.data;
  const filtered = useMemo(() => {
    const all = list ?? [];
    const q = query.trim().toLowerCase();
    if (!q) return all;
    return all.filter((u) => displayName(u).toLowerCase().includes(q) || u.email.toLowerCase().includes(q));
  }, [list, query]);
  const adminCount = (list ?? []).filter((u) => u.role === 'admin').length;

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="relative w-full sm:max-w-xs">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search by name or email"
            aria-label="Search users by name or email"
            className="pl-9"
          />
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        {list && (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {query.trim()
              ? `${formatNumber(filtered.length)} of ${formatNumber(list.length)} users`
              : `${formatNumber(list.length)} ${list.length === 1 ? 'user' : 'users'} · ${formatNumber(adminCount)} ${adminCount === 1 ? 'admin' : 'admins'}`}
          </p>
        )}
          <InviteButton />
        </div>
      </div>

      <PendingInvitations />

      {users.isLoading ? (
        <div className="space-y-3" aria-hidden>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : users.error ? (
        <LoadError error={users.error} fallback="Could not load users." />
      ) : filtered.length === 0 ? (
        <EmptyStateCard
          icon={query.trim() ? SearchIcon : UsersIcon}
          title={query.trim() ? 'No matching users' : 'No users yet'}
          description={query.trim() ? `Nobody's name or email contains “${query.trim()}”.` : 'People appear here once they create an account.'}
          action={
            query.trim() ? (
              <Button variant="outline" onClick={() => setQuery('')}>
                <XIcon aria-hidden /> Clear search
              </Button>
            ) : undefined
          }
          className="py-14"
        />
      ) : (
        <>
          {/* Wide screens: a table. */}
          <Card className="hidden overflow-x-auto xl:block">
            <table className="w-full text-left text-sm" aria-label="Users">
              <thead className="border-b bg-muted/40 text-xs font-medium text-muted-foreground">
                <tr>
                  <th scope="col" className="px-5 py-2.5 font-medium">User</th>
                  <th scope="col" className="px-3 py-2.5 font-medium">Role</th>
                  <th scope="col" className="px-3 py-2.5 font-medium">Plan</th>
                  <th scope="col" className="px-3 py-2.5 font-medium">Generations</th>
                  <th scope="col" className="px-3 py-2.5 text-right font-medium">Formats</th>
                  <th scope="col" className="px-3 py-2.5 text-right font-medium">Documents</th>
                  <th scope="col" className="px-3 py-2.5 font-medium">Joined</th>
                  <th scope="col" className="py-2.5 pr-4 pl-2 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {filtered.map((u) => (
                  <tr key={u.id} data-testid="admin-user-row" className="transition-colors hover:bg-muted/30">
                    <td className="max-w-[210px] py-3 pr-3 pl-5">
                      <div className="flex min-w-0 items-center gap-3">
                        <Avatar user={u} />
                        <div className="min-w-0">
                          <p className="truncate font-medium text-foreground" title={displayName(u)}>
                            {displayName(u)}
                            {u.id === currentUserId && <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span>}
                          </p>
                          <p className="truncate text-xs text-muted-foreground" title={u.email}>
                            {u.email}
                          </p>
                        </div>
                      </div>
                    </td>
                    <td className="px-3 py-3">
                      <RoleBadge role={u.role} />
                      <UnverifiedBadge user={u} />
                      <SuspendedBadge user={u} />
                    </td>
                    <td className="px-3 py-3">
                      <Badge variant="outline">{findPlan(catalogue, u.subscriptionPlan)?.name ?? u.subscriptionPlan}</Badge>
                    </td>
                    <td className="px-3 py-3">
                      <Usage user={u} catalogue={catalogue} />
                    </td>
                    <td className="px-3 py-3 text-right tabular-nums">{formatNumber(u.totalFormats)}</td>
                    <td className="px-3 py-3 text-right tabular-nums">{formatNumber(u.totalDocuments)}</td>
                    <td className="px-3 py-3 whitespace-nowrap text-muted-foreground tabular-nums">{formatDay(u.createdAt)}</td>
                    <td className="py-3 pr-4 pl-2">
                      <RowActions user={u} isSelf={u.id === currentUserId} onOpen={setTarget} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>

          {/* Narrow screens: one card per user. */}
          <ul className="grid gap-3 md:grid-cols-2 xl:hidden" aria-label="Users">
            {filtered.map((u) => (
              <li key={u.id} data-testid="admin-user-card">
                <Card className="p-4">
                  <div className="flex items-start gap-3">
                    <Avatar user={u} />
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-medium" title={displayName(u)}>
                        {displayName(u)}
                        {u.id === currentUserId && <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span>}
                      </p>
                      <p className="truncate text-xs text-muted-foreground" title={u.email}>
                        {u.email}
                      </p>
                      <div className="mt-2 flex flex-wrap gap-1.5">
                        <RoleBadge role={u.role} />
                        <UnverifiedBadge user={u} />
                        <SuspendedBadge user={u} />
                        <Badge variant="outline">{findPlan(catalogue, u.subscriptionPlan)?.name ?? u.subscriptionPlan}</Badge>
                      </div>
                    </div>
                  </div>
                  <dl className="mt-4 grid grid-cols-3 gap-3 border-t pt-3 text-xs">
                    <div className="col-span-3">
                      <dt className="mb-1 text-muted-foreground">Generations this month</dt>
                      <dd>
                        <Usage user={u} catalogue={catalogue} />
                      </dd>
                    </div>
                    <div>
                      <dt className="text-muted-foreground">Formats</dt>
                      <dd className="mt-0.5 text-sm font-medium tabular-nums">{formatNumber(u.totalFormats)}</dd>
                    </div>
                    <div>
                      <dt className="text-muted-foreground">Documents</dt>
                      <dd className="mt-0.5 text-sm font-medium tabular-nums">{formatNumber(u.totalDocuments)}</dd>
                    </div>
                    <div>
                      <dt className="text-muted-foreground">Joined</dt>
                      <dd className="mt-0.5 text-sm font-medium whitespace-nowrap tabular-nums">{formatDay(u.createdAt)}</dd>
                    </div>
                  </dl>
                  <div className="mt-3 grid grid-cols-2 gap-2 border-t pt-3 sm:grid-cols-3">
                    <Button variant="outline" size="sm" onClick={() => setTarget({ kind: 'role', user: u })} aria-label={`Change role for ${u.email}`}>
                      <ShieldIcon aria-hidden /> Change role
                    </Button>
                    <Button variant="outline" size="sm" onClick={() => setTarget({ kind: 'plan', user: u })} aria-label={`Change plan for ${u.email}`}>
                      <CreditCardIcon aria-hidden /> Change plan
                    </Button>
                    <Button variant="outline" size="sm" onClick={() => setTarget({ kind: 'usage', user: u })} aria-label={`API usage of ${u.email}`}>
                      <ChartColumnIcon aria-hidden /> API usage
                    </Button>
                    <AccountActionsMenu user={u} isSelf={u.id === currentUserId} variant="button" />
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        </>
      )}

      {target?.kind === 'role' && (
        <RoleDialog
          key={target.user.id}
          user={target.user}
          isSelf={target.user.id === currentUserId}
          onClose={() => setTarget(null)}
        />
      )}
      {target?.kind === 'plan' && (
        <PlanDialog key={target.user.id} user={target.user} catalogue={catalogue} onClose={() => setTarget(null)} />
      )}
      {target?.kind === 'usage' && <ApiUsageDialog key={target.user.id} user={target.user} onClose={() => setTarget(null)} />}
    </div>
  );
}

const ROLE_OPTIONS: { value: TRole; label: string; description: string; icon: typeof UserIcon }[] = [
  { value: 'user', label: 'User', description: 'Builds formats and generates documents in their own account.', icon: UserIcon },
  {
    value: 'admin',
    label: 'Admin',
    description: 'Everything a user can do, plus this panel: users, settings and payment gateways.',
    icon: ShieldCheckIcon,
  },
];

/** Mounted per target user (keyed), so its state starts from that user. */
function RoleDialog({ user, isSelf, onClose }: { user: TAdminUser; isSelf: boolean; onClose: () => void }) {
  const changeRole = useChangeRole();
  const [role, setRole] = useState<TRole>(user.role);
  const [error, setError] = useState<string | null>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (role === user.role) {
      onClose();
      return;
    }
    setError(null);
    changeRole.mutate(
      { id: user.id, role },
      {
        onSuccess: (updated) => {
          toast({
            title: 'User role updated successfully',
            description: `${displayName(updated)} is now ${updated.role === 'admin' ? 'an admin' : 'a user'}.`,
          });
          onClose();
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          const message = readApiError(err, 'Please try again.').message;
          setError(message);
          toast({ variant: 'destructive', title: 'Failed to update user role', description: message });
        },
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !changeRole.isPending && onClose()}>
      <DialogContent className="max-w-md">
        <form onSubmit={submit} className="grid gap-5" aria-label="Change role">
          <DialogHeader>
            <DialogTitle>Change role</DialogTitle>
            <DialogDescription>
              Choose what <span className="font-medium text-foreground">{displayName(user)}</span> ({user.email}) can do.
            </DialogDescription>
          </DialogHeader>
          <fieldset className="grid gap-2.5">
            <legend className="sr-only">Role</legend>
            {ROLE_OPTIONS.map((opt) => {
              const disabled = isSelf && user.role === 'admin' && opt.value === 'user';
              const checked = role === opt.value;
              return (
                <label
                  key={opt.value}
                  className={cn(
                    'flex cursor-pointer items-start gap-3 rounded-lg border p-3.5 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                    checked ? 'border-primary bg-primary-soft/60' : 'hover:bg-muted/50',
                    disabled && 'cursor-not-allowed opacity-60',
                  )}
                >
                  <input
                    type="radio"
                    name="role"
                    value={opt.value}
                    checked={checked}
                    disabled={disabled}
                    onChange={() => setRole(opt.value)}
                    className="mt-0.5 size-4 accent-[var(--color-primary)]"
                  />
                  <span className="grid gap-0.5">
                    <span className="flex items-center gap-1.5 text-sm font-medium">
                      <opt.icon className="size-4 text-muted-foreground" aria-hidden /> {opt.label}
                    </span>
                    <span className="text-[13px] text-muted-foreground">{opt.description}</span>
                  </span>
                </label>
              );
            })}
          </fieldset>
          {isSelf && user.role === 'admin' && (
            <p className="text-[13px] text-muted-foreground">You can’t remove your own admin role. Ask another admin to do it.</p>
          )}
          <FormDialogFooter
            error={error}
            pending={changeRole.isPending}
            idle="Update role"
            busy="Updating..."
            submitDisabled={role === user.role}
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

const LIMIT_MAX = 100_000_000;

/** Mounted per target user (keyed), so its state starts from that user. */
function PlanDialog({ user, catalogue, onClose }: { user: TAdminUser; catalogue: TPlanCatalogue; onClose: () => void }) {
  const updateUser = useUpdateUser();
  const [plan, setPlan] = useState<TPlanId>(user.subscriptionPlan);
  const [limit, setLimit] = useState(() => {
    const own = customLimit(user, catalogue);
    return own === null ? '' : String(own);
  });
  const [limitError, setLimitError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const planDefault = planLimit(catalogue, plan);

  function submit(e: FormEvent) {
    e.preventDefault();
    const trimmed = limit.trim().replace(/[,_\s]/g, '');
    let apiCallsLimit: number | null = null;
    if (trimmed !== '') {
      const n = Number(trimmed);
      if (!Number.isInteger(n) || n < 0 || n > LIMIT_MAX) {
        setLimitError(`Enter a whole number from 0 to ${formatNumber(LIMIT_MAX)}, or leave it blank.`);
        return;
      }
      apiCallsLimit = n;
    }
    setLimitError(null);
    setError(null);
    // Only what changed is sent, so the audit log records only that.
    const planChanged = plan !== user.subscriptionPlan;
    const limitChanged = apiCallsLimit !== customLimit(user, catalogue);
    if (!planChanged && !limitChanged) {
      onClose();
      return;
    }
    updateUser.mutate(
      {
        id: user.id,
        update: { ...(planChanged ? { subscriptionPlan: plan } : {}), ...(limitChanged ? { apiCallsLimit } : {}) },
      },
      {
        onSuccess: (updated) => {
          toast({
            title: 'User plan updated successfully',
            description: `${displayName(updated)} is on ${findPlan(catalogue, updated.subscriptionPlan)?.name ?? updated.subscriptionPlan} with ${formatNumber(updated.apiCallsLimit ?? planLimit(catalogue, updated.subscriptionPlan))} generations a month.`,
          });
          onClose();
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          const read = readApiError(err, 'Please try again.');
          if (read.fields['apiCallsLimit']) setLimitError(read.fields['apiCallsLimit']);
          setError(read.message);
          toast({ variant: 'destructive', title: 'Failed to update user', description: read.message });
        },
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !updateUser.isPending && onClose()}>
      <DialogContent className="max-w-md">
        <form onSubmit={submit} className="grid gap-5" aria-label="Plan and limit" noValidate>
          <DialogHeader>
            <DialogTitle>Plan and monthly limit</DialogTitle>
            <DialogDescription>
              Set the plan for <span className="font-medium text-foreground">{displayName(user)}</span> and, if needed, a
              limit of their own.
            </DialogDescription>
          </DialogHeader>
          <Field id="admin-user-plan" label="Plan">
            <NativeSelect id="admin-user-plan" value={plan} onChange={(e) => setPlan(e.target.value as TPlanId)}>
              {catalogue.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({formatNumber(p.generationsPerMonth)} a month)
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            id="admin-user-limit"
            label="Monthly generation limit"
            optional
            error={limitError ?? undefined}
            hint={`Leave blank to use the plan’s limit (${formatNumber(planDefault)} a month). Enterprise customers often get their own.`}
          >
            <div className="flex gap-2">
              <Input
                id="admin-user-limit"
                inputMode="numeric"
                value={limit}
                onChange={(e) => setLimit(e.target.value)}
                placeholder={`Plan default (${formatNumber(planDefault)})`}
                aria-invalid={limitError ? true : undefined}
                aria-describedby={limitError ? 'admin-user-limit-error' : 'admin-user-limit-hint'}
                className="tabular-nums"
              />
              {limit !== '' && (
                <Button variant="outline" onClick={() => setLimit('')} className="h-10">
                  Use plan default
                </Button>
              )}
            </div>
          </Field>
          <p className="rounded-lg bg-muted/60 px-3.5 py-2.5 text-[13px] text-muted-foreground">
            Used this month:{' '}
            <span className="font-medium text-foreground tabular-nums">{formatNumber(user.apiCallsUsed)}</span> generations.
          </p>
          <FormDialogFooter
            error={limitError ? null : error}
            pending={updateUser.isPending}
            idle="Save changes"
            busy="Saving..."
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function ApiUsageDialog({ user, onClose }: { user: TAdminUser; onClose: () => void }) {
  const [keyId, setKeyId] = useState<string | undefined>();
  const usage = useUserApiUsage(user.id, keyId);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] max-w-4xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>API usage of {displayName(user)}</DialogTitle>
          <DialogDescription>Every call made with {user.email}’s keys in the last 30 days, by UTC day.</DialogDescription>
        </DialogHeader>
        {usage.isLoading ? (
          <p className="text-sm text-muted-foreground" role="status">
            Loading usage...
          </p>
        ) : usage.error ? (
          <LoadError error={usage.error} fallback="Could not load this user’s usage." />
        ) : usage.data ? (
          <UsagePanel usage={usage.data} keyId={keyId} onKeyChange={setKeyId} csvHref={userApiUsageCsvUrl(user.id, keyId)} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
