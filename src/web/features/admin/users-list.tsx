import { ChartColumnIcon, CreditCardIcon, ShieldCheckIcon, ShieldIcon } from 'lucide-react';
import type { TAdminUser } from '../../../contract/admin';
import type { TPlan, TPlanCatalogue, TPlanId } from '../../../contract/plans';
import type { TRole } from '../../../contract/user';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn, formatNumber } from '../../lib/utils';
import { formatDay } from './admin-ui';
import { AccountActionsMenu } from './account-actions';
import { DataTable } from '../../components/data-table';

export function displayName(u: Pick<TAdminUser, 'firstName' | 'lastName' | 'email'>): string {
  const name = [u.firstName, u.lastName].filter(Boolean).join(' ').trim();
  return name || u.email.split('@')[0] || u.email;
}

function initials(u: TAdminUser): string {
  const parts = [u.firstName, u.lastName].filter((p): p is string => !!p && p.trim() !== '');
  const letters = parts.length > 0 ? parts.map((p) => p.trim()[0]) : [u.email[0]];
  return letters.join('').slice(0, 2).toUpperCase();
}

export function findPlan(catalogue: TPlanCatalogue, id: TPlanId): TPlan | undefined {
  return catalogue.find((p) => p.id === id);
}

export function planLimit(catalogue: TPlanCatalogue, id: TPlanId): number {
  return findPlan(catalogue, id)?.generationsPerMonth ?? 0;
}

/** A user's name (marked when it is the person looking) over their address, both cut short to fit. */
function UserIdentity({ user, isSelf, nameClassName }: { user: TAdminUser; isSelf: boolean; nameClassName: string }) {
  return (
    <>
      <p className={cn('truncate font-medium', nameClassName)} title={displayName(user)}>
        {displayName(user)}
        {isSelf && <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span>}
      </p>
      <p className="truncate text-xs text-muted-foreground" title={user.email}>
        {user.email}
      </p>
    </>
  );
}

function Avatar({ user }: { user: TAdminUser }) {
  return (
    <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-soft text-[13px] font-semibold text-primary" aria-hidden>
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
export function customLimit(user: TAdminUser, catalogue: TPlanCatalogue): number | null {
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
        <div className={cn('h-full rounded-full', pct >= 90 ? 'bg-destructive' : 'bg-primary')} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

export type DialogTarget = { kind: 'role' | 'plan' | 'usage'; user: TAdminUser } | null;

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
      <Button variant="ghost" size="icon-sm" onClick={() => onOpen({ kind: 'role', user })} aria-label={`Change role for ${user.email}`} title="Change role">
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
      <Button variant="ghost" size="icon-sm" onClick={() => onOpen({ kind: 'usage', user })} aria-label={`API usage of ${user.email}`} title="API usage">
        <ChartColumnIcon aria-hidden />
      </Button>
      <AccountActionsMenu user={user} isSelf={isSelf} />
    </div>
  );
}

const USER_COLUMNS = [
  { header: 'User', className: 'px-5 py-2.5 font-medium' },
  { header: 'Role', className: 'px-3 py-2.5 font-medium' },
  { header: 'Plan', className: 'px-3 py-2.5 font-medium' },
  { header: 'Documents this month', className: 'px-3 py-2.5 font-medium' },
  { header: 'Formats', className: 'px-3 py-2.5 text-right font-medium' },
  { header: 'Documents', className: 'px-3 py-2.5 text-right font-medium' },
  { header: 'Joined', className: 'px-3 py-2.5 font-medium' },
  { header: <span className="sr-only">Actions</span>, className: 'py-2.5 pr-4 pl-2 text-right font-medium' },
];

/** The users: a table on wide screens, one card per user below xl. */
export function UsersList({
  users: filtered,
  catalogue,
  currentUserId,
  onOpen,
}: {
  users: TAdminUser[];
  catalogue: TPlanCatalogue;
  currentUserId: string;
  onOpen: (target: DialogTarget) => void;
}) {
  return (
    <>
      {/* Wide screens: a table. */}
      <Card className="hidden overflow-x-auto xl:block">
        <DataTable className="w-full text-left text-sm" aria-label="Users" columns={USER_COLUMNS}>
          {filtered.map((u) => (
            <tr key={u.id} data-testid="admin-user-row" className="transition-colors hover:bg-muted/30">
              <td className="max-w-[210px] py-3 pr-3 pl-5">
                <div className="flex min-w-0 items-center gap-3">
                  <Avatar user={u} />
                  <div className="min-w-0">
                    <UserIdentity user={u} isSelf={u.id === currentUserId} nameClassName="text-foreground" />
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
                <RowActions user={u} isSelf={u.id === currentUserId} onOpen={onOpen} />
              </td>
            </tr>
          ))}
        </DataTable>
      </Card>

      {/* Narrow screens: one card per user. */}
      <ul className="grid gap-3 md:grid-cols-2 xl:hidden" aria-label="Users">
        {filtered.map((u) => (
          <li key={u.id} data-testid="admin-user-card">
            <Card className="p-4">
              <div className="flex items-start gap-3">
                <Avatar user={u} />
                <div className="min-w-0 flex-1">
                  <UserIdentity user={u} isSelf={u.id === currentUserId} nameClassName="text-sm" />
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
                  <dt className="mb-1 text-muted-foreground">Documents this month</dt>
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
                <Button variant="outline" size="sm" onClick={() => onOpen({ kind: 'role', user: u })} aria-label={`Change role for ${u.email}`}>
                  <ShieldIcon aria-hidden /> Change role
                </Button>
                <Button variant="outline" size="sm" onClick={() => onOpen({ kind: 'plan', user: u })} aria-label={`Change plan for ${u.email}`}>
                  <CreditCardIcon aria-hidden /> Change plan
                </Button>
                <Button variant="outline" size="sm" onClick={() => onOpen({ kind: 'usage', user: u })} aria-label={`API usage of ${u.email}`}>
                  <ChartColumnIcon aria-hidden /> API usage
                </Button>
                <AccountActionsMenu user={u} isSelf={u.id === currentUserId} variant="button" />
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}
