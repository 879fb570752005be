import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowRightIcon, PencilIcon, PlusIcon, SlidersHorizontalIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { KNOWN_SETTINGS, ZSystemSettingInput, type TSystemSetting } from '../../../contract/admin';
import { MAX_DAILY_LIMIT, parseDailyLimit, SYSTEM_MAIL_DAILY_LIMIT_SETTING } from '../../../contract/mail';
import { ZPlanCatalogue, type TPlanCatalogue } from '../../../contract/plans';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { cn, formatNumber } from '../../lib/utils';
import { Field, FormDialogFooter, formatDay, NativeSelect } from './admin-ui';
import { useAdminSettings, useCreateSetting, useDeleteSetting, useUpdateSetting } from './api';
import { ADMIN_TWO_FACTOR_SETTING } from '../../../contract/two-factor';
import { AdminTwoFactorCard } from './admin-two-factor';
import { MailServerCard } from './mail-server-card';
import { PublicPagesCard } from './public-pages-card';
import { SignUpsCard } from './sign-ups-card';

type KnownKey = keyof typeof KNOWN_SETTINGS;
/** The plan catalogue is a setting underneath, but it is edited in its own form (the Plans tab). */
const CATALOGUE_KEY = 'plans.catalogue';
/** Switched on its own card (admin-two-factor.tsx), not typed in. */
type EditableKey = Exclude<KnownKey, typeof CATALOGUE_KEY | typeof ADMIN_TWO_FACTOR_SETTING>;
const EDITABLE_KEYS = (Object.keys(KNOWN_SETTINGS) as KnownKey[]).filter(
  (k): k is EditableKey => k !== CATALOGUE_KEY && k !== ADMIN_TWO_FACTOR_SETTING,
);
const CUSTOM = '__custom__';
/** Kept on several lines, as it is printed. */
const MULTILINE_KEYS: readonly string[] = ['billing.seller_address'];

function isEditable(key: string): key is EditableKey {
  return (EDITABLE_KEYS as string[]).includes(key);
}

function isJsonSetting(key: string, value: string): boolean {
  if (key === CATALOGUE_KEY) return true;
  const v = value.trim();
  return (v.startsWith('{') || v.startsWith('[')) && v.length > 1;
}

const VALUE_PLACEHOLDERS: Record<EditableKey, string> = {
  'esign.url': 'https://sign.example.com',
  'support.email': 'support@example.com',
  'sales.email': 'sales@example.com',
  'billing.seller_name': 'Formwork Labs Pvt Ltd',
  'billing.seller_address': '12 Market Street\nBengaluru 560001\nIndia',
  'billing.seller_tax_id': 'GSTIN 29ABCDE1234F1Z5, VAT or EIN',
  'mail.daily_limit': '500',
};

/**
 * Checks what the browser can check before the server does: the e-sign address must be a URL,
 * the support and sales addresses emails. Returns an error or null.
 */
function checkValue(key: string, value: string): string | null {
  if (key === 'esign.url' && value.trim() !== '') {
    try {
      const u = new URL(value.trim());
      if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'Enter an http or https address.';
    } catch {
      return 'Enter a full address, such as https://sign.example.com.';
    }
  }
  if ((key === 'support.email' || key === 'sales.email') && value.trim() !== '' && !z.email().safeParse(value.trim()).success) {
    return `Enter an email address, such as ${VALUE_PLACEHOLDERS[key]}.`;
  }
  if (key.startsWith('billing.seller_') && value.trim() === '') return 'Enter what invoices should print, or delete the setting.';
  if (key === SYSTEM_MAIL_DAILY_LIMIT_SETTING && parseDailyLimit(value) === null) {
    return `Enter a whole number of emails a day from 1 to ${formatNumber(MAX_DAILY_LIMIT)}, such as 500.`;
  }
  return null;
}

/** The catalogue a setting holds, or null when it does not parse (then its raw value is shown). */
function parsedCatalogue(value: string): TPlanCatalogue | null {
  try {
    return ZPlanCatalogue.parse(JSON.parse(value));
  } catch {
    return null;
  }
}

