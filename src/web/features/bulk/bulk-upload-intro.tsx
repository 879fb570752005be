import { FileSpreadsheetIcon, InfoIcon } from 'lucide-react';
import { Link } from 'wouter';
import { isSigningPlaceholder, PLACEHOLDER_TYPE_NAMES, placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { readApiError } from '../../lib/api';
import { Step } from './bulk-step';
import { FileDropZone } from './file-drop-zone';
import type { BulkUploadState } from './use-bulk-upload';
import { excelTemplateUrl } from '../formats/api';
import { formatEditHref } from '../formats/format-actions';

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

function NoFieldsYet({ formatId }: { formatId: string }) {
  return (
    <Alert variant="info">
      <InfoIcon />
      <AlertTitle>This format has no fields yet</AlertTitle>
      <AlertDescription>
        <p>
          Every document made from it would be the same, so there is nothing for a spreadsheet to fill in. Add placeholders such as {'{{client_name}}'} in the
          builder first.
        </p>
        <Link href={formatEditHref(formatId)} className="font-medium text-primary underline underline-offset-4">
          Edit format
        </Link>
      </AlertDescription>
    </Alert>
  );
}

/** Before any upload: the three steps to a filled spreadsheet, beside the template's columns. */
export function BulkUploadIntro({ formatId, placeholders, state }: { formatId: string; placeholders: readonly TPlaceholder[]; state: BulkUploadState }) {
  const { upload, uploadingName, uploadError, send, fail, draftQuery, shown } = state;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,300px)]">
      <div className="space-y-6">
        <div>
          <h2 className="text-base font-semibold">Fill many documents from one spreadsheet</h2>
          <p className="mt-1 text-sm text-muted-foreground">Each row of the spreadsheet becomes one PDF. You check the rows before anything is generated.</p>
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
          {placeholders.every(isSigningPlaceholder) ? (
            <NoFieldsYet formatId={formatId} />
          ) : (
            <FileDropZone uploading={upload.isPending} uploadingName={uploadingName} error={uploadError} onFile={send} onInvalid={fail} />
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
