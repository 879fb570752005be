import { ChevronDownIcon } from 'lucide-react';
import type { ComponentProps, Ref } from 'react';
import { Controller, type Control } from 'react-hook-form';
import type { TFormatContent } from '../../../contract/format-content';
import { DEFAULT_CURRENCY, DEFAULT_LOCALE, displayAdornment, placeholderLabel, type TListColumn, type TPlaceholder } from '../../../contract/placeholders';
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

/** What sits inside a number's input: the currency symbol or the percent sign, on the side the locale writes it. */
export type TAdornment = { text: string; side: 'start' | 'end' };

/** The adornment a number's display asks for, in the format's locale and currency (none for plain and decimal). */
export function numberAdornment(
  field: Pick<TPlaceholder | TListColumn, 'type' | 'display'>,
  content: Pick<TFormatContent, 'locale' | 'currency'> | undefined,
): TAdornment | undefined {
  if (field.type !== 'number' || !content) return undefined;
  return displayAdornment(field.display, { locale: content.locale ?? DEFAULT_LOCALE, currency: content.currency ?? DEFAULT_CURRENCY });
}

export const checkboxClasses = 'size-4 shrink-0 cursor-pointer accent-[var(--color-primary)]';

/** The attributes every value control takes from its field. */
export interface TControlProps {
  id: string;
  name: string;
  ref: Ref<HTMLInputElement & HTMLTextAreaElement & HTMLSelectElement>;
  value: string;
  onBlur: () => void;
  disabled?: boolean;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
  'aria-label'?: string;
}

/** The control for one value of a placeholder's (or a list column's) type. */
export function ValueControl({
  field,
  common,
  onChange,
  compact,
  adornment,
}: {
  field: Pick<TPlaceholder | TListColumn, 'type' | 'options'>;
  common: TControlProps;
  onChange: (value: string) => void;
  /** In a list's row: a shorter textarea and select. */
  compact?: boolean;
  /** For a number: its currency symbol or percent sign. */
  adornment?: TAdornment | undefined;
}) {
  const { ref, ...attributes } = common;
  switch (field.type) {
    case 'textarea':
      return (
        <Textarea {...attributes} ref={ref} rows={compact ? 2 : 4} onChange={(e) => onChange(e.target.value)} className={compact ? 'min-h-10' : undefined} />
      );
    case 'select':
      return (
        <div className="relative">
          <select {...attributes} ref={ref} className={cn(selectClasses, !common.value && 'text-muted-foreground')} onChange={(e) => onChange(e.target.value)}>
            <option value="">{compact ? 'Choose' : 'Select an option'}</option>
            {field.options.map((o) => (
              <option key={o} value={o} className="text-foreground">
                {o}
              </option>
            ))}
          </select>
          <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        </div>
      );
    case 'number': {
      const input = (
        <Input
          {...attributes}
          ref={ref}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder={HINTS.number}
          onChange={(e) => onChange(numericOnly(e.target.value))}
          className={compact ? 'px-2 text-right tabular-nums' : adornment ? 'tabular-nums' : undefined}
          // Room for the symbol, however many characters the currency writes (CHF, R$, ₹).
          style={adornment ? { [adornment.side === 'start' ? 'paddingLeft' : 'paddingRight']: `calc(${adornment.text.length}ch + 1.1rem)` } : undefined}
          aria-describedby={adornment ? [common['aria-describedby'], `${common.id}-unit`].filter(Boolean).join(' ') : common['aria-describedby']}
        />
      );
      if (!adornment) return input;
      return (
        <div className="relative">
          {input}
          <span
            id={`${common.id}-unit`}
            data-testid="number-adornment"
            className={cn(
              'pointer-events-none absolute top-1/2 -translate-y-1/2 text-sm text-muted-foreground',
              adornment.side === 'start' ? (compact ? 'left-2' : 'left-3') : compact ? 'right-2' : 'right-3',
            )}
          >
            {adornment.text}
          </span>
        </div>
      );
    }
    case 'date':
      return (
        <Input
          {...attributes}
          ref={ref}
          type="date"
          className={cn(
            'block cursor-text [&::-webkit-calendar-picker-indicator]:cursor-pointer [&::-webkit-calendar-picker-indicator]:opacity-60',
            !common.value && 'text-muted-foreground',
            compact && 'px-2',
          )}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'checkbox':
      return (
        <input
          {...attributes}
          ref={ref}
          type="checkbox"
          value="true"
          checked={common.value === 'true'}
          onChange={(e) => onChange(e.target.checked ? 'true' : 'false')}
          className={checkboxClasses}
        />
      );
    default:
      return (
        <Input
          {...attributes}
          ref={ref}
          type={field.type === 'email' ? 'email' : field.type === 'tel' ? 'tel' : 'text'}
          autoComplete={field.type === 'email' ? 'email' : field.type === 'tel' ? 'tel' : 'off'}
          placeholder={HINTS[field.type]}
          onChange={(e) => onChange(e.target.value)}
          className={compact ? 'px-2' : undefined}
        />
      );
  }
}

/** One form control for one placeholder, chosen by its type, with its label, required mark and error. */
export function PlaceholderField({
  placeholder,
  index,
  control,
  disabled,
  content,
}: {
  placeholder: TPlaceholder;
  index: number;
  control: Control<TFormValues>;
  disabled?: boolean;
  /** The format's locale and currency, for a number's symbol. */
  content?: Pick<TFormatContent, 'locale' | 'currency'>;
}) {
  const name = fieldKey(index);
  const id = `field-${index}`;
  const label = placeholderLabel(placeholder);
  const wide = placeholder.type === 'textarea';
  const adornment = numberAdornment(placeholder, content);
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
          value: typeof field.value === 'string' ? field.value : '',
          onBlur: field.onBlur,
          disabled,
          'aria-invalid': fieldState.invalid || undefined,
          'aria-describedby': fieldState.error ? errorId : undefined,
          'aria-required': placeholder.required || undefined,
        } satisfies Partial<ComponentProps<'input'>>;
        const required = placeholder.required && (
          <>
            <span className="ml-0.5 text-destructive" aria-hidden>
              *
            </span>
            <span className="sr-only"> (required)</span>
          </>
        );
        const error = fieldState.error?.message && (
          <p id={errorId} className="text-[13px] text-destructive">
            {fieldState.error.message}
          </p>
        );
        if (placeholder.type === 'checkbox') {
          return (
            <div className="flex flex-col gap-2 sm:self-end" data-testid={`field-${placeholder.name}`}>
              <label
                htmlFor={id}
                className="flex min-h-10 cursor-pointer items-center gap-2.5 rounded-md border border-input bg-background px-3 py-2 text-sm font-medium shadow-xs"
              >
                <ValueControl field={placeholder} common={common} onChange={field.onChange} />
                <span>
                  {label}
                  {required}
                </span>
              </label>
              {error}
            </div>
          );
        }
        return (
          <div className={cn('flex flex-col gap-2', wide && 'sm:col-span-2')} data-testid={`field-${placeholder.name}`}>
            <Label htmlFor={id} className="gap-0">
              {label}
              {required}
            </Label>
            <ValueControl field={placeholder} common={common} onChange={field.onChange} adornment={adornment} />
            {error}
          </div>
        );
      }}
    />
  );
}
