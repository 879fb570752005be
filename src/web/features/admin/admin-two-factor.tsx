import { useQuery } from '@tanstack/react-query';
import { Loader2Icon, ShieldCheckIcon } from 'lucide-react';
import { type ReactNode, useEffect, useId } from 'react';
import { Link, useLocation } from 'wouter';
import { ADMIN_TWO_FACTOR_SETTING } from '../../../contract/two-factor';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { useAuth } from '../../hooks/use-auth';
import { toast, toastApiError } from '../../hooks/use-toast';
import { ApiError, api } from '../../lib/api';
import { adminKeys } from '../../lib/query-keys';
import { Switch } from './admin-ui';
import { useAdminSettings, useUpdateSetting } from './api';

/** Where an admin without two-factor is sent while the installation asks admins to use it. */
export const ADMIN_TWO_FACTOR_SETUP_URL = '/settings?tab=profile&notice=admin-two-factor';

/**
 * Opens the Admin Panel only once the server lets this admin in: while `security.admin_two_factor`
 * is on and the admin has no two-factor, every admin route answers 403 `two_factor_required`, and
 * the admin is taken to Settings → Profile to set it up, with a notice that says why.
 */
export function AdminSecondFactorGate({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();
  const access = useQuery({
    queryKey: adminKeys.access(),
    // The server answers 204: undefined would be a failed query to React Query.
    queryFn: async ({ signal }) => {
      await api.get<void>('/api/admin/access', signal);
      return null;
    },
    retry: false,
    staleTime: 0,
  });
  const blocked = access.error instanceof ApiError && access.error.code === 'two_factor_required';
  useEffect(() => {
    if (blocked) navigate(ADMIN_TWO_FACTOR_SETUP_URL, { replace: true });
  }, [blocked, navigate]);
  if (access.isLoading || blocked) {
    return (
      <div className="flex min-h-[40vh] items-center justify-center gap-3 text-sm text-muted-foreground" role="status" aria-live="polite">
        <Loader2Icon className="size-4 animate-spin" aria-hidden />
        <span>Opening the Admin Panel...</span>
      </div>
    );
  }
  // Another failure (a 500, no connection) leaves unknown whether this admin may in: say so.
  if (access.error) {
    return (
      <div className="grid min-h-[40vh] content-center justify-items-center gap-3 text-center">
        <LoadError error={access.error} fallback="Could not open the Admin Panel." />
        <Button variant="outline" onClick={() => void access.refetch()} disabled={access.isFetching}>
          {access.isFetching && <Loader2Icon className="animate-spin" aria-hidden />}
          {access.isFetching ? 'Retrying...' : 'Retry'}
        </Button>
      </div>
    );
  }
  return <>{children}</>;
}

/** Admin Panel → Settings: the switch for `security.admin_two_factor`. */
export function AdminTwoFactorCard() {
  const id = useId();
  const { user } = useAuth();
  const settings = useAdminSettings(true);
  const update = useUpdateSetting();
  if (settings.isLoading) return <Skeleton className="h-28" />;
  // Unread, the setting is neither on nor off: an "Off" badge would be a guess.
  if (settings.error) {
    return (
      <Card className="p-5">
        <LoadError error={settings.error} fallback="Could not load the two-factor setting." />
      </Card>
    );
  }
  const on = settings.data?.find((s) => s.key === ADMIN_TWO_FACTOR_SETTING)?.value.trim() === 'true';
  const mayTurnOn = on || Boolean(user?.twoFactorEnabled);
  const set = (checked: boolean) =>
    update.mutate(
      { key: ADMIN_TWO_FACTOR_SETTING, value: checked ? 'true' : 'false', description: null },
      {
        onSuccess: () =>
          toast({
            title: checked ? 'Admins now need two-factor sign-in' : 'Admins no longer need two-factor sign-in',
            description: checked ? 'Admins without it are sent to set it up before the Admin Panel opens.' : undefined,
          }),
        onError: toastApiError('Could not change the setting'),
      },
    );
  return (
    <Card className="p-5">
      <div className="flex items-start gap-4">
        <ShieldCheckIcon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={`${id}-switch`} className="font-medium">
              Require two-factor sign-in for admins
            </label>
            <Badge variant={on ? 'default' : 'secondary'}>{on ? 'On' : 'Off'}</Badge>
          </div>
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            When on, an admin who signs in with a password must turn on two-factor sign-in (an authenticator app) before the Admin Panel opens; until then every
            admin page and API call is refused. Admins who sign in through single sign-on are left to their provider.
          </p>
          {!mayTurnOn && (
            <p className="text-sm text-muted-foreground">
              Turn it on for your own account first, under{' '}
              <Link href="/settings?tab=profile" className="font-medium text-foreground underline underline-offset-4">
                Settings → Profile
              </Link>
              .
            </p>
          )}
        </div>
        <Switch id={`${id}-switch`} checked={on} disabled={update.isPending || !mayTurnOn} aria-describedby={`${id}-hint`} onCheckedChange={set} />
      </div>
    </Card>
  );
}
