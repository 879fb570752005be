import { Skeleton } from '../components/ui/skeleton';
import { readApiError } from '../lib/api';
import { Builder } from '../features/builder/builder';
import { FormatNotFound } from '../features/formats/format-not-found';
import { useFormat } from '../features/formats/api';

function BuilderSkeleton() {
  return (
    <div className="space-y-4" role="status" aria-label="Loading format">
      <Skeleton className="h-16 rounded-xl" />
      <div className="grid gap-5 lg:grid-cols-[272px_minmax(0,1fr)]">
        <Skeleton className="hidden h-96 lg:block" />
        <Skeleton className="h-96" />
      </div>
    </div>
  );
}

/** /builder/{id?}: a blank format, or the format with that id. */
export function BuilderPage({ formatId }: { formatId?: string }) {
  const format = useFormat(formatId);
  if (!formatId) return <Builder key="new" initial={null} />;
  if (format.isLoading) return <BuilderSkeleton />;
  if (format.error) {
    return (
      <p className="rounded-lg border border-destructive/20 bg-destructive/5 p-4 text-sm text-destructive" role="alert">
        {readApiError(format.error, 'Could not load this format. Please try again.').message}
      </p>
    );
  }
  if (!format.data) return <FormatNotFound />;
  return <Builder key={formatId} initial={format.data} />;
}
