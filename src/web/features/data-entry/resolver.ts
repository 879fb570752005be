import type { FieldErrors, Resolver } from 'react-hook-form';
import { checkDocumentData, type TDataCheck } from '../../../contract/documents';
import type { TPlaceholder } from '../../../contract/placeholders';

/**
 * Form field keys are `f0`, `f1`, … rather than placeholder names: a name may contain a dot,
 * which react-hook-form would read as a nested path.
 */
export type TFormValues = Record<string, string>;

export function fieldKey(index: number): string {
  return `f${index}`;
}

/** Form values (by field key) -> document data (by placeholder name). */
export function toDocumentData(placeholders: readonly TPlaceholder[], values: TFormValues): Record<string, string> {
  const data: Record<string, string> = {};
  placeholders.forEach((p, i) => {
    data[p.name] = values[fieldKey(i)] ?? '';
  });
  return data;
}

export function emptyValues(placeholders: readonly TPlaceholder[]): TFormValues {
  return Object.fromEntries(placeholders.map((_, i) => [fieldKey(i), '']));
}

/** Field errors keyed by placeholder name (from checkDocumentData or the server) -> form field keys. */
export function toFieldErrors(placeholders: readonly TPlaceholder[], byName: Record<string, string>): FieldErrors<TFormValues> {
  const errors: FieldErrors<TFormValues> = {};
  placeholders.forEach((p, i) => {
    const message = byName[p.name];
    if (message) errors[fieldKey(i)] = { type: 'validate', message };
  });
  return errors;
}

/** The same check the server runs (contract `checkDocumentData`), so both agree on every field. */
export function checkValues(placeholders: readonly TPlaceholder[], values: TFormValues): TDataCheck {
  return checkDocumentData(placeholders, toDocumentData(placeholders, values));
}

export function documentDataResolver(placeholders: readonly TPlaceholder[]): Resolver<TFormValues> {
  return (values) => {
    const check = checkValues(placeholders, values);
    if (Object.keys(check.fields).length === 0) return { values, errors: {} };
    return { values: {}, errors: toFieldErrors(placeholders, check.fields) };
  };
}
