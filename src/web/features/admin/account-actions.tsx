import { BanIcon, KeyRoundIcon, LogOutIcon, ShieldOffIcon, MailCheckIcon, MoreHorizontalIcon, RotateCcwIcon, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { TAdminUser } from '../../../contract/admin';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { toast, toastApiError } from '../../hooks/use-toast';
import { useUserAction, type TUserAction } from './api';

/**
 * One action on an account, asked for in a confirmation first. To add one, add an entry to
 * ACCOUNT_ACTIONS: the menu, its confirmation and its toasts follow.
 */
type TAccountAction = {
  id: TUserAction;
  label: string;
  icon: LucideIcon;
  destructive?: boolean;
  /** Whether the menu offers it for this account (`isSelf`: the signed-in admin's own). */
  offered: (user: TAdminUser, isSelf: boolean) => boolean;
  title: (user: TAdminUser) => string;
  description: (user: TAdminUser) => ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  done: (user: TAdminUser) => { title: string; description: string };
  failed: string;
};

const ACCOUNT_ACTIONS: TAccountAction[] = [
  {
    id: 'verify-email',
    label: 'Mark address verified',
    icon: MailCheckIcon,
    offered: (user) => !user.emailVerified,
    title: (user) => `Mark ${user.email} verified?`,
    description: () =>
      'Do this only when you know the address is theirs: it counts as if they had opened the verification link, so they may send email, share links and create API keys.',
    confirmLabel: 'Mark verified',
    pendingLabel: 'Marking...',
    done: (user) => ({ title: 'Address marked verified', description: `${user.email} may now send email, share links and create API keys.` }),
    failed: 'Could not mark the address verified',
  },
  {
    id: 'password-reset',
    label: 'Send password-reset link',
    icon: KeyRoundIcon,
    offered: (user) => !user.suspendedAt,
    title: () => 'Send a password-reset link?',
    description: (user) =>
      `${user.email} gets the email the Forgot password page sends: a link that sets a new password, works once within an hour, and signs them out everywhere when used. Their current password works until then.`,
    confirmLabel: 'Send link',
    pendingLabel: 'Sending...',
    done: (user) => ({ title: 'Reset link sent', description: `The email is on its way to ${user.email}.` }),
    failed: 'Could not send the reset link',
  },
  {
    id: 'two-factor/reset',
    label: 'Reset two-factor',
    icon: ShieldOffIcon,
    offered: (user) => user.twoFactorEnabled,
    title: () => 'Reset two-factor sign-in?',
    description: (user) =>
      `${user.email} will sign in with the password alone until they set up an authenticator app again. Do this only when you know the person asking is the account’s owner (a lost phone, no recovery codes). The audit log records it, and they are told by email.`,
    confirmLabel: 'Reset two-factor',
    pendingLabel: 'Resetting...',
    done: (user) => ({ title: 'Two-factor sign-in reset', description: `${user.email} now signs in with the password alone, and was told by email.` }),
    failed: 'Could not reset two-factor',
  },
  {
    id: 'sign-out',
    label: 'Sign out everywhere',
    icon: LogOutIcon,
    offered: (_user, isSelf) => !isSelf,
    title: (user) => `Sign ${user.email} out everywhere?`,
    description: () =>
      'Every session of this account ends now, on every device. They can sign in again with their password or single sign-on; their API keys keep working.',
    confirmLabel: 'Sign out everywhere',
    pendingLabel: 'Signing out...',
    done: (user) => ({ title: 'Signed out everywhere', description: `Every session of ${user.email} has ended.` }),
    failed: 'Could not sign the account out',
  },
  {
    id: 'suspend',
    label: 'Suspend account',
    icon: BanIcon,
    destructive: true,
    offered: (user, isSelf) => !isSelf && !user.suspendedAt,
    title: (user) => `Suspend ${user.email}?`,
    description: () =>
      'They are signed out everywhere at once, cannot sign in, and their API keys stop working. Nothing is deleted: restoring the account gives everything back.',
    confirmLabel: 'Suspend',
    pendingLabel: 'Suspending...',
    done: (user) => ({ title: 'Account suspended', description: `${user.email} can no longer sign in or use API keys.` }),
    failed: 'Could not suspend the account',
  },
  {
    id: 'restore',
    label: 'Restore account',
    icon: RotateCcwIcon,
    offered: (user) => Boolean(user.suspendedAt),
    title: (user) => `Restore ${user.email}?`,
    description: () => 'They can sign in again, and their API keys work again.',
    confirmLabel: 'Restore',
    pendingLabel: 'Restoring...',
    done: (user) => ({ title: 'Account restored', description: `${user.email} can sign in again.` }),
    failed: 'Could not restore the account',
  },
];

/** The per-row menu of account actions in Admin Panel → Users, each confirmed before it runs. */
export function AccountActionsMenu({ user, isSelf, variant = 'icon' }: { user: TAdminUser; isSelf: boolean; variant?: 'icon' | 'button' }) {
  const run = useUserAction();
  const [asked, setAsked] = useState<TAccountAction | null>(null);
  const offered = ACCOUNT_ACTIONS.filter((action) => action.offered(user, isSelf));
  if (offered.length === 0) return null;

  function confirm(action: TAccountAction) {
    run.mutate(
      { id: user.id, action: action.id },
      {
        onSuccess: () => {
          toast(action.done(user));
          setAsked(null);
        },
        onError: (error) => {
          toastApiError(action.failed, 'Please try again.')(error);
          setAsked(null);
        },
      },
    );
  }

  return (
    <>
      {/* Not modal: a modal menu hides the page from assistive technology while its buttons stay focusable. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          {variant === 'icon' ? (
            <Button variant="ghost" size="icon-sm" aria-label={`More actions for ${user.email}`} title="More actions">
              <MoreHorizontalIcon aria-hidden />
            </Button>
          ) : (
            <Button variant="outline" size="sm" aria-label={`More actions for ${user.email}`}>
              <MoreHorizontalIcon aria-hidden /> More
            </Button>
          )}
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel className="max-w-64 truncate text-xs text-muted-foreground">{user.email}</DropdownMenuLabel>
          <DropdownMenuSeparator />
          {offered.map((action) => (
            <DropdownMenuItem key={action.id} variant={action.destructive ? 'destructive' : 'default'} onSelect={() => setAsked(action)}>
              <action.icon aria-hidden /> {action.label}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      {asked && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setAsked(null)}
          title={asked.title(user)}
          description={asked.description(user)}
          confirmLabel={asked.confirmLabel}
          pendingLabel={asked.pendingLabel}
          pending={run.isPending}
          onConfirm={() => confirm(asked)}
        />
      )}
    </>
  );
}
