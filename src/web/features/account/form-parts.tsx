import { AlertCircleIcon } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { type ComponentProps, type ReactNode, useId, useState } from 'react';
import { Loader2Icon } from 'lucide-react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field as LabelledField } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { readApiError } from '../../lib/api';

/** The sign-in, sign-up, password and profile forms' parts: a labelled input, the server's answer. */
export function Field<T extends FieldValues>({
  form,
  name,
  label,
  type = 'text',
  autoComplete,
  hint,
  inputMode,
}: {
  form: UseFormReturn<T, unknown, FieldValues>;
  name: Path<T>;
  label: string;
  type?: string;
  autoComplete?: string;
  hint?: ReactNode;
  inputMode?: 'numeric' | 'text';
}) {
  const id = `${useId().replace(/:/g, '')}-${String(name)}`;
  const error = form.formState.errors[name]?.message;
  const message = typeof error === 'string' ? error : undefined;
  const describedBy = message ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <LabelledField id={id} label={label} error={message} hint={hint}>
      <Input
        id={id}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy}
        {...form.register(name)}
      />
    </LabelledField>
  );
}

/** A form's send button: a spinner and `pendingLabel` while the form is on its way, and no second press. */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
  ...button
}: { pending: boolean; label: string; pendingLabel: string } & Omit<ComponentProps<typeof Button>, 'type' | 'disabled' | 'children'>) {
  return (
    <Button type="submit" disabled={pending} {...button}>
      {pending && <Loader2Icon className="animate-spin" aria-hidden />}
      {pending ? pendingLabel : label}
    </Button>
  );
}

export function ServerAlert({ message, action }: { message: string | null; action?: ReactNode }) {
  if (!message) return null;
  return (
    <Alert variant="destructive">
      <AlertCircleIcon />
      <AlertDescription>
        {message}
        {action}
      </AlertDescription>
    </Alert>
  );
}

/** Puts the server's per-field messages under the matching inputs; returns the readable message. */
export function applyServerError<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, error: unknown, fallback: string): string {
  const readable = readApiError(error, fallback);
  const fieldNames = Object.keys(form.getValues());
  for (const [field, msg] of Object.entries(readable.fields)) {
    if (fieldNames.includes(field)) form.setError(field as Path<T>, { type: 'server', message: msg });
  }
  return readable.message;
}

/**
 * Sending a form to the server: `onSubmit` clears the last answer and sends the checked values;
 * a refusal puts its field messages under the fields and its message above the form
 * (`serverError`), with `failure` when it says nothing readable.
 */
export function useFormMutation<TInput extends FieldValues, TOutput, TResult>(
  form: UseFormReturn<TInput, unknown, TOutput>,
  {
    mutationFn,
    onSuccess,
    failure,
    beforeSubmit,
    onFailure,
    meta,
  }: {
    mutationFn: (values: TOutput) => Promise<TResult>;
    onSuccess?: (result: TResult) => void;
    failure: string;
    beforeSubmit?: () => void;
    /** Called with the refusal too, for what the form does beyond showing it. */
    onFailure?: (error: unknown) => void;
    meta?: Record<string, unknown>;
  },
) {
  const [serverError, setServerError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn,
    onSuccess,
    onError: (error) => {
      onFailure?.(error);
      setServerError(applyServerError(form as never, error, failure));
    },
    meta,
  });
  const onSubmit = form.handleSubmit((values) => {
    setServerError(null);
    beforeSubmit?.();
    mutation.mutate(values);
  });
  // Field reads the form's errors and registers inputs, whatever the values' output type.
  const anyForm = form as unknown as UseFormReturn<TInput, unknown, FieldValues>;
  return { mutation, serverError, onSubmit, anyForm };
}
