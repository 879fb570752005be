import { cn } from '../../lib/utils';

/**
 * Under a placeholder's name: the problem with it, else the tag it makes once normalized (lead by
 * `lead`, e.g. "Use as"), else how names are written.
 */
export function PlaceholderNameHint({ id, error, normalized, lead }: { id: string; error: string | null | undefined; normalized: string; lead: string }) {
  return (
    <p id={id} className={cn('text-xs', error ? 'text-destructive' : 'text-muted-foreground')} role={error ? 'alert' : undefined}>
      {error ??
        (normalized ? (
          <>
            {lead} <code className="font-mono text-foreground">{`{{${normalized}}}`}</code>
          </>
        ) : (
          'Lowercase; spaces become underscores.'
        ))}
    </p>
  );
}
