import { CircleAlertIcon, FileSpreadsheetIcon, Loader2Icon, SparklesIcon, UploadIcon } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'wouter';
import type { TFormat } from '../../../contract/formats';
import { isSigningPlaceholder, signerLabel, signerRoles } from '../../../contract/placeholders';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { excelTemplateUrl } from '../formats/api';
import { useMediaQuery } from '../../hooks/use-media-query';
import { FilledPreviewButton, FilledPreviewPane } from './filled-preview';
import { FormulaField } from './formula-field';
import { ListField } from './list-field';
import { PlaceholderField } from './placeholder-field';
import { GenerationSuccessDialog } from './success-dialog';
import { useDocumentForm, type DocumentFormState } from './use-document-form';

/** From this width the filled document shows beside the form; below it, behind a Preview button. */
const SIDE_BY_SIDE_QUERY = '(min-width: 80rem)';

/** How many fields there are, and the spreadsheet route for filling many documents at once. */
function FormSummary({
  format,
  state,
  sideBySide,
  onImportMultiData,
}: {
  format: TFormat | null;
  state: DocumentFormState;
  sideBySide: boolean;
  onImportMultiData: () => void;
}) {
  const { placeholders, live } = state;
  const asked = placeholders.filter((p) => p.type !== 'formula' && !isSigningPlaceholder(p) && !live.check.hidden.has(p.name));
  const filled = placeholders.filter((p) => !isSigningPlaceholder(p));
  const requiredCount = asked.filter((p) => p.required).length;
  return (
    <div
      className={cn(
        'flex flex-col gap-3 rounded-lg border bg-muted/30 p-4',
        // Beside the preview the column is narrow: the buttons go under the text.
        !sideBySide && 'sm:flex-row sm:items-center sm:justify-between',
      )}
    >
      <p className="text-sm text-muted-foreground">
        {filled.length === 0
          ? 'This format has no fields: generate it as it is.'
          : `${asked.length} ${asked.length === 1 ? 'field' : 'fields'}${requiredCount ? `, ${requiredCount} required (marked *)` : ''}. Filling many at once? Use a spreadsheet.`}
      </p>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Button variant="outline" size="sm" asChild>
          <a href={format ? excelTemplateUrl(format.id) : '#'} target="_blank" rel="noopener">
            <FileSpreadsheetIcon /> Download Excel template
          </a>
        </Button>
        <Button variant="outline" size="sm" onClick={onImportMultiData}>
          <UploadIcon /> Import Multi Data
        </Button>
      </div>
    </div>
  );
}

/** One field per placeholder the values ask for: formulas computed, lists as tables of rows. */
function DocumentFields({ state }: { state: DocumentFormState }) {
  const { placeholders, content, live, form } = state;
  const pending = state.create.isPending;
  return (
    <div className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
      {placeholders.map((p, i) => {
        // A question only hidden sections use is not asked; its value comes back if they show again.
        if (live.check.hidden.has(p.name)) return null;
        // Filled in by a signer when the document is signed (the note above Generate says so).
        if (isSigningPlaceholder(p)) return null;
        if (p.type === 'formula') {
          const value = live.check.values[p.name];
          return (
            <FormulaField
              key={p.name}
              placeholder={p}
              index={i}
              value={typeof value === 'string' ? value : ''}
              problem={live.check.fields[p.name]}
              content={content}
            />
          );
        }
        if (p.type === 'list') {
          return (
            <ListField
              key={p.name}
              placeholder={p}
              index={i}
              control={form.control}
              disabled={pending}
              computedRows={live.rows.get(p.name) ?? []}
              content={content}
            />
          );
        }
        return <PlaceholderField key={p.name} placeholder={p} index={i} control={form.control} disabled={pending} content={content} />;
      })}
    </div>
  );
}

/** "Signer 1", "Signer 1 and Signer 2", "Signer 1, Signer 2 and Signer 3". */
function signerList(roles: readonly number[]): string {
  const labels = roles.map(signerLabel);
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/** Why the form was not sent: missing or wrong fields, or the server's answer (with upgrade when over quota). */
function FormErrorAlert({ error }: { error: NonNullable<DocumentFormState['formError']> }) {
  return (
    <Alert variant="destructive" data-testid="form-error">
      <CircleAlertIcon />
      <AlertDescription className="text-destructive">
        <p>{error.message}</p>
        {error.quota && (
          <Link href="/settings?tab=billing" className="font-medium underline underline-offset-4">
            See plans and upgrade
          </Link>
        )}
      </AlertDescription>
    </Alert>
  );
}

export function DocumentForm({ format, onImportMultiData }: { format: TFormat | null; onImportMultiData: () => void }) {
  const state = useDocumentForm(format);
  const { placeholders, form, create, formError, generated, setGenerated, onValid, onInvalid } = state;
  const pending = create.isPending;
  const sideBySide = useMediaQuery(SIDE_BY_SIDE_QUERY);
  const roles = signerRoles(placeholders);
  const generateButton = useRef<HTMLButtonElement>(null);

  const formElement = (
    <form noValidate aria-label="Generate document" onSubmit={(event) => void form.handleSubmit(onValid, onInvalid)(event)} className="space-y-6">
      <FormSummary format={format} state={state} sideBySide={sideBySide} onImportMultiData={onImportMultiData} />

      {placeholders.length > 0 && <DocumentFields state={state} />}

      {formError && <FormErrorAlert error={formError} />}

      {roles.length > 0 && (
        <p className="text-sm text-muted-foreground" data-testid="signing-note">
          This format has signing fields for {signerList(roles)}. They are filled in when the document is signed.
        </p>
      )}

      <div className="flex flex-col-reverse gap-3 border-t pt-5 sm:flex-row sm:items-center sm:justify-end">
        {format && (
          <p className="min-w-0 text-sm break-words text-muted-foreground sm:mr-auto" data-testid="document-name">
            Saved as “{state.documentName}”
          </p>
        )}
        {format && !sideBySide && <FilledPreviewButton format={format} control={form.control} />}
        <Button ref={generateButton} type="submit" size="lg" disabled={pending} className="sm:min-w-52">
          {pending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SparklesIcon aria-hidden />}
          {pending ? 'Generating...' : 'Generate Document'}
        </Button>
      </div>

      <GenerationSuccessDialog
        document={generated}
        onOpenChange={(open) => {
          if (!open) setGenerated(null);
        }}
        onGenerateAnother={state.generateAnother}
        returnFocus={generateButton}
      />
    </form>
  );

  const withPreview = format !== null && sideBySide;
  // One tree at every width: the form (and a dialog open from its success dialog) stays mounted when
  // the window crosses the breakpoint, rather than losing what the dialog held.
  return (
    <div className={withPreview ? 'grid items-start gap-8 xl:grid-cols-[minmax(0,1fr)_minmax(340px,44%)]' : undefined}>
      {formElement}
      {withPreview && (
        <aside aria-label="Preview" className="sticky top-20 h-[calc(100dvh-7rem)] min-h-[480px]">
          <FilledPreviewPane format={format} control={form.control} />
        </aside>
      )}
    </div>
  );
}
