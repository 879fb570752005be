import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue, useEffect } from 'react';
import { Route, Router, Switch, type AroundNavHandler } from 'wouter';
import { AppShellSkeleton } from './components/layout/app-shell';
import { FullPageStatus, RequireAuth, SessionCheckFailed } from './components/layout/require-auth';
import { Toaster } from './components/ui/toaster';
import { KeyboardShortcutsDialog } from './components/keyboard-shortcuts-dialog';
import { TooltipProvider } from './components/ui/tooltip';
import { ApiDocsPage } from './pages/api-docs-page';
import { useAuth } from './hooks/use-auth';
import { queryClient } from './lib/query-client';
import { NotFoundPage } from './pages/not-found';
import { keepWorkspace, useTeamId } from './lib/workspace';
import { preloadableLazy } from './lib/preloadable-lazy';
import { StarterGallery } from './features/builder/lazy-starter-gallery';

// The API reference's frame ships in the entry chunk (drawn at build time and taken over as it is);
// everything else loads on demand. The landing page, also drawn ahead of time, is loaded before
// the app takes it over (main.tsx), but not by a signed-in person, whose `/` is the dashboard.
export const LandingPage = preloadableLazy(() => import('./pages/landing-page').then((m) => m.LandingPage));
const AdminPage = lazy(() => import('./pages/admin-page').then((m) => ({ default: m.AdminPage })));
const LoginPage = lazy(() => import('./pages/login-page').then((m) => ({ default: m.LoginPage })));
// The starter gallery an empty account's dashboard shows loads beside it (lazy-starter-gallery.ts).
const loadDashboard = () => Promise.all([import('./pages/dashboard-page'), StarterGallery.preload()]).then(([page]) => page);
const DashboardPage = lazy(() => loadDashboard().then((m) => ({ default: m.DashboardPage })));
const BuilderPage = lazy(() => import('./pages/builder-page').then((m) => ({ default: m.BuilderPage })));
const DataEntryPage = lazy(() => import('./pages/data-entry-page').then((m) => ({ default: m.DataEntryPage })));
const FormatsPage = lazy(() => import('./pages/formats-page').then((m) => ({ default: m.FormatsPage })));
const BatchPage = lazy(() => import('./pages/batch-page').then((m) => ({ default: m.BatchPage })));
const DocumentsPage = lazy(() => import('./pages/documents-page').then((m) => ({ default: m.DocumentsPage })));
const HelpPage = lazy(() => import('./pages/help-page').then((m) => ({ default: m.HelpPage })));
const AboutPage = lazy(() => import('./pages/about-page').then((m) => ({ default: m.AboutPage })));
const PaymentSuccessPage = lazy(() => import('./pages/payment-success-page').then((m) => ({ default: m.PaymentSuccessPage })));
const SettingsPage = lazy(() => import('./pages/settings-page').then((m) => ({ default: m.SettingsPage })));
const VerifyPage = lazy(() => import('./pages/verify-page').then((m) => ({ default: m.VerifyPage })));
const SharePage = lazy(() => import('./pages/share-page').then((m) => ({ default: m.SharePage })));
const SignPage = lazy(() => import('./pages/sign-page').then((m) => ({ default: m.SignPage })));
const VerifyEmailPage = lazy(() => import('./pages/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })));
const ForgotPasswordPage = lazy(() => import('./pages/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import('./pages/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })));
const InvitePage = lazy(() => import('./pages/invite-page').then((m) => ({ default: m.InvitePage })));
const ConfirmEmailPage = lazy(() => import('./pages/confirm-email-page').then((m) => ({ default: m.ConfirmEmailPage })));

/**
 * `/` is the landing page while signed out, the dashboard when signed in. Until the session is known
 * it is the app's empty frame, so a signed-in person never sees the marketing page flash by, unless
 * the server already sent the landing page (it found no session): then that stays while it loads.
 */
function Home({ landingFirst }: { landingFirst: boolean }) {
  const auth = useAuth();
  // Drawing the app (or the landing page) once the session is known is a deferred render, done in
  // slices between which the browser stays responsive; the frame shows meanwhile.
  const user = useDeferredValue(auth.user);
  const isLoading = useDeferredValue(auth.isLoading);
  const waiting = isLoading && !landingFirst;
  // Most who wait here are signed in: the dashboard's code loads alongside the session, not after.
  useEffect(() => {
    if (waiting) void loadDashboard();
  }, [waiting]);
  // Drawn ahead, the landing page means the server found no session, so it stands; otherwise a
  // failed check leaves unknown whether this is a visitor or someone signed in.
  if (auth.sessionError && !landingFirst) return <SessionCheckFailed error={auth.sessionError} onRetry={auth.retry} retrying={auth.isRetrying} />;
  if (!user) return waiting ? <AppShellSkeleton /> : <LandingPage />;
  return (
    <RequireAuth>
      <DashboardPage />
    </RequireAuth>
  );
}

function Routes({ landingFirst }: { landingFirst: boolean }) {
  return (
    <Switch>
      <Route path="/">
        <Home landingFirst={landingFirst} />
      </Route>
      <Route path="/login" component={LoginPage} />
      <Route path="/sign-up" component={LoginPage} />
      <Route path="/verify-email" component={VerifyEmailPage} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/confirm-email" component={ConfirmEmailPage} />
      <Route path="/about" component={AboutPage} />
      <Route path="/docs/api" component={ApiDocsPage} />
      <Route path="/payment-success" component={PaymentSuccessPage} />
      <Route path="/verify" component={VerifyPage} />
      <Route path="/s/:token">{(params) => <SharePage token={params.token} />}</Route>
      <Route path="/sign/:token">{(params) => <SignPage token={params.token} />}</Route>
      <Route path="/invite/:token">{(params) => <InvitePage token={params.token} />}</Route>
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
      <Route path="/batches/:id">
        {(params) => (
          <RequireAuth>
            <BatchPage batchId={params.id} />
          </RequireAuth>
        )}
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

/** Every in-app Link and navigate call stays in the current workspace (lib/workspace.ts). */
const stayInWorkspace: AroundNavHandler = (navigate, to, options) => navigate(keepWorkspace(to), options);

/** `landingFirst`: the page arrived with the landing page drawn in it (a signed-out visitor's `/`). */
export function App({ landingFirst = false }: { landingFirst?: boolean }) {
  // Another workspace is another set of screens: nothing mounted for the last one stays.
  const teamId = useTeamId();
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <Suspense fallback={<FullPageStatus label="Loading..." />}>
          <Router aroundNav={stayInWorkspace} hrefs={keepWorkspace}>
            <Routes key={teamId ?? 'personal'} landingFirst={landingFirst} />
          </Router>
        </Suspense>
        <Toaster />
        <KeyboardShortcutsDialog />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
