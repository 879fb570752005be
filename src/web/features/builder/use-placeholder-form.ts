import { useForm, useWatch, type Resolver, type ResolverResult } from 'react-hook-form';
import type { TPlaceholder } from '../../../contract/placeholders';
import { placeholderFromForm, type PlaceholderFormValues } from './placeholder-form-values';

type TMade = { placeholder: TPlaceholder; columnRenames: Record<string, string> };

/**
 * A placeholder's form (the New placeholder panel, the edit dialog): its values, checked on submit
 * by placeholderFromForm (the contract's name rule, the names `taken`, then what the type needs),
 * whose one message shows by the name until the name changes or the form is sent again.
 */
export function usePlaceholderForm(initial: () => PlaceholderFormValues, taken: ReadonlySet<string>, keep: string | null = null) {
  const resolver: Resolver<PlaceholderFormValues> = (values): ResolverResult<PlaceholderFormValues> => {
    const result = placeholderFromForm(values, taken, keep);
    if ('error' in result) return { values: {}, errors: { name: { type: 'validate', message: result.error } } };
    return { values, errors: {} };
  };
  const form = useForm<PlaceholderFormValues>({ defaultValues: initial(), resolver, reValidateMode: 'onSubmit' });
  const values = useWatch({ control: form.control }) as PlaceholderFormValues;
  const change = (next: Partial<PlaceholderFormValues>) => {
    for (const [key, value] of Object.entries(next)) form.setValue(key as keyof PlaceholderFormValues, value as never);
    if ('name' in next) form.clearErrors('name');
  };
  const error = form.formState.errors.name?.message ?? null;
  /** Submits: `onMade` gets the placeholder the values make (checked again, so never a stale one). */
  const submit = (onMade: (made: TMade) => void) =>
    form.handleSubmit((checked) => {
      const result = placeholderFromForm(checked, taken, keep);
      if (!('error' in result)) onMade(result);
    });
  return { form, values, change, error, submit };
}
