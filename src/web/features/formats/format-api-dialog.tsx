import { CheckIcon, CopyIcon } from 'lucide-react';
import { useId, useState } from 'react';
import type { TExamplePlaceholder } from '../../../contract/example-data';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { toast } from '../../hooks/use-toast';
import { curlSample, documentRequestBody } from './api-sample';

/** What the API details need of a format: the app's, a list entry's and the builder's draft all have it. */
export interface TApiFormat {
  id: string;
  name: string;
  placeholders: readonly TExamplePlaceholder[];
}

/** Copies `text` and says so; `what` names it in the toast ("Format id copied"). */
export async function copyText(text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: `${what} copied` });
    return true;
  } catch {
    toast({ variant: 'destructive', title: 'Could not copy', description: 'Select it and copy it yourself.' });
    return false;
  }
}

function CopyButton({ text, what, label }: { text: string; what: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      aria-label={label}
      onClick={() => void copyText(text, what).then((done) => setCopied(done))}
      onBlur={() => setCopied(false)}
    >
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />} {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}

const CODE_CLASS = 'max-h-72 overflow-auto rounded-lg bg-slate-950 p-4 text-[0.8125rem] leading-relaxed text-slate-100';

/** A format's developer handles: its id, an example `data` object and the call that uses both, each with Copy. */
export function FormatApiDetails({ format, showCurl = true }: { format: TApiFormat; showCurl?: boolean }) {
  const id = useId();
  const body = documentRequestBody(format.id, format.placeholders);
  const example = JSON.stringify(body.data, null, 2);
  const curl = curlSample(body);
  return (
    <div className="grid min-w-0 gap-4" data-testid="format-api-details">
      <div className="grid gap-2">
        <label htmlFor={`${id}-format-id`} className="text-sm font-medium">
          Format id
        </label>
        <div className="flex gap-2">
          <Input id={`${id}-format-id`} readOnly value={format.id} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={format.id} what="Format id" label="Copy format id" />
        </div>
      </div>
      <div className="grid min-w-0 gap-2">
        <div className="flex items-center justify-between gap-2">
          <h3 id={`${id}-example`} className="text-sm font-medium">
            Example data
          </h3>
          <CopyButton text={example} what="Example data" label="Copy example data" />
        </div>
        <pre role="region" aria-labelledby={`${id}-example`} tabIndex={0} className={CODE_CLASS}>
          <code>{example}</code>
        </pre>
        <p className="text-xs text-muted-foreground">
          Every field by its real name; lists are arrays of rows. Computed fields are left out: the document works them out.
        </p>
      </div>
      {showCurl && (
        <div className="grid min-w-0 gap-2">
          <div className="flex items-center justify-between gap-2">
            <h3 id={`${id}-curl`} className="text-sm font-medium">
              Sample call
            </h3>
            <CopyButton text={curl} what="Sample call" label="Copy sample call" />
          </div>
          <pre role="region" aria-labelledby={`${id}-curl`} tabIndex={0} className={CODE_CLASS}>
            <code>{curl}</code>
          </pre>
        </div>
      )}
    </div>
  );
}

/** The API details of one format in a dialog: opened from the builder's menu and from My Formats. */
export function FormatApiDialog({ format, onOpenChange }: { format: TApiFormat | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={format !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>API details: {format?.name}</DialogTitle>
          <DialogDescription>
            Make a document of this format from your own software with <code className="font-mono">POST /api/v1/documents</code>: send its id and a{' '}
            <code className="font-mono">data</code> object like this one.
          </DialogDescription>
        </DialogHeader>
        {format && <FormatApiDetails format={format} />}
      </DialogContent>
    </Dialog>
  );
}
