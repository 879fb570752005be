import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  canonicalLocale,
  DOCUMENT_LOCALE_HINT,
  DOCUMENT_LOCALE_SETTING,
  KNOWN_SETTINGS,
  ZSystemSettingInput,
  type TSystemSetting,
} from '../../../contract/admin';
import { MAX_DAILY_LIMIT, parseDailyLimit, SYSTEM_MAIL_DAILY_LIMIT_SETTING } from '../../../contract/mail';
import { ZPlanCatalogue, type TPlanCatalogue } from '../../../contract/plans';
import { DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { cn, formatNumber } from '../../lib/utils';
import { Field, FormDialogFooter, NativeSelect } from './admin-ui';
import { useCreateSetting, useUpdateSetting } from './api';
import { ADMIN_TWO_FACTOR_SETTING } from '../../../contract/two-factor';

type KnownKey = keyof typeof KNOWN_SETTINGS;
/** The plan catalogue is a setting underneath, but it is edited in its own form (the Plans tab). */
export const CATALOGUE_KEY = 'plans.catalogue';
/** Switched on its own card (admin-two-factor.tsx), not typed in. */
type EditableKey = Exclude<KnownKey, typeof CATALOGUE_KEY | typeof ADMIN_TWO_FACTOR_SETTING>;
const EDITABLE_KEYS = (Object.keys(KNOWN_SETTINGS) as KnownKey[]).filter((k): k is EditableKey => k !== CATALOGUE_KEY && k !== ADMIN_TWO_FACTOR_SETTING);
const CUSTOM = '__custom__';
/** Kept on several lines, as it is printed. */
const MULTILINE_KEYS: readonly string[] = ['billing.seller_address'];

export function isEditable(key: string): key is EditableKey {
  return (EDITABLE_KEYS as string[]).includes(key);
}

export function isJsonSetting(key: string, value: string): boolean {
  if (key === CATALOGUE_KEY) return true;
  const v = value.trim();
  return (v.startsWith('{') || v.startsWith('[')) && v.length > 1;
}

const VALUE_PLACEHOLDERS: Record<EditableKey, string> = {
  'support.email': 'support@example.com',
  'sales.email': 'sales@example.com',
  'billing.seller_name': 'Formwork Labs Pvt Ltd',
  'billing.seller_address': '12 Market Street\nBengaluru 560001\nIndia',
  'billing.seller_tax_id': 'GSTIN 29ABCDE1234F1Z5, VAT or EIN',
  'documents.locale': 'en-GB',
  'mail.daily_limit': '500',
};

/**
 * Checks what the browser can check before the server does: the support and sales addresses must
 * be emails, the document language a language tag, the daily limit a whole number. Returns an
 * error or null.
 */
function checkValue(key: string, value: string): string | null {
  if ((key === 'support.email' || key === 'sales.email') && value.trim() !== '' && !z.email().safeParse(value.trim()).success) {
    return `Enter an email address, such as ${VALUE_PLACEHOLDERS[key]}.`;
  }
  if (key === DOCUMENT_LOCALE_SETTING && !canonicalLocale(value)) return DOCUMENT_LOCALE_HINT;
  if (key.startsWith('billing.seller_') && value.trim() === '') return 'Enter what invoices should print, or delete the setting.';
  if (key === SYSTEM_MAIL_DAILY_LIMIT_SETTING && parseDailyLimit(value) === null) {
    return `Enter a whole number of emails a day from 1 to ${formatNumber(MAX_DAILY_LIMIT)}, such as 500.`;
  }
  return null;
}

/** The catalogue a setting holds, or null when it does not parse (then its raw value is shown). */
export function parsedCatalogue(value: string): TPlanCatalogue | null {
  try {
    return ZPlanCatalogue.parse(JSON.parse(value));
  } catch {
    return null;
  }
}

export type EditorState = { mode: 'create' } | { mode: 'edit'; setting: TSystemSetting } | null;

const ZEditorForm = z.object({
  choice: z.string(),
  key: z.string(),
  value: z.string().max(100_000, 'Keep the value under 100,000 characters.'),
  description: z.string().trim().max(500, 'Keep the description under 500 characters.'),
});
type TEditorForm = z.infer<typeof ZEditorForm>;

type SettingEditorProps = {
  editor: NonNullable<EditorState>;
  existingKeys: string[];
  onDone: () => void;
};

/** The setting form's state: which key is chosen, and saving it after the checks the browser can make. */
function useSettingForm({ editor, existingKeys, onDone }: SettingEditorProps) {
  const create = useCreateSetting();
  const update = useUpdateSetting();
  const pending = create.isPending || update.isPending;
  const isEdit = editor.mode === 'edit';
  const unusedKnown = EDITABLE_KEYS.filter((k) => !existingKeys.includes(k));
  const firstChoice = unusedKnown[0] ?? CUSTOM;

  const form = useForm<TEditorForm>({
    resolver: zodResolver(ZEditorForm),
    defaultValues: isEdit
      ? { choice: editor.setting.key, key: editor.setting.key, value: editor.setting.value, description: editor.setting.description ?? '' }
      : {
          choice: firstChoice,
          key: firstChoice === CUSTOM ? '' : firstChoice,
          value: '',
          description: firstChoice === CUSTOM ? '' : KNOWN_SETTINGS[firstChoice],
        },
  });
  const { handleSubmit, setValue, setError, control } = form;
  const [choice, customKey, value] = useWatch({ control, name: ['choice', 'key', 'value'] });
  const key = isEdit ? editor.setting.key : choice === CUSTOM ? customKey.trim() : choice;
  const mono = isJsonSetting(key, value);
  const [formError, setFormError] = useState<string | null>(null);

  function onChoice(next: string) {
    setValue('choice', next);
    setFormError(null);
    form.clearErrors();
    if (next === CUSTOM) {
      setValue('key', '');
      setValue('description', '');
      setValue('value', '');
      return;
    }
    setValue('key', next);
    if (isEditable(next)) setValue('description', KNOWN_SETTINGS[next]);
    setValue('value', '');
  }

  const onSubmit = handleSubmit((data) => {
    setFormError(null);
    const finalKey = isEdit ? editor.setting.key : data.choice === CUSTOM ? data.key.trim() : data.choice;
    if (!isEdit) {
      const parsedKey = ZSystemSettingInput.shape.key.safeParse(finalKey);
      if (!parsedKey.success) {
        setError('key', { message: parsedKey.error.issues[0]?.message ?? 'Check the key.' });
        return;
      }
      if (finalKey === CATALOGUE_KEY) {
        setError('key', { message: 'The plan catalogue is edited in the Plans tab.' });
        return;
      }
      if (existingKeys.includes(finalKey)) {
        setError('key', { message: 'This key is already set. Edit it in the list instead.' });
        return;
      }
    }
    const valueError = checkValue(finalKey, data.value);
    if (valueError) {
      setError('value', { message: valueError });
      return;
    }
    const description = data.description.trim() === '' ? null : data.description.trim();
    const payload = { key: finalKey, value: data.value, description };
    const onError = (err: Error) => {
      if (isUnauthorizedError(err)) return;
      const read = readApiError(err, 'Please try again.');
      let placed = false;
      for (const [field, message] of Object.entries(read.fields)) {
        if (field === 'value' || field === 'key' || field === 'description') {
          setError(field, { message });
          placed = true;
        }
      }
      if (!placed) setFormError(read.message);
      toast({
        variant: 'destructive',
        title: isEdit ? 'Failed to update setting' : 'Failed to create setting',
        description: read.message,
      });
    };
    if (isEdit) {
      update.mutate(payload, {
        onSuccess: () => {
          toast({ title: 'Setting updated successfully', description: `${finalKey} is saved.` });
          onDone();
        },
        onError,
      });
    } else {
      create.mutate(payload, {
        onSuccess: () => {
          toast({ title: 'Setting created successfully', description: `${finalKey} is saved.` });
          onDone();
        },
        onError,
      });
    }
  });

  return { form, isEdit, pending, choice, key, mono, formError, onChoice, onSubmit };
}

type SettingForm = ReturnType<typeof useSettingForm>;

/** A new setting's key: one the product reads, or a custom one. */
function SettingKeyFields({ setting, existingKeys }: { setting: SettingForm; existingKeys: string[] }) {
  const { form, choice, key, onChoice } = setting;
  const errors = form.formState.errors;
  const editable = isEditable(key);
  return (
    <>
      <Field
        id="setting-choice"
        label="Setting"
        hint={editable ? KNOWN_SETTINGS[key] : 'A key nothing in the product reads yet; useful for your own integrations.'}
      >
        <NativeSelect id="setting-choice" value={choice} onChange={(e) => onChoice(e.target.value)} aria-describedby="setting-choice-hint">
          {EDITABLE_KEYS.map((k) => (
            <option key={k} value={k} disabled={existingKeys.includes(k)}>
              {k}
              {existingKeys.includes(k) ? ' (already set)' : ''}
            </option>
          ))}
          <option value={CUSTOM}>Custom key…</option>
        </NativeSelect>
      </Field>

      {choice === CUSTOM && (
        <Field id="setting-key" label="Key" error={errors.key?.message} hint="Lowercase letters, digits, dots, dashes and underscores.">
          <Input
            id="setting-key"
            className="font-mono"
            placeholder="feature.flag_name"
            autoComplete="off"
            aria-invalid={errors.key ? true : undefined}
            aria-describedby={errors.key ? 'setting-key-error' : 'setting-key-hint'}
            {...form.register('key')}
          />
        </Field>
      )}
      {choice !== CUSTOM && errors.key?.message && (
        <p className="text-[13px] text-destructive" role="alert">
          {errors.key.message}
        </p>
      )}
    </>
  );
}

/** The value: one line, a printed address on several, or JSON in a monospaced box. */
function SettingValueField({ setting }: { setting: SettingForm }) {
  const { form, key, mono } = setting;
  const errors = form.formState.errors;
  const editable = isEditable(key);
  const multiline = MULTILINE_KEYS.includes(key);
  const valueDescribedBy = errors.value ? 'setting-value-error' : multiline ? 'setting-value-hint' : undefined;
  return (
    <Field
      id="setting-value"
      label="Value"
      error={errors.value?.message}
      hint={multiline ? 'One line per line of the address, as it should print.' : undefined}
    >
      {mono || multiline ? (
        <Textarea
          id="setting-value"
          spellCheck={!mono}
          rows={multiline ? 4 : undefined}
          className={cn(mono ? 'min-h-28 font-mono text-[12.5px] leading-relaxed' : 'min-h-24 leading-relaxed')}
          aria-invalid={errors.value ? true : undefined}
          aria-describedby={valueDescribedBy}
          placeholder={editable ? VALUE_PLACEHOLDERS[key] : undefined}
          {...form.register('value')}
        />
      ) : (
        <Input
          id="setting-value"
          autoComplete="off"
          aria-invalid={errors.value ? true : undefined}
          aria-describedby={valueDescribedBy}
          placeholder={editable ? VALUE_PLACEHOLDERS[key] : 'Value'}
          {...form.register('value')}
        />
      )}
    </Field>
  );
}

export function SettingEditor(props: SettingEditorProps) {
  const { editor, existingKeys, onDone } = props;
  const setting = useSettingForm(props);
  const { form, pending, formError, onSubmit } = setting;
  const isEdit = editor.mode === 'edit';
  const errors = form.formState.errors;

  return (
    <DialogContent className="max-w-lg">
      <form onSubmit={onSubmit} className="grid min-w-0 gap-5" aria-label={isEdit ? 'Edit setting' : 'Add setting'} noValidate>
        <DialogHeader>
          <DialogTitle>{isEdit ? 'Edit setting' : 'Add setting'}</DialogTitle>
          <DialogDescription>
            {isEdit ? (
              <>
                Change the value of <span className="font-mono text-foreground">{editor.setting.key}</span>.
              </>
            ) : (
              'Pick a setting the product reads, or store a custom key. Plans and prices are edited in the Plans tab.'
            )}
          </DialogDescription>
        </DialogHeader>

        {!isEdit && <SettingKeyFields setting={setting} existingKeys={existingKeys} />}

        <SettingValueField setting={setting} />

        <Field id="setting-description" label="Description" optional error={errors.description?.message}>
          <Input id="setting-description" autoComplete="off" placeholder="What this setting controls" {...form.register('description')} />
        </Field>

        <FormDialogFooter error={formError} pending={pending} idle={isEdit ? 'Save changes' : 'Add setting'} busy="Saving..." onCancel={onDone} />
      </form>
    </DialogContent>
  );
}
