import { CircleAlertIcon, FileSpreadsheetIcon, Loader2Icon, SparklesIcon, UploadIcon } from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'wouter';
import { clientNameOf, DEFAULT_CLIENT_NAME, documentNameFor, requiredFieldsMessage, type TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { upgradeActionFor } from '../../components/plan/upgrade';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { cn, formatDate } from '../../lib/utils';
import { useCreateDocument } from '../documents/api';
import { excelTemplateUrl } from '../formats/api';
import { useMediaQuery } from '../../hooks/use-media-query';
import { FilledPreviewButton, FilledPreviewPane } from './filled-preview';
import { FormulaField } from './formula-field';
import { ListField } from './list-field';
import { PlaceholderField } from './placeholder-field';
import {
  checkValues,
  countedRows,
  documentDataResolver,
  emptyValues,
  fieldErrorPaths,
  toDocumentData,
  toFormRowKeys,
  type TFormValues,
} from './resolver';
import { GenerationSuccessDialog } from './success-dialog';

export const FORMAT_NOT_FOUND_MESSAGE = 'Format not found.';
export const GENERATE_FAILED_MESSAGE = 'Failed to generate document. Please try again.';
/** From this width the filled document shows beside the form; below it, behind a Preview button. */
const SIDE_BY_SIDE_QUERY = '(min-width: 80rem)';

export function DocumentForm({ format, onImportMultiData }: { format: TFormat | null; onImportMultiData: () => void }) {
  const placeholders = useMemo(() => format?.placeholders ?? [], [format]);
  const content = useMemo(() => format?.content ?? { elements: [] }, [format]);
  const resolver = useMemo(() => documentDataResolver(placeholders, content), [placeholders, content]);
  const form = useForm<TFormValues>({
    resolver,
    defaultValues: emptyValues(placeholders),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const create = useCreateDocument();
  // `client`: from the form's own check, kept up to date as fields change; `server`: the last answer.
  const [formError, setFormErrorState] = useState<{ message: string; source: 'client' | 'server'; quota?: boolean } | null>(
    null,
  );
  const setFormError = (message: string | null, source: 'client' | 'server' = 'server', quota = false) =>
    setFormErrorState(message ? { message, source, quota } : null);
  const clientErrorShown = formError?.source === 'client';

  useEffect(() => {
    if (!clientErrorShown) return;
    return form.subscribe({
      formState: { values: true },
      callback: ({ values }) => {
        const check = checkValues(placeholders, values, content);
        if (check.missing.length > 0) setFormErrorState({ message: requiredFieldsMessage(check.missing), source: 'client' });
        else if (Object.keys(check.fields).length > 0)
          setFormErrorState({ message: 'Please correct the highlighted fields.', source: 'client' });
        else setFormErrorState(null);
      },
    });
  }, [clientErrorShown, form, placeholders, content]);
  const [generated, setGenerated] = useState<TDocument | null>(null);

  // What the values decide as the person types: formulas computed, questions hidden sections only use.
  const watched = useDeferredValue(useWatch({ control: form.control }) as TFormValues);
  const live = useMemo(() => {
    const check = checkValues(placeholders, watched, content);
    const counted = countedRows(placeholders, watched);
    // Each list's computed rows, placed back at the form rows they came from (blank rows have none).
    const rows = new Map<string, (Record<string, string> | undefined)[]>();
    for (const p of placeholders) {
      if (p.type !== 'list') continue;
      const computed = Array.isArray(check.values[p.name]) ? (check.values[p.name] as Record<string, string>[]) : [];
      const placed: (Record<string, string> | undefined)[] = [];
      (counted.get(p.name) ?? []).forEach((formRow, k) => (placed[formRow] = computed[k]));
      rows.set(p.name, placed);
    }
    return { check, rows };
  }, [placeholders, watched, content]);

  const onValid = (values: TFormValues) => {
    setFormError(null);
    if (!format) {
      setFormError(FORMAT_NOT_FOUND_MESSAGE);
      return;
    }
    const { values: data } = checkValues(placeholders, values, content);
    // Send every field (empty ones as ''), so the document records what was left blank.
    const allData = { ...toDocumentData(placeholders, values), ...data };
    create.mutate(
      {
        formatId: format.id,
        name: documentNameFor({ name: format.name, documentNamePattern: format.content.documentNamePattern }, allData, formatDate(new Date().toISOString())),
        clientName: clientNameOf(allData)?.trim() || DEFAULT_CLIENT_NAME,
        data: allData,
      },
      {
        onSuccess: (document) => setGenerated(document),
        onError: (error) => {
          if (isUnauthorizedError(error)) return;
          const problem = readApiError(error, GENERATE_FAILED_MESSAGE);
          const fields = toFormRowKeys(problem.fields, countedRows(placeholders, values));
          for (const [path, message] of fieldErrorPaths(placeholders, fields)) form.setError(path, { type: 'server', message });
          if (problem.status === 400 || problem.status === 404 || problem.status === 429)
            setFormError(problem.message, 'server', problem.status === 429);
          toast({
            variant: 'destructive',
            title: GENERATE_FAILED_MESSAGE,
            description: problem.message === GENERATE_FAILED_MESSAGE ? undefined : problem.message,
            action: upgradeActionFor(error),
          });
        },
      },
    );
  };

  const onInvalid = () => {
    const check = checkValues(placeholders, form.getValues(), content);
    setFormError(
      check.missing.length > 0 ? requiredFieldsMessage(check.missing) : 'Please correct the highlighted fields.',
      'client',
    );
  };

  const pending = create.isPending;
  const asked = placeholders.filter((p) => p.type !== 'formula' && !live.check.hidden.has(p.name));
  const requiredCount = asked.filter((p) => p.required).length;
  const sideBySide = useMediaQuery(SIDE_BY_SIDE_QUERY);

  const formElement = (
    <form
      noValidate
      aria-label="Generate document"
      onSubmit={(event) => void form.handleSubmit(onValid, onInvalid)(event)}
      className="space-y-6"
    >
      <div
        className={cn(
          'flex flex-col gap-3 rounded-lg border bg-muted/30 p-4',
          // Beside the preview the column is narrow: the buttons go under the text.
          !sideBySide && 'sm:flex-row sm:items-center sm:justify-between',
        )}
      >
        <p className="text-sm text-muted-foreground">
          {placeholders.length === 0
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

      {placeholders.length > 0 && (
        <div className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
          {placeholders.map((p, i) => {
            // A question only hidden sections use is not asked; its value comes back if they show again.
            if (live.check.hidden.has(p.name)) return null;
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
                <ListField key={p.name} placeholder={p} index={i} control={form.control} disabled={pending} computedRows={live.rows.get(p.name) ?? []} content={content} />
              );
            }
            return <PlaceholderField key={p.name} placeholder={p} index={i} control={form.control} disabled={pending} />;
          })}
        </div>
      )}

      {formError && (
        <Alert variant="destructive" data-testid="form-error">
          <CircleAlertIcon />
          <AlertDescription className="text-destructive">
            <p>{formError.message}</p>
            {formError.quota && (
              <Link href="/settings?tab=billing" className="font-medium underline underline-offset-4">
                See plans and upgrade
              </Link>
            )}
          </AlertDescription>
        </Alert>
      )}

      <div className="flex flex-col-reverse gap-3 border-t pt-5 sm:flex-row sm:items-center sm:justify-end">
        {format && !sideBySide && <FilledPreviewButton format={format} control={form.control} />}
        <Button type="submit" size="lg" disabled={pending} className="sm:min-w-52">
          {pending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SparklesIcon aria-hidden />}
          {pending ? 'Generating...' : 'Generate Document'}
        </Button>
      </div>

      <GenerationSuccessDialog
        document={generated}
        onOpenChange={(open) => {
          if (!open) setGenerated(null);
        }}
        onGenerateAnother={() => {
          setGenerated(null);
          setFormError(null);
          form.reset(emptyValues(placeholders));
        }}
      />
    </form>
  );

  if (!format || !sideBySide) return formElement;
  return (
    <div className="grid items-start gap-8 xl:grid-cols-[minmax(0,1fr)_minmax(340px,44%)]">
      {formElement}
      <aside aria-label="Preview" className="sticky top-20 h-[calc(100dvh-7rem)] min-h-[480px]">
        <FilledPreviewPane format={format} control={form.control} />
      </aside>
    </div>
  );
}
