import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2Icon, FileSpreadsheetIcon, InfoIcon, Loader2Icon, RotateCcwIcon, TriangleAlertIcon } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { columnPlaceholders, defaultFileNamePattern, type TBulkUpload, type TColumnMapping } from '../../../contract/bulk';
import { PLACEHOLDER_TYPE_NAMES, placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { upgradeActionFor } from '../../components/plan/upgrade';
import { toast } from '../../hooks/use-toast';
import { errorStatus, isUnauthorizedError, readApiError } from '../../lib/api';
import { bulkJobKeys } from '../../lib/query-keys';
import { cn, formatNumber } from '../../lib/utils';
import {
  batchHref,
  checkSpreadsheetFile,
  useDiscardDraft,
  useDraft,
  useStartJob,
  useUpdateMapping,
  useUploadSpreadsheet,
} from './api';
import { FileDropZone, SPREADSHEET_ACCEPT } from './file-drop-zone';
import { plural } from './job-status';
import { MappingPanel } from './mapping-panel';
import { PreviewTable } from './preview-table';
import { patternError, StartPanel, type InvalidChoice } from './start-panel';
import { excelTemplateUrl, useFormat } from '../formats/api';
import { formatEditHref } from '../formats/format-actions';

/**
 * The draft being reviewed survives switching tabs and reloading: its id (and the mapping the
 * upload matched, to tell automatic matches from the person's own) is kept for this browser tab.
 */
type StoredDraft = { id: string; auto: TColumnMapping };
const storageKey = (formatId: string) => `formwork:bulk-draft:${formatId}`;

function readStored(formatId: string): StoredDraft | null {
  try {
    const raw = sessionStorage.getItem(storageKey(formatId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredDraft>;
    return typeof parsed.id === 'string' ? { id: parsed.id, auto: parsed.auto ?? {} } : null;
  } catch {
    return null;
  }
}

function writeStored(formatId: string, value: StoredDraft | null): void {
  try {
    if (value) sessionStorage.setItem(storageKey(formatId), JSON.stringify(value));
    else sessionStorage.removeItem(storageKey(formatId));
  } catch {
    // storage unavailable (private mode): the draft just does not survive a reload
  }
}

function Step({ n, title, description, children }: { n: number; title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <section aria-labelledby={`bulk-step-${n}`} className="space-y-4">
      <div className="flex gap-3">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary-soft text-[13px] font-semibold text-primary" aria-hidden>
          {n}
        </span>
        <div className="min-w-0 pt-0.5">
          <h3 id={`bulk-step-${n}`} className="text-sm font-semibold">
            {title}
          </h3>
          {description && <p className="mt-0.5 text-sm text-muted-foreground">{description}</p>}
        </div>
      </div>
      {children && <div className="sm:pl-10">{children}</div>}
    </section>
  );
}

function TemplateColumns({ placeholders }: { placeholders: readonly TPlaceholder[] }) {
  return (
    <div className="self-start rounded-lg border bg-muted/30 p-4">
      <p className="text-sm font-medium">Template columns</p>
      {placeholders.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">This format has no fields, so the template has no columns.</p>
      ) : (
        <ul className="mt-3 space-y-2">
          {placeholders.map((p) => (
            <li key={p.name} className="flex items-center justify-between gap-3 text-sm">
              <span className="min-w-0 truncate">
                {placeholderLabel(p)}
                {p.required && <span className="ml-0.5 text-destructive">*</span>}
              </span>
              <Badge variant="outline" className="font-mono text-[10px] font-normal text-muted-foreground">
                {PLACEHOLDER_TYPE_NAMES[p.type]}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Bulk Upload: download the Excel template, upload a filled spreadsheet, check how its columns
 * map to the format's fields and which rows are invalid, then start a batch. The batch runs in the
 * background; its progress and results live on the batch page.
 */
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
          {list.lines > 0 ? <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden /> : <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />}
          <span>
            {list.lines > 0 ? (
              <>
                <span className="font-medium">{list.label}:</span> {formatNumber(list.lines)} {list.lines === 1 ? 'line' : 'lines'} for {formatNumber(list.documents)}{' '}
                {list.documents === 1 ? 'document' : 'documents'}.
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

export function BulkUploadTab({ formatId, placeholders }: { formatId: string; placeholders: readonly TPlaceholder[] }) {
  // A list fills no column of its own (its lines come from their sheet) and a formula is computed.
  const fields = useMemo(() => columnPlaceholders(placeholders), [placeholders]);
  const shown = useMemo(() => placeholders.filter((p) => p.type !== 'formula'), [placeholders]);
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const format = useFormat(formatId);
  const [remembered, setRemembered] = useState<StoredDraft | null>(() => readStored(formatId));
  const draftQuery = useDraft(remembered?.id ?? null);
  // A remembered draft that is gone (started, discarded, format deleted) quietly resets the tab.
  const draftGone = remembered !== null && draftQuery.isSuccess && draftQuery.data === null;
  const stored = draftGone ? null : remembered;
  useEffect(() => {
    if (draftGone) writeStored(formatId, null);
  }, [draftGone, formatId]);
  const draft = draftQuery.data ?? null;
  const upload = useUploadSpreadsheet(formatId);
  const discard = useDiscardDraft();
  const updateMapping = useUpdateMapping(stored?.id ?? '');
  const start = useStartJob(stored?.id ?? '');
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploadingName, setUploadingName] = useState<string | null>(null);
  const [choice, setChoice] = useState<InvalidChoice | null>(null);
  const [pattern, setPattern] = useState(() => defaultFileNamePattern(placeholders.map((p) => p.name)));
  const reuploadRef = useRef<HTMLInputElement>(null);
  const reviewRef = useRef<HTMLDivElement>(null);

  const remember = (value: StoredDraft | null) => {
    writeStored(formatId, value);
    setRemembered(value);
  };


  const fail = (message: string) => {
    setUploadError(message);
    // While a draft is on screen the file buttons are at the top; the person may be far below.
    if (draft) toast({ variant: 'destructive', title: 'Upload failed', description: message });
  };

  const send = (file: File) => {
    const problem = checkSpreadsheetFile(file);
    if (problem) {
      fail(problem);
      return;
    }
    setUploadError(null);
    setUploadingName(file.name);
    const previous = stored?.id ?? null;
    upload.mutate(file, {
      onSuccess: (next: TBulkUpload) => {
        client.setQueryData(bulkJobKeys.draft(next.id), next);
        remember({ id: next.id, auto: next.mapping });
        setChoice(null);
        if (previous && previous !== next.id) discard.mutate(previous);
        requestAnimationFrame(() => reviewRef.current?.focus());
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        fail(readApiError(error, 'The file could not be uploaded. Please try again.').message);
      },
      onSettled: () => setUploadingName(null),
    });
  };

  const startOver = () => {
    if (stored) discard.mutate(stored.id);
    remember(null);
    setChoice(null);
    setUploadError(null);
  };

  const changeMapping = (mapping: TColumnMapping) =>
    updateMapping.mutate(mapping, {
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        toast({ variant: 'destructive', title: 'Could not change the mapping', description: readApiError(error).message });
      },
    });

  const startBatch = () => {
    if (!draft || patternError(pattern)) return;
    start.mutate(
      { skipInvalid: draft.invalidRows > 0 && choice === 'skip', fileNamePattern: pattern.trim() },
      {
        onSuccess: (job) => {
          writeStored(formatId, null);
          toast({ title: 'Batch started', description: `Generating ${plural(job.total, 'document')} in the background.` });
          navigate(batchHref(job.id));
        },
        onError: (error) => {
          if (isUnauthorizedError(error)) return;
          if (errorStatus(error) === 409 && stored) {
            // Started already (another tab, a double click): its batch page has the progress.
            writeStored(formatId, null);
            navigate(batchHref(stored.id));
            return;
          }
          toast({ variant: 'destructive', title: 'Could not start the batch', description: readApiError(error).message, action: upgradeActionFor(error) });
          // The counts (quota, validity) may have changed since the preview: show the current ones.
          void draftQuery.refetch();
        },
      },
    );
  };

  const reuploadInput = (
    <input
      ref={reuploadRef}
      type="file"
      accept={SPREADSHEET_ACCEPT}
      aria-label="Corrected spreadsheet file"
      className="sr-only"
      tabIndex={-1}
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) send(file);
      }}
    />
  );

  if (stored && draftQuery.isLoading) {
    return (
      <p className="flex items-center gap-2 py-10 text-sm text-muted-foreground" role="status">
        <Loader2Icon className="size-4 animate-spin" aria-hidden /> Loading your upload…
      </p>
    );
  }

  if (!draft) {
    return (
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,300px)]">
        <div className="space-y-6">
          <div>
            <h2 className="text-base font-semibold">Fill many documents from one spreadsheet</h2>
            <p className="mt-1 text-sm text-muted-foreground">
              Each row of the spreadsheet becomes one PDF. You check the rows before anything is generated.
            </p>
          </div>
          <Step
            n={1}
            title="Download the template"
            description="An .xlsx file made for this format: one labelled column per field, required columns marked, dropdowns for choice fields."
          >
            <Button variant="outline" asChild>
              <a href={excelTemplateUrl(formatId)} target="_blank" rel="noopener">
                <FileSpreadsheetIcon aria-hidden /> Download Excel template
              </a>
            </Button>
          </Step>
          <Step
            n={2}
            title="Fill one row per document"
            description="Keep the header row as it is. Dates as YYYY-MM-DD, numbers without currency signs. Your own spreadsheet works too: you can match its columns next."
          />
          <Step n={3} title="Upload it here">
            {placeholders.length === 0 ? (
              <Alert variant="info">
                <InfoIcon />
                <AlertTitle>This format has no fields yet</AlertTitle>
                <AlertDescription>
                  <p>
                    Every document made from it would be the same, so there is nothing for a spreadsheet to fill in. Add
                    placeholders such as {'{{client_name}}'} in the builder first.
                  </p>
                  <Link href={formatEditHref(formatId)} className="font-medium text-primary underline underline-offset-4">
                    Edit format
                  </Link>
                </AlertDescription>
              </Alert>
            ) : (
              <FileDropZone
                uploading={upload.isPending}
                uploadingName={uploadingName}
                error={uploadError}
                onFile={send}
                onInvalid={fail}
              />
            )}
          </Step>
          {draftQuery.error && (
            <p className="text-sm text-destructive" role="alert">
              {readApiError(draftQuery.error, 'Could not load your previous upload.').message}
            </p>
          )}
        </div>
        <TemplateColumns placeholders={shown} />
      </div>
    );
  }

  const formatName = format.data?.name ?? 'Document';

  return (
    <div className="space-y-8">
      <div
        ref={reviewRef}
        tabIndex={-1}
        className="flex flex-col gap-3 rounded-lg border bg-muted/30 p-4 outline-none sm:flex-row sm:items-center sm:justify-between"
        aria-label={`Uploaded file ${draft.fileName}`}
      >
        <div className="flex min-w-0 items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-success-soft text-[oklch(0.45_0.12_155)]" aria-hidden>
            <FileSpreadsheetIcon className="size-5" />
          </span>
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
        {reuploadInput}
      </div>
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
          onChange={changeMapping}
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
          choice={choice}
          onChoice={setChoice}
          pattern={pattern}
          onPattern={setPattern}
          busy={start.isPending || updateMapping.isPending || upload.isPending}
          starting={start.isPending}
          onStart={startBatch}
          onReupload={() => reuploadRef.current?.click()}
        />
      </Step>
    </div>
  );
}
