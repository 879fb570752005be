import type { ReactNode } from 'react';
import { cn } from '../lib/utils';
import { LoadError } from './ui/load-error';
import { Skeleton } from './ui/skeleton';

/** The part of a React Query result that says which of the three states a list is in. */
export interface QueryStatus {
  isLoading: boolean;
  error: unknown;
}

/**
 * Where a query's data goes: `loading` while the first answer is on its way, the server's message
 * (or `errorText`) when it failed, `empty` when there is nothing to show, else `children`. Children
 * may be a function, so code that needs the data only runs once it is there. `errorClassName` places
 * the message where the list would have stood (its padding).
 */
export function QueryState({
  query,
  loading,
  errorText,
  errorClassName,
  isEmpty = false,
  empty = null,
  children,
}: {
  query: QueryStatus;
  loading: ReactNode;
  errorText: string;
  errorClassName?: string;
  isEmpty?: boolean;
  empty?: ReactNode;
  children: ReactNode | (() => ReactNode);
}) {
  if (query.isLoading) return <>{loading}</>;
  if (query.error) return <LoadError error={query.error} fallback={errorText} className={errorClassName} />;
  if (isEmpty) return <>{empty}</>;
  return <>{typeof children === 'function' ? children() : children}</>;
}

/** Grey rows standing in for a list while it loads; hidden from screen readers, which hear nothing yet. */
export function SkeletonList({ count, className = 'space-y-3', itemClassName = 'h-16' }: { count: number; className?: string; itemClassName?: string }) {
  return (
    <div className={cn(className)} aria-hidden>
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} className={itemClassName} />
      ))}
    </div>
  );
}

/** A list's loading state in words, announced politely, where grey rows would say too little. */
export function LoadingText({ children }: { children: ReactNode }) {
  return (
    <p className="text-sm text-muted-foreground" role="status">
      {children}
    </p>
  );
}
