import { CreditCardIcon, KeyRoundIcon, LockIcon, MailIcon, UserIcon, UsersIcon } from 'lucide-react';
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
import { LoadingText } from '../components/query-state';
import { TeamTab } from '../features/teams/team-tab';
import { useWorkspace, type TWorkspace } from '../hooks/use-workspace';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import type { TTeamRole } from '../../contract/team-roles';

const TABS = [
  { id: 'team', label: 'Team', icon: UsersIcon },
  { id: 'profile', label: 'Profile', icon: UserIcon },
  { id: 'api', label: 'API Access', icon: KeyRoundIcon },
  { id: 'email', label: 'Email', icon: MailIcon },
  { id: 'billing', label: 'Billing', icon: CreditCardIcon },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** The tabs this workspace shows: Team only in a team, and Billing there only for its owners (route-roles.ts). */
function tabsFor(workspace: TWorkspace) {
  if (!workspace.teamId) return TABS.filter((t) => t.id !== 'team');
  return TABS.filter((t) => t.id !== 'billing' || workspace.atLeast('owner'));
}

// Tailwind sees whole class names only: one per count of tabs.
const PHONE_COLUMNS: Record<number, string> = { 3: 'grid-cols-3', 4: 'grid-cols-4', 5: 'grid-cols-5' };

/** What a team member below `least` sees instead of settings they cannot change. */
function RoleNotice({ least, what }: { least: TTeamRole; what: string }) {
  return (
    <Alert variant="info" role="status">
      <LockIcon />
      <AlertTitle>
        Only team {least === 'owner' ? 'owners' : 'admins and owners'} manage {what}
      </AlertTitle>
      <AlertDescription>Your role in this team does not include it. Ask a team {least} if something here needs changing.</AlertDescription>
    </Alert>
  );
}

/** Images the user keeps (uploads and images fetched by address) against the plan's allowance. */
function StorageUsage() {
  const stats = useStats();
  if (!stats.data) return null;
  return <StorageMeter used={stats.data.storageUsedBytes} limit={stats.data.storageLimitBytes} testId="profile-storage" />;
}

function ProfileTab({ user, inTeam }: { user: TUser; inTeam: boolean }) {
  const limit = effectiveLimit(user.apiCallsLimit);
  return (
    <div className="space-y-6">
      <NameCard key={`${user.firstName ?? ''} ${user.lastName ?? ''}`} user={user} />
      <EmailCard user={user} />
      <PasswordCard />
      <TwoFactorCard user={user} />
      <SessionsCard />
      {/* The plan and usage are the personal workspace's; a team's are in its Billing. */}
      {!inTeam && (
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
                label="Documents this month"
                progressLabel="Documents generated this month"
                used={user.apiCallsUsed}
                limit={limit}
                show={formatNumber}
                testId="profile-api-calls"
              />
              <StorageUsage />
            </dl>
          </CardContent>
        </Card>
      )}
      <YourDataCard />
      <DeleteAccountCard />
    </div>
  );
}

export function SettingsPage() {
  const { user } = useAuth();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const workspace = useWorkspace();
  const tabs = tabsFor(workspace);
  const requested = new URLSearchParams(search).get('tab');
  const tab: TabId = tabs.find((t) => t.id === requested)?.id ?? tabs[0]!.id;
  const { plans } = usePlans();

  if (!user) return null;
  // Which tabs a team shows depends on the role: wait for it rather than show the wrong ones.
  if (workspace.role === undefined) return <LoadingText>Loading...</LoadingText>;
  const plan = workspace.teamId ? workspace.teamPlan : user.subscriptionPlan;

  return (
    <>
      <PageHeader
        title="Settings"
        description={workspace.team ? `Manage ${workspace.team.name}, your account and the team’s plan.` : 'Manage your account and plan.'}
      />
      <Tabs value={tab} onValueChange={(value) => navigate(`${location}?tab=${encodeURIComponent(value)}`, { replace: true })} className="max-w-3xl space-y-6">
        {/* Four tabs with icons overflow a phone: there they share the row equally, without icons. */}
        <TabsList aria-label="Settings sections" className={`grid h-auto w-full ${PHONE_COLUMNS[tabs.length] ?? ''} sm:inline-flex sm:h-10 sm:w-fit`}>
          {tabs.map(({ id, label, icon: Icon }) => (
            <TabsTrigger key={id} value={id} className="h-9 px-1 text-[13px] sm:h-full sm:px-4 sm:text-sm">
              <Icon aria-hidden className="hidden sm:block" /> {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {workspace.teamId && (
          <TabsContent value="team">
            <TeamTab teamId={workspace.teamId} user={user} />
          </TabsContent>
        )}
        <TabsContent value="profile">
          <ProfileTab user={user} inTeam={workspace.teamId !== null} />
        </TabsContent>
        <TabsContent value="api">
          {workspace.atLeast('admin') ? (
            <ApiAccessTab hasAccess={plans.find((p) => p.id === plan)?.apiAccess ?? false} />
          ) : (
            <RoleNotice least="admin" what="API keys and webhooks" />
          )}
        </TabsContent>
        <TabsContent value="email">
          {workspace.atLeast('admin') ? <EmailSettingsTab /> : <RoleNotice least="admin" what="the team’s email settings" />}
        </TabsContent>
        {workspace.atLeast('owner') && (
          <TabsContent value="billing">
            <BillingTab />
          </TabsContent>
        )}
      </Tabs>
    </>
  );
}
