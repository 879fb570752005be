import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { Skeleton } from '../components/ui/skeleton';
import { readApiError } from '../lib/api';
import { Builder } from '../features/builder/builder';
import { FormatNotFound } from '../features/formats/format-not-found';
import { useFormat } from '../features/formats/api';
import { formatEditHref } from '../features/formats/format-actions';

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

/**
 * /builder/{id?}: a blank format, or the format with that id. The builder is mounted afresh for
 * each format, except when it moves to the address of the format it has just saved for the first
 * time: then it stays, with its history and view.
 */
export function BuilderPage({ formatId }: { formatId?: string }) {
  const [, navigate] = useLocation();
  const [created, setCreated] = useState<{ id: string; moved: boolean } | null>(null);
  const [session, setSession] = useState({ formatId, key: formatId ?? 'new-0', count: 0 });
  const adopted = formatId !== undefined && formatId === created?.id;
  if (session.formatId !== formatId) {
    setSession({ formatId, key: adopted ? session.key : (formatId ?? `new-${session.count + 1}`), count: session.count + 1 });
    setCreated(adopted && created ? { ...created, moved: true } : null);
  }
  const onCreated = useCallback((id: string) => setCreated({ id, moved: false }), []);
  // Moves to the new format's address once the page knows it made it, so the builder is kept.
  useEffect(() => {
    if (created && !created.moved) navigate(formatEditHref(created.id), { replace: true });
  }, [created, navigate]);
  const format = useFormat(formatId);
  if (!formatId || adopted) return <Builder key={session.key} initial={adopted ? (format.data ?? null) : null} onCreated={onCreated} />;
  if (format.isLoading) return <BuilderSkeleton />;
  if (format.error) {
    return (
      <p className="rounded-lg border border-destructive/20 bg-destructive/5 p-4 text-sm text-destructive" role="alert">
        {readApiError(format.error, 'Could not load this format. Please try again.').message}
      </p>
    );
  }
  if (!format.data) return <FormatNotFound />;
  return <Builder key={session.key} initial={format.data} onCreated={onCreated} />;
}