function ValuePreview({ setting }: { setting: TSystemSetting }) {
  const json = isJsonSetting(setting.key, setting.value);
  const plans = setting.key === CATALOGUE_KEY ? parsedCatalogue(setting.value) : null;
  if (plans) {
    return (
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge variant="secondary">Plans</Badge>
        <span className="text-sm text-muted-foreground">
          {plans.length} plans: {plans.map((p) => p.name).join(', ')}
        </span>
      </div>
    );
  }
  return (
    <p
      className={cn(
        'line-clamp-3 text-sm',
        json ? 'font-mono text-[13px] break-all' : 'break-words whitespace-pre-line text-foreground',
      )}
      title={setting.value.length > 300 ? `${setting.value.slice(0, 300)}…` : setting.value}
    >
      {setting.value === '' ? <span className="text-muted-foreground italic">(empty)</span> : setting.value}
    </p>
  );
}

type EditorState = { mode: 'create' } | { mode: 'edit'; setting: TSystemSetting } | null;

/** System settings; the plan catalogue among them opens in the Plans tab (`onOpenPlans`). */
export function SettingsTab({ onOpenPlans }: { onOpenPlans: () => void }) {
  const settings = useAdminSettings(true);
  const deleteSetting = useDeleteSetting();
  const [editor, setEditor] = useState<EditorState>(null);
  const [toDelete, setToDelete] = useState<TSystemSetting | null>(null);
  const list = (settings.data ?? []).filter((s) => s.key !== ADMIN_TWO_FACTOR_SETTING);

  function confirmDelete() {
    if (!toDelete) return;
    const key = toDelete.key;
    deleteSetting.mutate(key, {
      onSuccess: () => {
        toast({ title: 'Setting deleted', description: `${key} now uses its default.` });
        setToDelete(null);
      },
      onError: (err) => {
        setToDelete(null);
        if (isUnauthorizedError(err)) return;
        toast({ variant: 'destructive', title: 'Failed to delete setting', description: readApiError(err).message });
      },
    });
  }

  return (
    <div className="space-y-4">
      <AdminTwoFactorCard />
      <SignUpsCard />
      <MailServerCard />
      <PublicPagesCard />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="max-w-xl text-sm text-muted-foreground">
          Settings change how this installation behaves: the e-signature site, the support and sales addresses, the seller
          printed on invoices, and how many emails a day users may send through the mail server above. A key that is not set uses its
          built-in default. Plans and prices have their own{' '}
          <Button variant="link" className="h-auto p-0 text-sm" onClick={onOpenPlans}>
            Plans tab
          </Button>
          .
        </p>
        {list.length > 0 && (
          <Button onClick={() => setEditor({ mode: 'create' })} className="shrink-0">
            <PlusIcon aria-hidden /> Add setting
          </Button>
        )}
      </div>

      {settings.isLoading ? (
        <div className="space-y-3" aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : settings.error ? (
        <LoadError error={settings.error} fallback="Could not load settings." />
      ) : list.length === 0 ? (
        <EmptyStateCard
          icon={SlidersHorizontalIcon}
          title="No settings yet"
          description="Everything runs on the defaults. Add a setting to change the e-signature site, the support address or the seller on invoices."
          action={
            <Button onClick={() => setEditor({ mode: 'create' })}>
              <PlusIcon aria-hidden /> Add setting
            </Button>
          }
          className="py-14"
        />
      ) : (
        <Card className="overflow-hidden">
          <div className="hidden grid-cols-[minmax(0,220px)_minmax(0,1fr)_minmax(0,1fr)_96px] gap-4 border-b bg-muted/40 px-5 py-2.5 text-xs font-medium text-muted-foreground md:grid">
            <span>Key</span>
            <span>Value</span>
            <span>Description</span>
            <span className="text-right">
              <span className="sr-only">Actions</span>
            </span>
          </div>
          <ul className="divide-y" aria-label="System settings">
            {list.map((s) => (
              <li
                key={s.key}
                data-testid="setting-row"
                className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-4 gap-y-1.5 px-4 py-3.5 sm:px-5 md:grid-cols-[minmax(0,220px)_minmax(0,1fr)_minmax(0,1fr)_96px]"
              >
                <div className="min-w-0">
                  <p className="truncate font-mono text-[13px] font-medium text-foreground" title={s.key}>
                    {s.key}
                  </p>
                  <p className="mt-0.5 text-xs text-muted-foreground">Updated {formatDay(s.updatedAt)}</p>
                </div>
                <div className="col-start-1 row-start-2 min-w-0 md:col-start-auto md:row-start-auto">
                  <ValuePreview setting={s} />
                </div>
                <p className="col-start-1 row-start-3 text-sm text-muted-foreground md:col-start-auto md:row-start-auto">
                  {s.key === CATALOGUE_KEY ? (
                    <>
                      The plans and prices.{' '}
                      <Button variant="link" className="h-auto p-0 text-sm" onClick={onOpenPlans}>
                        Edit them in Plans
                      </Button>
                    </>
                  ) : (
                    s.description || (isEditable(s.key) ? KNOWN_SETTINGS[s.key] : <span className="italic">No description</span>)
                  )}
                </p>
                <div className="col-start-2 row-span-3 row-start-1 flex items-start justify-end gap-1 md:col-start-auto md:row-span-1 md:row-start-auto">
                  {s.key === CATALOGUE_KEY ? (
                    <Button variant="ghost" size="icon-sm" onClick={onOpenPlans} aria-label="Edit the plans in the Plans tab" title="Edit in the Plans tab">
                      <ArrowRightIcon aria-hidden />
                    </Button>
                  ) : (
                    <Button variant="ghost" size="icon-sm" onClick={() => setEditor({ mode: 'edit', setting: s })} aria-label={`Edit ${s.key}`}>
                      <PencilIcon aria-hidden />
                    </Button>
                  )}
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    className="text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
                    onClick={() => setToDelete(s)}
                    aria-label={`Delete ${s.key}`}
                  >
                    <Trash2Icon aria-hidden />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      )}

      <Dialog open={editor !== null} onOpenChange={(open) => !open && setEditor(null)}>
        {editor && (
          <SettingEditor
            key={editor.mode === 'edit' ? `edit:${editor.setting.key}` : 'create'}
            editor={editor}
            existingKeys={list.map((s) => s.key)}
            onDone={() => setEditor(null)}
          />
        )}
      </Dialog>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete this setting?"
        description={
          toDelete ? (
            <>
              <span className="font-mono text-foreground">{toDelete.key}</span> will be removed and the installation goes back to its
              default for it.
            </>
          ) : (
            ''
          )
        }
        confirmLabel="Delete setting"
        pendingLabel="Deleting..."
        pending={deleteSetting.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}

const ZEditorForm = z.object({
  choice: z.string(),
  key: z.string(),
  value: z.string().max(100_000, 'Keep the value under 100,000 characters.'),
  description: z.string().trim().max(500, 'Keep the description under 500 characters.'),
});
type TEditorForm = z.infer<typeof ZEditorForm>;

function SettingEditor({
  editor,
  existingKeys,
  onDone,
}: {
  editor: NonNullable<EditorState>;
  existingKeys: string[];
  onDone: () => void;
}) {
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
  const { register, handleSubmit, setValue, setError, control, formState } = form;
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

  const errors = formState.errors;
  const editable = isEditable(key);
  const multiline = MULTILINE_KEYS.includes(key);
  const valueDescribedBy = errors.value ? 'setting-value-error' : multiline ? 'setting-value-hint' : undefined;

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

        {!isEdit && (
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
        )}

        {!isEdit && choice === CUSTOM && (
          <Field id="setting-key" label="Key" error={errors.key?.message} hint="Lowercase letters, digits, dots, dashes and underscores.">
            <Input
              id="setting-key"
              className="font-mono"
              placeholder="feature.flag_name"
              autoComplete="off"
              aria-invalid={errors.key ? true : undefined}
              aria-describedby={errors.key ? 'setting-key-error' : 'setting-key-hint'}
              {...register('key')}
            />
          </Field>
        )}
        {!isEdit && choice !== CUSTOM && errors.key?.message && (
          <p className="text-[13px] text-destructive" role="alert">
            {errors.key.message}
          </p>
        )}

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
              {...register('value')}
            />
          ) : (
            <Input
              id="setting-value"
              autoComplete="off"
              aria-invalid={errors.value ? true : undefined}
              aria-describedby={valueDescribedBy}
              placeholder={editable ? VALUE_PLACEHOLDERS[key] : 'Value'}
              {...register('value')}
            />
          )}
        </Field>

        <Field id="setting-description" label="Description" optional error={errors.description?.message}>
          <Input id="setting-description" autoComplete="off" placeholder="What this setting controls" {...register('description')} />
        </Field>

        <FormDialogFooter
          error={formError}
          pending={pending}
          idle={isEdit ? 'Save changes' : 'Add setting'}
          busy="Saving..."
          onCancel={onDone}
        />
      </form>
    </DialogContent>
  );
}
