import { CircleAlertIcon, Loader2Icon, UploadCloudIcon } from 'lucide-react';
import { useId, useRef, useState, type DragEvent, type RefObject } from 'react';
import { BULK_ACCEPTED_EXTENSIONS } from '../../../contract/bulk';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { checkSpreadsheetFile } from './api';

export const SPREADSHEET_ACCEPT = BULK_ACCEPTED_EXTENSIONS.join(',');

/**
 * Pick or drop one spreadsheet. The file is checked here first (type, size) with the server's own
 * wording, so an obviously wrong file never leaves the browser.
 */
export function FileDropZone({
  uploading,
  uploadingName,
  error,
  onFile,
  onInvalid,
}: {
  uploading: boolean;
  uploadingName: string | null;
  error: string | null;
  onFile: (file: File) => void;
  onInvalid: (message: string) => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const hintId = useId();
  const errorId = useId();

  const take = (files: FileList | readonly File[] | null) => {
    const file = files?.[0];
    if (!file) return;
    if (files.length > 1) {
      onInvalid('Drop one file at a time.');
      return;
    }
    const problem = checkSpreadsheetFile(file);
    if (problem) onInvalid(problem);
    else onFile(file);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (uploading) return;
    take(event.dataTransfer.files);
  };

  return (
    <div className="space-y-2">
      <div
        data-testid="drop-zone"
        onDragEnter={(e) => {
          e.preventDefault();
          if (!uploading) setDragging(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = uploading ? 'none' : 'copy';
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center justify-center rounded-xl border-2 border-dashed px-6 py-9 text-center transition-colors',
          dragging ? 'border-primary bg-primary-soft' : error ? 'border-destructive/40 bg-destructive/5' : 'border-input bg-muted/30',
        )}
      >
        <span className="mb-3 flex size-11 items-center justify-center rounded-full bg-background shadow-card ring-1 ring-border" aria-hidden>
          {uploading ? <Loader2Icon className="size-5 animate-spin text-primary" /> : <UploadCloudIcon className="size-5 text-primary" />}
        </span>
        {uploading ? (
          <div role="status" className="space-y-1">
            <p className="text-sm font-medium">Uploading {uploadingName ?? 'your file'}…</p>
            <p className="text-sm text-muted-foreground">Reading the rows and checking every value.</p>
          </div>
        ) : (
          <>
            <p className="text-sm font-medium">{dragging ? 'Drop the file to upload it' : 'Drag your spreadsheet here, or choose a file'}</p>
            <p id={hintId} className="mt-1 text-sm text-muted-foreground">
              .xlsx, .xls or .csv, up to 10MB
            </p>
            <Button className="mt-4" onClick={() => inputRef.current?.click()} aria-describedby={`${hintId}${error ? ` ${errorId}` : ''}`}>
              Choose file
            </Button>
          </>
        )}
        <SpreadsheetInput inputRef={inputRef} label="Spreadsheet file" disabled={uploading} onPick={take} />
      </div>
      {error && (
        <p id={errorId} role="alert" className="flex items-start gap-2 text-sm text-destructive" data-testid="upload-error">
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}

/** The hidden input behind a "choose a spreadsheet" button. It is emptied after each pick, so the same file can be chosen again once fixed. */
export function SpreadsheetInput({
  inputRef,
  label,
  disabled,
  onPick,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  label: string;
  disabled?: boolean;
  onPick: (files: readonly File[]) => void;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={SPREADSHEET_ACCEPT}
      aria-label={label}
      className="sr-only"
      tabIndex={-1}
      disabled={disabled}
      onChange={(e) => {
        const files = Array.from(e.target.files ?? []);
        e.target.value = '';
        if (files.length > 0) onPick(files);
      }}
    />
  );
}
