import { CreditCardIcon, HistoryIcon, LayersIcon, LogInIcon, ReceiptTextIcon, ShieldAlertIcon, SlidersHorizontalIcon, UsersIcon } from 'lucide-react';
import { Link, useLocation, useSearch } from 'wouter';
import { EmptyState, EmptyStateCard } from '../components/layout/empty-state';
import { PageHeader } from '../components/layout/page-header';
import { AppShell } from '../components/layout/app-shell';
import { FullPageStatus, SessionCheckFailed } from '../components/layout/require-auth';
import { Button } from '../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { useAuth } from '../hooks/use-auth';
import { MarketingLayout } from '../features/marketing/marketing-layout';
import { AdminSecondFactorGate } from '../features/admin/admin-two-factor';
import { AuditTab } from '../features/admin/audit-tab';
import { GatewaysTab } from '../features/admin/gateways-tab';
import { PaymentsTab } from '../features/admin/payments-tab';
import { PlansTab } from '../features/admin/plans-tab';
import { SettingsTab } from '../features/admin/settings-tab';
import { UsersTab } from '../features/admin/users-tab';

const TABS = [
  { id: 'users', label: 'Users', short: 'Users', icon: UsersIcon },
  { id: 'payments', label: 'Payments', short: 'Payments', icon: ReceiptTextIcon },
  { id: 'plans', label: 'Plans', short: 'Plans', icon: LayersIcon },
  { id: 'payment-gateways', label: 'Payment Gateways', short: 'Gateways', icon: CreditCardIcon },
  { id: 'settings', label: 'Settings', short: 'Settings', icon: SlidersHorizontalIcon },
  { id: 'audit', label: 'Audit log', short: 'Audit', icon: HistoryIcon },
] as const;
type TabId = (typeof TABS)[number]['id'];

function isTab(value: string | null): value is TabId {
  return TABS.some((t) => t.id === value);
}

/**
 * The admin tabs; the open one follows `?tab=` (the Payments tab keeps its filters there too).
 * Only mounted for admins, so only admins fetch.
 */
function AdminTabs({ currentUserId }: { currentUserId: string }) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(search).get('tab');
  const tab: TabId = isTab(requested) ? requested : 'users';
  const open = (value: string) => navigate(`${location}?tab=${encodeURIComponent(value)}`, { replace: true });
  return (
    <Tabs value={tab} onValueChange={open} className="space-y-6">
      {/* Six tabs do not fit one row on a phone: two rows of three there. */}
      <TabsList aria-label="Admin sections" className="grid h-auto w-full grid-cols-3 sm:inline-flex sm:h-10 sm:w-fit">
        {TABS.map(({ id, label, short, icon: Icon }) => (
          <TabsTrigger key={id} value={id} className="h-9 px-2.5 sm:h-full sm:px-3.5">
            <Icon aria-hidden className="hidden min-[400px]:block" />
            <span className="sm:hidden">{short}</span>
            <span className="hidden sm:inline">{label}</span>
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value="users">
        <UsersTab currentUserId={currentUserId} />
      </TabsContent>
      <TabsContent value="payments">
        <PaymentsTab />
      </TabsContent>
      {/* Kept mounted while hidden, so edits not yet saved survive a look at another tab. */}
      <TabsContent value="plans" forceMount className="data-[state=inactive]:hidden">
        <PlansTab />
      </TabsContent>
      <TabsContent value="payment-gateways">
        <GatewaysTab />
      </TabsContent>
      <TabsContent value="settings">
        <SettingsTab onOpenPlans={() => open('plans')} />
      </TabsContent>
      <TabsContent value="audit">
        <AuditTab />
      </TabsContent>
    </Tabs>
  );
}

/**
 * /admin: signed-out visitors get a sign-in prompt, non-admins 'Access Denied', admins the
 * Users, Payments, Plans, Payment Gateways, Settings and Audit log tabs.
 */
export function AdminPage() {
  const { user, isLoading, sessionError, retry, isRetrying } = useAuth();
  if (isLoading) return <FullPageStatus label="Loading..." />;
  if (sessionError) return <SessionCheckFailed error={sessionError} onRetry={retry} retrying={isRetrying} />;
  if (!user) {
    return (
      <MarketingLayout>
        <div className="container-page flex min-h-[60vh] items-center justify-center py-16">
          <EmptyState
            icon={LogInIcon}
            title="Sign in required"
            description="Sign in with an administrator account to open the Admin Panel."
            action={
              <Button asChild>
                <a href="/api/login">Sign In</a>
              </Button>
            }
            className="w-full max-w-md bg-background py-14"
          />
        </div>
      </MarketingLayout>
    );
  }
  return (
    <AppShell user={user}>
      {user.role !== 'admin' ? (
        <EmptyStateCard
          icon={ShieldAlertIcon}
          title="Access Denied"
          description="The Admin Panel is only available to administrators."
          action={
            <Button variant="outline" asChild>
              <Link href="/">Back to Dashboard</Link>
            </Button>
          }
        />
      ) : (
        <AdminSecondFactorGate>
          <PageHeader title="Admin Panel" description="Manage users, payments and plans, payment gateways and system settings." />
          <AdminTabs currentUserId={user.id} />
        </AdminSecondFactorGate>
      )}
    </AppShell>
  );
}
