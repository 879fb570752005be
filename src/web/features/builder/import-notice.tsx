import { FileInputIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import type { TStoredImport } from './imported-draft';

/** Above the canvas while an imported template is unsaved: where it came from and what to check. */
export function ImportNotice({ stored, placeholderCount }: { stored: TStoredImport; placeholderCount: number }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  const { warnings } = stored;
  return (
    <div className="mb-3 flex gap-3 rounded-lg border border-primary/20 bg-primary-soft px-3 py-2.5 text-sm sm:px-4" role="status" data-testid="import-notice">
      <FileInputIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium break-words text-foreground">
          {stored.origin === 'kept' ? 'Kept for you: ' : stored.origin === 'starter' ? 'Started from the ' : 'Imported from '}
          <span className="font-semibold">{stored.fileName}</span>
          {stored.origin === 'starter' ? ' template' : ''}
        </p>
        <p className="text-muted-foreground">
          {stored.origin === 'kept'
            ? 'Your plan did not have room to save this format, so it waited here. Choose Save Format once you have upgraded or made room.'
            : stored.origin === 'starter'
              ? `Change any text, and the ${placeholderCount} placeholder${placeholderCount === 1 ? '' : 's'} to suit you, then choose Save Format. Nothing is saved until you do.`
              : `Review the elements${placeholderCount > 0 ? ` and the ${placeholderCount} placeholder${placeholderCount === 1 ? '' : 's'} found` : ''}, then choose Save Format. Nothing is saved until you do.`}
        </p>
        {warnings.length > 0 && (
          <ul className="list-disc space-y-0.5 pl-4 text-[13px] text-muted-foreground" data-testid="import-warnings">
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
      </div>
      <Button variant="ghost" size="icon-sm" className="-mt-1 -mr-1.5 shrink-0" aria-label="Dismiss import notice" onClick={() => setOpen(false)}>
        <XIcon />
      </Button>
    </div>
  );
}
