import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { RequireAuth } from './components/layout/require-auth';
import { Toaster } from './components/ui/toaster';
import { TooltipProvider } from './components/ui/tooltip';
import { AdminPage } from './features/admin/admin-page';
import { LoginPage } from './features/auth/login-page';
import { DashboardPage } from './features/dashboard/dashboard-page';
import { BuilderPage } from './features/formats/builder-page';
import { DataEntryPage } from './features/formats/data-entry-page';
import { FormatsPage } from './features/formats/formats-page';
import { DocumentsPage } from './features/documents/documents-page';
import { HelpPage } from './features/help/help-page';
import { AboutPage } from './features/marketing/about-page';
import { LandingPage } from './features/marketing/landing-page';
import { PaymentSuccessPage } from './features/payment/payment-success-page';
import { SettingsPage } from './features/settings/settings-page';
import { useAuth } from './hooks/use-auth';
import { queryClient } from './lib/query-client';
import { NotFoundPage } from './pages/not-found';

/** `/` is the landing page while signed out (and while auth loads), the dashboard when signed in. */
function Home() {
  const { user } = useAuth();
  if (!user) return <LandingPage />;
  return (
    <RequireAuth>
      <DashboardPage />
    </RequireAuth>
  );
}

function Router() {
  return (
    <Switch>
      <Route path="/" component={Home} />
      <Route path="/login" component={LoginPage} />
      <Route path="/about" component={AboutPage} />
      <Route path="/payment-success" component={PaymentSuccessPage} />
      <Route path="/admin" component={AdminPage} />
      <Route path="/formats">
        <RequireAuth>
          <FormatsPage />
        </RequireAuth>
      </Route>
      <Route path="/documents">
        <RequireAuth>
          <DocumentsPage />
        </RequireAuth>
      </Route>
      <Route path="/settings">
        <RequireAuth>
          <SettingsPage />
        </RequireAuth>
      </Route>
      <Route path="/help">
        <RequireAuth>
          <HelpPage />
        </RequireAuth>
      </Route>
      <Route path="/builder/:id?">
        {(params) => (
          <RequireAuth>
            <BuilderPage formatId={params.id} />
          </RequireAuth>
        )}
      </Route>
      <Route path="/data-entry/:id">
        {(params) => (
          <RequireAuth>
            <DataEntryPage formatId={params.id} />
          </RequireAuth>
        )}
      </Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <Router />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
