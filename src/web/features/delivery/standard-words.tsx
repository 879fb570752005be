import { LockIcon, SparklesIcon } from 'lucide-react';
import { Fragment } from 'react';
import { Link } from 'wouter';
import { DOCUMENT_NAME_TAG, standardEmail } from '../../../contract/delivery';
import { UPGRADE_HREF } from '../../components/plan/upgrade';

const TAG = `{{${DOCUMENT_NAME_TAG}}}`;

/** Text with `{{document}}` shown as a marker: a merge's message before it has a document. */
function WithDocumentTag({ text }: { text: string }) {
  const parts = text.split(TAG);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <span className="rounded bg-muted px-1 py-0.5 text-[12px] font-medium text-muted-foreground">document name</span>}
        </Fragment>
      ))}
    </>
  );
}

/**
 * In place of the subject and message fields when the account may not write its own (the Free
 * plan, through the installation's server): the standard email as it will go out, locked, with
 * why and the way to words of one's own. `documentName` is left out for a mail merge, whose
 * documents each have their own.
 */
export function StandardWords({ senderName, note, documentName, id }: { senderName: string; note: string | null; documentName?: string; id: string }) {
  const words = standardEmail(documentName ?? TAG, senderName);
  return (
    <div className="grid min-w-0 gap-2" data-testid="standard-words">
      <div
        className="grid min-w-0 gap-2 rounded-lg border bg-muted/40 p-3.5 text-sm"
        role="group"
        aria-labelledby={`${id}-standard`}
        aria-describedby={`${id}-standard-note`}
      >
        <p id={`${id}-standard`} className="flex items-center gap-1.5 text-[13px] font-medium text-muted-foreground">
          <LockIcon className="size-3.5 shrink-0" aria-hidden /> Standard subject and message
        </p>
        <p className="break-words">
          <span className="text-muted-foreground">Subject: </span>
          <span className="font-medium" data-testid="standard-subject">
            <WithDocumentTag text={words.subject} />
          </span>
        </p>
        <p className="border-t pt-2 break-words whitespace-pre-wrap" data-testid="standard-message">
          <WithDocumentTag text={words.message} />
        </p>
      </div>
      <p id={`${id}-standard-note`} className="flex items-start gap-2 text-[13px] text-muted-foreground">
        <SparklesIcon className="mt-0.5 size-3.5 shrink-0 text-primary" aria-hidden />
        <span>
          {note}{' '}
          <Link href={UPGRADE_HREF} className="font-medium text-primary underline underline-offset-4">
            See plans
          </Link>
        </span>
      </p>
    </div>
  );
}
