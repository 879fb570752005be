import { Skeleton } from '../../components/ui/skeleton';

/**
 * The reference while its code or the OpenAPI document loads: the side navigation and the first
 * section where they will be, and the page kept taller than any screen, so the footer is out of
 * sight and nothing the reader sees moves when the reference arrives.
 */
export function ReferenceSkeleton() {
  return (
    <div className="min-h-[200vh] lg:grid lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-10" role="status" aria-label="Loading the reference">
      <div className="hidden space-y-2 lg:block" aria-hidden>
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-5 w-40" />
        ))}
      </div>
      <div className="space-y-4 py-8" aria-hidden>
        <Skeleton className="h-8 w-48" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    </div>
  );
}
