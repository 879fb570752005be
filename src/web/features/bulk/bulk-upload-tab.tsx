import { CheckCircle2Icon, FileSpreadsheetIcon, Loader2Icon, RotateCcwIcon, TriangleAlertIcon } from 'lucide-react';
import { useRef, type RefObject } from 'react';
import type { TBulkUpload } from '../../../contract/bulk';
import type { TPlaceholder } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { LoadError } from '../../components/ui/load-error';
import { cn, formatNumber } from '../../lib/utils';
import { Step } from './bulk-step';
import { BulkUploadIntro } from './bulk-upload-intro';
import { SpreadsheetInput } from './file-drop-zone';
import { plural } from './job-status';
import { MappingPanel } from './mapping-panel';
import { PreviewTable } from './preview-table';
import { StartPanel } from './start-panel';
import { useBulkUpload, type BulkUploadState } from './use-bulk-upload';
import { IconTile } from '../../components/ui/icon-tile';

/** Where each list's lines came from: a lines sheet, or rows repeating the document key. */
function ListLines({ draft }: { draft: TBulkUpload }) {
  if (draft.lists.length === 0) return null;
  return (
    <ul className="mt-3 space-y-2" aria-label="Lines of each list" data-testid="list-lines">
      {draft.lists.map((list) => (
        <li
          key={list.name}
          className={cn(
            'flex items-start gap-2.5 rounded-lg border px-4 py-3 text-sm',
            list.lines === 0 && 'border-[oklch(0.88_0.08_80)] bg-[oklch(0.985_0.025_85)] text-[oklch(0.42_0.09_60)]',
          )}
        >
          {list.lines > 0 ? (
            <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
          ) : (
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          )}
          <span>
            {list.lines > 0 ? (
              <>
                <span className="font-medium">{list.label}:</span> {formatNumber(list.lines)} {list.lines === 1 ? 'line' : 'lines'} for{' '}
                {formatNumber(list.documents)} {list.documents === 1 ? 'document' : 'documents'}.
              </>
            ) : (
              <>
                <span className="font-medium">No lines found for {list.label}.</span> In the Excel template they go on the “{list.label}” sheet, each with its
                document’s Document key; in a CSV, repeat the Document key on one row per line, with columns such as {list.name}.description.
              </>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The uploaded file with its counts, and the buttons to replace it or to start over. */
function UploadedFileBar({ draft, state, reuploadRef }: { draft: TBulkUpload; state: BulkUploadState; reuploadRef: RefObject<HTMLInputElement | null> }) {
  const { reviewRef, upload, startOver, send } = state;
  return (
    <div
      ref={reviewRef}
      tabIndex={-1}
      className="flex flex-col gap-3 rounded-lg border bg-muted/30 p-4 outline-none sm:flex-row sm:items-center sm:justify-between"
      aria-label={`Uploaded file ${draft.fileName}`}
    >
      <div className="flex min-w-0 items-center gap-3">
        <IconTile icon={FileSpreadsheetIcon} size="lg" tone="spreadsheet" />
        <div className="min-w-0">
          <p className="truncate text-sm font-medium" title={draft.fileName} data-testid="uploaded-file">
            {draft.fileName}
          </p>
          <p className="text-sm text-muted-foreground">
            {plural(draft.totalRows, 'row')} · {plural(draft.columns.length, 'column')}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => reuploadRef.current?.click()} disabled={upload.isPending}>
          {upload.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <RotateCcwIcon aria-hidden />}
          {upload.isPending ? 'Uploading...' : 'Upload a new version'}
        </Button>
        <Button variant="ghost" size="sm" onClick={startOver} disabled={upload.isPending}>
          Start over
        </Button>
      </div>
      <SpreadsheetInput inputRef={reuploadRef} label="Corrected spreadsheet file" onPick={([file]) => file && send(file)} />
    </div>
  );
}

/** An uploaded draft under review: its mapping, its rows, and the start of the batch. */
function BulkReview({ draft, placeholders, state }: { draft: TBulkUpload; placeholders: readonly TPlaceholder[]; state: BulkUploadState }) {
  const { format, stored, fields, shown, upload, updateMapping, start, uploadError } = state;
  const reuploadRef = useRef<HTMLInputElement>(null);
  const formatName = format.data?.name ?? 'Document';

  return (
    <div className="space-y-8">
      <UploadedFileBar draft={draft} state={state} reuploadRef={reuploadRef} />
      {uploadError && (
        <p role="alert" className="-mt-5 text-sm text-destructive">
          {uploadError}
        </p>
      )}

      <Step n={1} title="Match columns to fields">
        <MappingPanel
          key={draft.id}
          draft={draft}
          placeholders={fields}
          autoMapping={stored?.auto ?? null}
          pending={updateMapping.isPending}
          onChange={state.changeMapping}
        />
        <ListLines draft={draft} />
      </Step>

      <Step
        n={2}
        title="Check the rows"
        description={
          draft.invalidRows > 0
            ? `Cells with a problem are marked in red; point at one, or focus it, to see what is wrong.`
            : `Every row is valid${draft.totalRows > 0 ? `: all ${formatNumber(draft.totalRows)} can be generated.` : '.'}`
        }
      >
        <PreviewTable draft={draft} placeholders={shown} />
      </Step>

      <Step n={3} title="Generate">
        <StartPanel
          draft={draft}
          placeholders={placeholders}
          formatName={formatName}
          documentNamePattern={format.data?.content.documentNamePattern}
          choice={state.choice}
          onChoice={state.setChoice}
          pattern={state.pattern}
          onPattern={state.setPattern}
          busy={start.isPending || updateMapping.isPending || upload.isPending}
          starting={start.isPending}
          onStart={state.startBatch}
          onReupload={() => reuploadRef.current?.click()}
        />
      </Step>
    </div>
  );
}

/**
 * Bulk Upload: download the Excel template, upload a filled spreadsheet, check how its columns
 * map to the format's fields and which rows are invalid, then start a batch. The batch runs in the
 * background; its progress and results live on the batch page.
 */
export function BulkUploadTab({ formatId, placeholders }: { formatId: string; placeholders: readonly TPlaceholder[] }) {
  const state = useBulkUpload(formatId, placeholders);
  const { stored, draftQuery, draft } = state;

  if (stored && draftQuery.isLoading) {
    return (
      <p className="flex items-center gap-2 py-10 text-sm text-muted-foreground" role="status">
        <Loader2Icon className="size-4 animate-spin" aria-hidden /> Loading your upload…
      </p>
    );
  }

  if (!draft) {
    // A saved upload that could not be read (not one that is gone) is still there: say so, and
    // let the person try again or start afresh below.
    const reloadError = stored && draftQuery.error ? draftQuery.error : null;
    return (
      <>
        {reloadError && (
          <div className="mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3">
            <LoadError error={reloadError} fallback="Could not reload your earlier upload." className="min-w-0 flex-1" />
            <Button variant="outline" size="sm" onClick={() => void draftQuery.refetch()} disabled={draftQuery.isFetching}>
              {draftQuery.isFetching && <Loader2Icon className="animate-spin" aria-hidden />}
              {draftQuery.isFetching ? 'Retrying...' : 'Try again'}
            </Button>
          </div>
        )}
        <BulkUploadIntro formatId={formatId} placeholders={placeholders} state={state} />
      </>
    );
  }
  return <BulkReview draft={draft} placeholders={placeholders} state={state} />;
}
