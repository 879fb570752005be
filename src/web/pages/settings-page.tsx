import { CreditCardIcon, KeyRoundIcon, MailIcon, UserIcon } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import type { TUser } from '../../contract/user';
import { PageHeader } from '../components/layout/page-header';
import { Badge } from '../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { useAuth } from '../hooks/use-auth';
import { effectiveLimit, planName } from '../lib/plans';
import { formatNumber } from '../lib/utils';
import { useStats } from '../hooks/use-stats';
import { usePlans } from '../hooks/use-plans';
import { ApiAccessTab } from '../features/public-api/api-access-tab';
import { BillingTab } from '../features/billing/billing-tab';
import { StorageMeter } from '../features/billing/usage-meters';
import { EmailSettingsTab } from '../features/mail/email-settings-tab';
import { EmailCard, NameCard, PasswordCard, SessionsCard } from '../features/account/profile-sections';
import { TwoFactorCard } from '../features/account/two-factor';
import { DeleteAccountCard, YourDataCard } from '../features/account/account-data-sections';
import { UsageMeter } from '../components/ui/usage-meter';

const TABS = [
  { id: 'profile', label: 'Profile', icon: UserIcon },
  { id: 'api', label: 'API Access', icon: KeyRoundIcon },
  { id: 'email', label: 'Email', icon: MailIcon },
  { id: 'billing', label: 'Billing', icon: CreditCardIcon },
] as const;
type TabId = (typeof TABS)[number]['id'];

function isTab(value: string | null): value is TabId {
  return TABS.some((t) => t.id === value);
}

/** Images the user keeps (uploads and images fetched by address) against the plan's allowance. */
function StorageUsage() {
  const stats = useStats();
  if (!stats.data) return null;
  return <StorageMeter used={stats.data.storageUsedBytes} limit={stats.data.storageLimitBytes} testId="profile-storage" />;
}

function ProfileTab({ user }: { user: TUser }) {
  const limit = effectiveLimit(user.apiCallsLimit);
  return (
    <div className="space-y-6">
      <NameCard key={`${user.firstName ?? ''} ${user.lastName ?? ''}`} user={user} />
      <EmailCard user={user} />
      <PasswordCard />
      <TwoFactorCard user={user} />
      <SessionsCard />
      <Card>
        <CardHeader>
          <CardTitle>Plan and usage</CardTitle>
          <CardDescription>What your plan includes and how much of it you have used.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <dl className="grid gap-6 sm:grid-cols-2">
            <div>
              <dt className="text-sm font-medium">Plan</dt>
              <dd className="mt-2">
                <Badge variant="soft" className="px-2.5 py-1 text-[13px]" data-testid="profile-plan">
                  {planName(user.subscriptionPlan)}
                </Badge>
              </dd>
            </div>
            <UsageMeter
              label="API calls used"
              progressLabel="API calls used this month"
              used={user.apiCallsUsed}
              limit={limit}
              show={formatNumber}
              testId="profile-api-calls"
            />
            <StorageUsage />
          </dl>
        </CardContent>
      </Card>
      <YourDataCard />
      <DeleteAccountCard />
    </div>
  );
}

export function SettingsPage() {
  const { user } = useAuth();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(search).get('tab');
  const tab: TabId = isTab(requested) ? requested : 'profile';
  const { plans } = usePlans();

  if (!user) return null;

  return (
    <>
      <PageHeader title="Settings" description="Manage your account and plan." />
      <Tabs value={tab} onValueChange={(value) => navigate(`${location}?tab=${encodeURIComponent(value)}`, { replace: true })} className="max-w-3xl space-y-6">
        {/* Four tabs with icons overflow a phone: there they share the row equally, without icons. */}
        <TabsList aria-label="Settings sections" className="grid h-auto w-full grid-cols-4 sm:inline-flex sm:h-10 sm:w-fit">
          {TABS.map(({ id, label, icon: Icon }) => (
            <TabsTrigger key={id} value={id} className="h-9 px-1 sm:h-full sm:px-4">
              <Icon aria-hidden className="hidden sm:block" /> {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab user={user} />
        </TabsContent>
        <TabsContent value="api">
          <ApiAccessTab hasAccess={plans.find((p) => p.id === user.subscriptionPlan)?.apiAccess ?? false} />
        </TabsContent>
        <TabsContent value="email">
          <EmailSettingsTab />
        </TabsContent>
        <TabsContent value="billing">
          <BillingTab />
        </TabsContent>
      </Tabs>
    </>
  );
}
