import { SearchIcon, UsersIcon, XIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { formatNumber } from '../../lib/utils';
import { usePlans } from '../../hooks/use-plans';
import { useAdminUsers } from './api';
import { InviteButton, PendingInvitations } from './invitations-panel';
import { QueryState, SkeletonList } from '../../components/query-state';
import { displayName, type DialogTarget, UsersList } from './users-list';
import { ApiUsageDialog, PlanDialog, RoleDialog } from './user-dialogs';

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

      <QueryState
        query={users}
        loading={<SkeletonList count={4} />}
        errorText="Could not load users."
        isEmpty={filtered.length === 0}
        empty={
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
        }
      >
        <UsersList users={filtered} catalogue={catalogue} currentUserId={currentUserId} onOpen={setTarget} />
      </QueryState>

      {target?.kind === 'role' && (
        <RoleDialog key={target.user.id} user={target.user} isSelf={target.user.id === currentUserId} onClose={() => setTarget(null)} />
      )}
      {target?.kind === 'plan' && <PlanDialog key={target.user.id} user={target.user} catalogue={catalogue} onClose={() => setTarget(null)} />}
      {target?.kind === 'usage' && <ApiUsageDialog key={target.user.id} user={target.user} onClose={() => setTarget(null)} />}
    </div>
  );
}
