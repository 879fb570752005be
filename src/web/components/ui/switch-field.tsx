import type { ReactNode } from 'react';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { Switch } from './switch';

/** A form's on/off setting: its label and what it does on the left, the switch on the right. */
export function SwitchField<T extends FieldValues, TContext, TOutput extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
}: {
  control: Control<T, TContext, TOutput>;
  name: FieldPathByValue<T, boolean>;
  id: string;
  label: string;
  hint: ReactNode;
}) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
      <div className="grid gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-[13px] text-muted-foreground">
          {hint}
        </p>
      </div>
      <Controller
        control={control}
        name={name}
        render={({ field }) => <Switch id={id} checked={field.value} aria-describedby={`${id}-hint`} onCheckedChange={field.onChange} />}
      />
    </div>
  );
}
