import { FileSpreadsheetIcon, InfoIcon } from 'lucide-react';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { excelTemplateUrl } from '../formats/api';
import { TYPE_NAMES } from './placeholder-field';

/**
 * Bulk Upload: explains the spreadsheet template and offers the real download. Generating from an
 * uploaded spreadsheet is not built yet, and nothing here pretends otherwise.
 */
export function BulkUploadTab({ formatId, placeholders }: { formatId: string; placeholders: readonly TPlaceholder[] }) {
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,340px)]">
      <div className="space-y-6">
        <div>
          <h2 className="text-base font-semibold">Fill many documents from one spreadsheet</h2>
          <p className="mt-1 text-sm text-muted-foreground">
            The Excel template has one column per field of this format, in the same order as the form. Each row you fill
            is one document.
          </p>
        </div>
        <ol className="space-y-4">
          {[
            ['Download the template', 'An .xlsx file made for this format: labelled columns, required columns marked, and dropdowns for choice fields.'],
            ['Fill one row per document', 'Keep the header rows as they are. Dates as YYYY-MM-DD, numbers without currency signs.'],
          ].map(([title, text], i) => (
            <li key={title} className="flex gap-3">
              <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary-soft text-[13px] font-semibold text-primary">
                {i + 1}
              </span>
              <div>
                <p className="text-sm font-medium">{title}</p>
                <p className="text-sm text-muted-foreground">{text}</p>
              </div>
            </li>
          ))}
        </ol>
        <Button asChild>
          <a href={excelTemplateUrl(formatId)} target="_blank" rel="noopener">
            <FileSpreadsheetIcon /> Download Excel template
          </a>
        </Button>
        <Alert variant="info">
          <InfoIcon />
          <AlertTitle>Spreadsheet upload is not available yet</AlertTitle>
          <AlertDescription>
            You can prepare your data in the template today. Generating documents from an uploaded spreadsheet is on the way;
            this tab will accept the file once it is.
          </AlertDescription>
        </Alert>
      </div>
      <div className="rounded-lg border bg-muted/30 p-4">
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
                  {TYPE_NAMES[p.type]}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
