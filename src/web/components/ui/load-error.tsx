import { readApiError } from '../../lib/api';
import { cn } from '../../lib/utils';

/** Where a list or record would be: the server's message, or ours when it gave none. */
export function LoadError({ error, fallback, className }: { error: unknown; fallback: string; className?: string }) {
  return (
    <p className={cn('text-sm text-destructive', className)} role="alert">
      {readApiError(error, fallback).message}
    </p>
  );
}
