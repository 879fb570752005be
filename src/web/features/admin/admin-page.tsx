import { LogInIcon, ShieldAlertIcon, ShieldIcon } from 'lucide-react';
import { Link } from 'wouter';
import { EmptyState } from '../../components/layout/empty-state';
import { PageHeader } from '../../components/layout/page-header';
import { AppShell } from '../../components/layout/app-shell';
import { FullPageStatus } from '../../components/layout/require-auth';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useAuth } from '../../hooks/use-auth';
import { MarketingLayout } from '../marketing/marketing-layout';

/**
 * /admin: signed-out visitors get a sign-in prompt, non-admins 'Access Denied'.
 * The Users, Settings and Payment Gateways tabs arrive with the admin issue.
 */
export function AdminPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullPageStatus label="Loading..." />;
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
        <Card className="p-2">
          <EmptyState
            icon={ShieldAlertIcon}
            title="Access Denied"
            description="The Admin Panel is only available to administrators."
            action={
              <Button variant="outline" asChild>
                <Link href="/">Back to Dashboard</Link>
              </Button>
            }
            className="border-0 bg-transparent py-16"
          />
        </Card>
      ) : (
        <>
          <PageHeader title="Admin Panel" description={`Signed in as administrator ${user.email}.`} />
          <Card className="p-2">
            <EmptyState
              icon={ShieldIcon}
              title="No admin tools in this release"
              description="User management, system settings and payment gateways are not part of this release yet."
              className="border-0 bg-transparent py-16"
            />
          </Card>
        </>
      )}
    </AppShell>
  );
}
