import {
  FileTextIcon,
  LayoutDashboardIcon,
  LayoutTemplateIcon,
  LifeBuoyIcon,
  LogOutIcon,
  MenuIcon,
  SettingsIcon,
  ShieldIcon,
  UsersIcon,
  type LucideIcon,
} from 'lucide-react';
import { type ReactNode, Suspense, useState } from 'react';
import { Link, useLocation, useRoute } from 'wouter';
import type { TUser } from '../../../contract/user';
import { useBillingOverview } from '../../hooks/use-billing-overview';
import { useTeams, useWorkspace } from '../../hooks/use-workspace';
import { switchWorkspace } from '../../lib/workspace';
import { EmptyStateCard } from './empty-state';
import { effectiveLimit, planName } from '../../lib/plans';
import { cn, formatDate, formatNumber } from '../../lib/utils';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '../ui/sheet';
import { Tooltip, TooltipContent, TooltipTrigger } from '../ui/tooltip';
import { Logo } from './logo';
import { VerifyEmailBanner } from './verify-email-notice';
import { WorkspaceSwitcher } from './workspace-switcher';

interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Dashboard', icon: LayoutDashboardIcon },
  { href: '/formats', label: 'My Formats', icon: LayoutTemplateIcon },
  { href: '/documents', label: 'Recent Documents', icon: FileTextIcon },
  { href: '/settings', label: 'Settings', icon: SettingsIcon },
  { href: '/help', label: 'Help & Support', icon: LifeBuoyIcon },
];
const ADMIN_ITEM: NavItem = { href: '/admin', label: 'Admin Panel', icon: ShieldIcon };

/**
 * The plan's state in the top bar: Active, Payment due while an unpaid renewal is in its grace
 * period, or Ending once cancelled (it runs to the end of the period paid for).
 */
function PlanStatusBadge() {
  const subscription = useBillingOverview().data?.subscription;
  if (subscription?.status === 'past_due') {
    return (
      <Badge variant="destructive" title={`Pay by ${formatDate(subscription.graceEndsAt ?? subscription.periodEnd)} to keep this plan`}>
        Payment due
      </Badge>
    );
  }
  if (subscription?.cancelAtPeriodEnd) {
    return (
      <Badge variant="secondary" title={`Ends on ${formatDate(subscription.periodEnd)}`}>
        Ending
      </Badge>
    );
  }
  return (
    <Badge variant="success" className="gap-1">
      <span className="size-1.5 rounded-full bg-success" aria-hidden />
      Active
    </Badge>
  );
}

function isActive(location: string, href: string): boolean {
  if (href === '/') return location === '/';
  if (href === '/formats') return location === '/formats' || location.startsWith('/builder') || location.startsWith('/data-entry');
  // A batch's page lists documents: it belongs under Recent Documents.
  if (href === '/documents') return location === '/documents' || location.startsWith('/batches/');
  return location === href || location.startsWith(`${href}/`);
}

