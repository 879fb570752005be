import { ArrowLeftIcon, CompassIcon } from 'lucide-react';
import { Link } from 'wouter';
import { AppShell } from '../components/layout/app-shell';
import { Button } from '../components/ui/button';
import { useAuth } from '../hooks/use-auth';
import { useDocumentTitle } from '../hooks/use-document-title';
import { MarketingLayout } from '../features/marketing/marketing-layout';

function NotFoundContent({ signedIn }: { signedIn: boolean }) {
  useDocumentTitle('Page not found');
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-primary-soft text-primary ring-1 ring-primary/15">
        <CompassIcon className="size-7" aria-hidden />
      </span>
      <p className="mt-6 font-mono text-sm font-medium text-primary">Error 404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">404 Page Not Found</h1>
      <p className="mt-3 max-w-md text-muted-foreground">
        The page you are looking for does not exist or has moved. Check the address, or head back to familiar ground.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Button asChild>
          <Link href="/">{signedIn ? 'Go to Dashboard' : 'Go to Home'}</Link>
        </Button>
        <Button variant="outline" onClick={() => history.back()}>
          <ArrowLeftIcon /> Go Back
        </Button>
      </div>
    </div>
  );
}

export function NotFoundPage() {
  const { user } = useAuth();
  if (user) {
    return (
      <AppShell user={user}>
        <NotFoundContent signedIn />
      </AppShell>
    );
  }
  return (
    <MarketingLayout>
      <NotFoundContent signedIn={false} />
    </MarketingLayout>
  );
}
