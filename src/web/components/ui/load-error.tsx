import { readApiError } from '../../lib/api';

/** Where a list or record would be: the server's message, or ours when it gave none. */
export function LoadError({ error, fallback }: { error: unknown; fallback: string }) {
  return (
    <p className="text-sm text-destructive" role="alert">
      {readApiError(error, fallback).message}
    </p>
  );
}
