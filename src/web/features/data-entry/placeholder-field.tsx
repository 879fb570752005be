import { ChevronDownIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Controller, type Control } from 'react-hook-form';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { cn } from '../../lib/utils';
import { fieldKey, type TFormValues } from './resolver';

const HINTS: Partial<Record<TPlaceholder['type'], string>> = {
  email: 'name@example.com',
  number: '0',
  tel: '+1 555 010 0199',
};

/** Keeps only what can be part of a number: digits, one sign, a decimal point, grouping commas. */
export function numericOnly(value: string): string {
  return value.replace(/[^\d.,+-]/g, '');
}

const selectClasses =
  'flex h-10 w-full min-w-0 cursor-pointer appearance-none rounded-md border border-input bg-background py-2 pr-9 pl-3 text-sm shadow-xs transition-[border-color,box-shadow] outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive aria-invalid:ring-destructive/20';

/** One form control for one placeholder, chosen by its type, with its label, required mark and error. */
export function PlaceholderField({
  placeholder,
  index,
  control,
  disabled,
}: {
  placeholder: TPlaceholder;
  index: number;
  control: Control<TFormValues>;
  disabled?: boolean;
}) {
  const name = fieldKey(index);
  const id = `field-${index}`;
  const label = placeholderLabel(placeholder);
  const wide = placeholder.type === 'textarea';
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const errorId = `${id}-error`;
        const common = {
          id,
          name: field.name,
          ref: field.ref,
          value: field.value ?? '',
          onBlur: field.onBlur,
          disabled,
          'aria-invalid': fieldState.invalid || undefined,
          'aria-describedby': fieldState.error ? errorId : undefined,
          'aria-required': placeholder.required || undefined,
        } satisfies Partial<ComponentProps<'input'>>;
        let control;
        switch (placeholder.type) {
          case 'textarea':
            control = <Textarea {...common} rows={4} onChange={(e) => field.onChange(e.target.value)} />;
            break;
          case 'select':
            control = (
              <div className="relative">
                <select
                  {...common}
                  className={cn(selectClasses, !field.value && 'text-muted-foreground')}
                  onChange={(e) => field.onChange(e.target.value)}
                >
                  <option value="">Select an option</option>
                  {placeholder.options.map((o) => (
                    <option key={o} value={o} className="text-foreground">
                      {o}
                    </option>
                  ))}
                </select>
                <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
              </div>
            );
            break;
          case 'number':
            control = (
              <Input
                {...common}
                type="text"
                inputMode="decimal"
                autoComplete="off"
                placeholder={HINTS.number}
                onChange={(e) => field.onChange(numericOnly(e.target.value))}
              />
            );
            break;
          case 'date':
            control = (
              <Input
                {...common}
                type="date"
                className={cn('block cursor-text [&::-webkit-calendar-picker-indicator]:cursor-pointer [&::-webkit-calendar-picker-indicator]:opacity-60', !field.value && 'text-muted-foreground')}
                onChange={(e) => field.onChange(e.target.value)}
              />
            );
            break;
          default:
            control = (
              <Input
                {...common}
                type={placeholder.type === 'email' ? 'email' : placeholder.type === 'tel' ? 'tel' : 'text'}
                autoComplete={placeholder.type === 'email' ? 'email' : placeholder.type === 'tel' ? 'tel' : 'off'}
                placeholder={HINTS[placeholder.type]}
                onChange={(e) => field.onChange(e.target.value)}
              />
            );
        }
        return (
          <div className={cn('flex flex-col gap-2', wide && 'sm:col-span-2')} data-testid={`field-${placeholder.name}`}>
            <Label htmlFor={id} className="gap-0">
              {label}
              {placeholder.required && (
                <span className="ml-0.5 text-destructive" aria-hidden>
                  *
                </span>
              )}
              {placeholder.required && <span className="sr-only"> (required)</span>}
            </Label>
            {control}
            {fieldState.error?.message && (
              <p id={errorId} className="text-[13px] text-destructive">
                {fieldState.error.message}
              </p>
            )}
          </div>
        );
      }}
    />
  );
}