function SidebarNav({ user, onNavigate }: { user: TUser; onNavigate?: () => void }) {
  const [location] = useLocation();
  const items = user.role === 'admin' ? [...NAV_ITEMS, ADMIN_ITEM] : NAV_ITEMS;
  return (
    <nav aria-label="Main" className="flex flex-col gap-0.5">
      {items.map(({ href, label, icon: Icon }) => {
        const active = isActive(location, href);
        return (
          <Link
            key={href}
            href={href}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'group flex h-9 items-center gap-3 rounded-md px-3 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
              active ? 'bg-primary-soft text-primary' : 'text-muted-foreground hover:bg-accent hover:text-foreground',
            )}
          >
            <Icon className={cn('size-4 shrink-0', active ? 'text-primary' : 'text-muted-foreground group-hover:text-foreground')} aria-hidden />
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

function UsageMeter({ user }: { user: TUser }) {
  const limit = effectiveLimit(user.apiCallsLimit);
  const pct = limit > 0 ? Math.min(100, Math.round((user.apiCallsUsed / limit) * 100)) : 0;
  return (
    <div className="rounded-lg border bg-background p-3 shadow-xs" data-testid="sidebar-usage">
      <div className="flex items-center justify-between text-xs">
        <span className="font-medium text-foreground">Documents this month</span>
        <span className="text-muted-foreground tabular-nums">
          {formatNumber(user.apiCallsUsed)}/{formatNumber(limit)}
        </span>
      </div>
      <div
        className="mt-2 h-1.5 overflow-hidden rounded-full bg-secondary"
        role="progressbar"
        aria-label="Documents generated this month"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={user.apiCallsUsed}
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

function SidebarBody({ user, onNavigate }: { user: TUser; onNavigate?: () => void }) {
  // The counter is the person's own workspace's; a team's usage is in its Settings.
  const { teamId } = useWorkspace();
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center px-5">
        <Logo />
      </div>
      <div className="flex-1 overflow-y-auto px-3 py-2">
        <p className="px-3 pb-2 text-[11px] font-semibold tracking-wider text-muted-foreground uppercase">Workspace</p>
        <SidebarNav user={user} onNavigate={onNavigate} />
      </div>
      {teamId === null && (
        <div className="p-3">
          <UsageMeter user={user} />
        </div>
      )}
    </div>
  );
}

function displayName(user: TUser): string {
  const first = user.firstName?.trim();
  if (first) return first;
  return (user.email.trim()[0] ?? '?').toUpperCase();
}

function initial(user: TUser): string {
  const first = user.firstName?.trim();
  return ((first ? first[0] : user.email.trim()[0]) ?? '?').toUpperCase();
}

function TopBar({ user, navigationFolded }: { user: TUser; navigationFolded: boolean }) {
  const [open, setOpen] = useState(false);
  const name = displayName(user);
  const { teamId, teamPlan, atLeast } = useWorkspace();
  const plan = teamId ? teamPlan : user.subscriptionPlan;
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b bg-background/85 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/70 sm:px-6">
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetTrigger asChild>
          <Button variant="ghost" size="icon" className={cn('-ml-2', !navigationFolded && 'lg:hidden')} aria-label="Open navigation">
            <MenuIcon className="size-5" />
          </Button>
        </SheetTrigger>
        <SheetContent>
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <SheetDescription className="sr-only">Pages of your Formwork workspace</SheetDescription>
          <SidebarBody user={user} onNavigate={() => setOpen(false)} />
        </SheetContent>
      </Sheet>
      <div className={cn(!navigationFolded && 'lg:hidden')}>
        <Logo className="[&>span]:hidden sm:[&>span]:inline" />
      </div>
      <WorkspaceSwitcher user={user} />

      <div className="ml-auto flex items-center gap-2 sm:gap-3">
        {plan && (
          <div
            className="hidden items-center gap-2 rounded-full border bg-background py-1 pr-1 pl-3 text-sm shadow-xs min-[480px]:flex"
            data-testid="plan-indicator"
          >
            <span className="font-medium text-foreground">{planName(plan)}</span>
            {/* A team's subscription is its owners' to see (route-roles.ts). */}
            {atLeast('owner') ? <PlanStatusBadge /> : <span className="pr-2" />}
          </div>
        )}
        <div className="flex items-center gap-2" data-testid="user-indicator">
          <span
            className="flex size-8 items-center justify-center rounded-full bg-gradient-to-br from-[oklch(0.62_0.19_285)] to-[oklch(0.5_0.23_268)] text-sm font-semibold text-white ring-2 ring-background"
            aria-hidden
          >
            {initial(user)}
          </span>
          <span className="hidden max-w-[10rem] truncate text-sm font-medium text-foreground sm:inline" title={user.email}>
            {name}
          </span>
        </div>
        <Tooltip>
          <TooltipTrigger asChild>
            <Button variant="ghost" size="sm" asChild className="text-muted-foreground hover:text-foreground">
              <a href="/api/logout" aria-label="Sign Out">
                <LogOutIcon />
                <span className="hidden sm:inline">Sign Out</span>
              </a>
            </Button>
          </TooltipTrigger>
          <TooltipContent>Sign out of {user.email}</TooltipContent>
        </Tooltip>
      </div>
    </header>
  );
}

/**
 * An address naming a team the person is not in (removed, the team deleted, someone else's link):
 * every call would answer 404, so the page says why instead, and offers their own workspace.
 */
function WorkspaceGate({ children }: { children: ReactNode }) {
  const { teamId, team } = useWorkspace();
  const teams = useTeams(teamId !== null);
  if (!teamId || team || !teams.isSuccess) return <>{children}</>;
  return (
    <EmptyStateCard
      icon={UsersIcon}
      title="You are not in this team"
      description="The link is for a team you are not a member of, or not any more. Ask one of its admins to invite you, or carry on in your own workspace."
      action={<Button onClick={() => switchWorkspace(null)}>Go to your own workspace</Button>}
    />
  );
}

const SKIP_LINK = 'sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow-elevated focus:not-sr-only focus:fixed focus:top-3 focus:left-3';

export function AppShell({ user, children }: { user: TUser; children: ReactNode }) {
  // The builder needs the whole width for canvas and preview side by side: the navigation folds
  // into the top bar's menu there, as it does on narrow screens.
  const [workspace] = useRoute('/builder/:id?');
  return (
    <div className="flex min-h-dvh bg-muted/40">
      {workspace ? (
        // The builder's top bar holds a dozen controls: its skip links go straight to the canvas or to Save.
        <>
          <a href="#builder-panel-canvas" className={SKIP_LINK}>
            Skip to editor
          </a>
          <a href="#builder-save" className={SKIP_LINK}>
            Skip to Save
          </a>
        </>
      ) : (
        <a href="#main" className={SKIP_LINK}>
          Skip to content
        </a>
      )}
      <aside className={cn('hidden w-64 shrink-0 border-r bg-sidebar', !workspace && 'lg:block')}>
        <div className="sticky top-0 h-dvh">
          <SidebarBody user={user} />
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar user={user} navigationFolded={workspace} />
        <main id="main" tabIndex={-1} className="flex-1 outline-none">
          <div className={cn('mx-auto w-full px-4 py-6 sm:px-6 sm:py-8 lg:px-8', workspace ? 'max-w-[110rem]' : 'max-w-6xl')}>
            <Suspense
              fallback={
                <div className="flex min-h-[40vh] items-center justify-center text-sm text-muted-foreground" role="status">
                  Loading...
                </div>
              }
            >
              <VerifyEmailBanner user={user} />
              <WorkspaceGate>{children}</WorkspaceGate>
            </Suspense>
          </div>
        </main>
      </div>
    </div>
  );
}

/**
 * The app shell before anyone is known: the same frame (sidebar, top bar, page area) with grey bars
 * where the names go. A signed-in person's `/` shows it until the session is read (drawn into the
 * page at build time, then by the app), so neither the landing page nor a spinner flashes by, and
 * the shell that follows lands in the same place.
 */
export function AppShellSkeleton() {
  const bar = 'animate-pulse rounded-md bg-secondary';
  return (
    <div className="flex min-h-dvh bg-muted/40" data-app-frame="" aria-busy="true">
      <aside className="hidden w-64 shrink-0 border-r bg-sidebar lg:block">
        <div className="flex h-16 items-center px-5">
          <Logo />
        </div>
        <div className="flex flex-col gap-0.5 px-3 py-2">
          <div className={cn(bar, 'mx-3 mb-3 h-3 w-20')} />
          {NAV_ITEMS.map(({ href }) => (
            <div key={href} className="flex h-9 items-center gap-3 px-3">
              <div className={cn(bar, 'size-4')} />
              <div className={cn(bar, 'h-3.5 w-28')} />
            </div>
          ))}
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-16 shrink-0 items-center gap-3 border-b bg-background px-4 sm:px-6">
          <div className="lg:hidden">
            <Logo className="[&>span]:hidden sm:[&>span]:inline" />
          </div>
          <div className="ml-auto flex items-center gap-3">
            <div className={cn(bar, 'size-8 rounded-full')} />
            <div className={cn(bar, 'hidden h-3.5 w-20 sm:block')} />
          </div>
        </header>
        <main className="flex-1">
          <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8" role="status">
            <span className="sr-only">Loading...</span>
            <div className={cn(bar, 'h-8 w-56')} />
            <div className={cn(bar, 'mt-3 h-4 w-80 max-w-full')} />
          </div>
        </main>
      </div>
    </div>
  );
}
