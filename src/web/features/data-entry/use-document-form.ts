import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { clientNameOf, DEFAULT_CLIENT_NAME, documentNameFor, requiredFieldsMessage, type TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import { upgradeActionFor } from '../../components/plan/upgrade';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { useCreateDocument } from '../documents/api';
import { checkValues, countedRows, documentDataResolver, emptyValues, fieldErrorPaths, toDocumentData, toFormRowKeys, type TFormValues } from './resolver';

export const FORMAT_NOT_FOUND_MESSAGE = 'Format not found.';
export const GENERATE_FAILED_MESSAGE = 'Failed to generate document. Please try again.';

/** Today as the server writes it into a document's name (UTC, YYYY-MM-DD). */
const serverDate = () => new Date().toISOString().slice(0, 10);

/**
 * The Generate document form: its values, what they decide as the person types (formulas, hidden
 * questions), the form-level error, and generating the document.
 */
export function useDocumentForm(format: TFormat | null) {
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
  const [formError, setFormErrorState] = useState<{ message: string; source: 'client' | 'server'; quota?: boolean } | null>(null);
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
        else if (Object.keys(check.fields).length > 0) setFormErrorState({ message: 'Please correct the highlighted fields.', source: 'client' });
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
  // The server names the document; this is the name it will give, shown before generating.
  const documentName = format
    ? documentNameFor({ name: format.name, documentNamePattern: content.documentNamePattern, placeholders }, live.check.values, serverDate())
    : '';

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
          if (problem.status === 400 || problem.status === 404 || problem.status === 429) setFormError(problem.message, 'server', problem.status === 429);
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
    setFormError(check.missing.length > 0 ? requiredFieldsMessage(check.missing) : 'Please correct the highlighted fields.', 'client');
  };

  const generateAnother = () => {
    setGenerated(null);
    setFormError(null);
    form.reset(emptyValues(placeholders));
  };

  return { placeholders, content, form, create, formError, generated, setGenerated, live, documentName, onValid, onInvalid, generateAnother };
}

export type DocumentFormState = ReturnType<typeof useDocumentForm>;
