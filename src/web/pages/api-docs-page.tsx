import { lazy, Suspense, useSyncExternalStore } from 'react';
import { ReferenceSkeleton } from '../features/api-docs/reference-skeleton';
import { MarketingLayout } from '../features/marketing/marketing-layout';
import { useDocumentTitle } from '../hooks/use-document-title';

// The page's frame ships with the app and is drawn at build time; the reference (its code and the
// OpenAPI document) follows, in the place the skeleton holds for it.
const ApiReference = lazy(() => import('../features/api-docs/api-reference').then((m) => ({ default: m.ApiReference })));

const noSubscription = () => () => {};

/** `/docs/api`: the public API reference, readable without an account. */
export function ApiDocsPage() {
  useDocumentTitle('API reference');
  // Drawn ahead of time (and so while hydrating too) the reference is its skeleton; the browser
  // asks for the reference itself once the page is its own, so nothing on the server waits for it.
  const mounted = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    <MarketingLayout>
      <div className="container-page py-10 sm:py-14">
        <header className="mb-6 max-w-3xl">
          <p className="text-sm font-semibold text-primary">Developers</p>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">API reference</h1>
          <p className="mt-3 text-lg text-muted-foreground">Generate PDFs from your own software: one call per document, or thousands in a batch.</p>
        </header>
        {mounted ? (
          <Suspense fallback={<ReferenceSkeleton />}>
            <ApiReference />
          </Suspense>
        ) : (
          <ReferenceSkeleton />
        )}
      </div>
    </MarketingLayout>
  );
}
