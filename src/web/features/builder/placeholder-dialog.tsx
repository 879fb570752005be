import { useId, useState, type FormEvent } from 'react';
import {
  defaultPlaceholderLabel,
  normalizePlaceholderName,
  PLACEHOLDER_TYPES,
  ZPlaceholderName,
  type TPlaceholder,
  type TPlaceholderType,
} from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { cn } from '../../lib/utils';
import { NativeSelect } from './controls';

export const PLACEHOLDER_TYPE_LABELS: Record<TPlaceholderType, string> = {
  text: 'Text',
  email: 'Email',
  number: 'Number',
  date: 'Date',
  tel: 'Phone',
  textarea: 'Long text',
  select: 'Choice (drop-down)',
  checkbox: 'Checkbox (yes or no)',
  list: 'List of rows',
  formula: 'Formula (computed)',
};

export interface PlaceholderFormValues {
  name: string;
  label: string;
  type: TPlaceholderType;
  required: boolean;
  /** One option per line. */
  options: string;
}

/**
 * The placeholder a form describes, or what is wrong with it. `keep` is the name the placeholder
 * being edited has now, which it may of course keep.
 */
export function placeholderFromForm(
  values: PlaceholderFormValues,
  taken: ReadonlySet<string>,
  keep: string | null = null,
): { placeholder: TPlaceholder } | { error: string } {
  const parsed = ZPlaceholderName.safeParse(values.name);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Enter a valid placeholder name.' };
  if (parsed.data !== keep && taken.has(parsed.data)) return { error: `A placeholder named ${parsed.data} already exists.` };
  const options = values.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
  if (values.type === 'select' && options.length === 0) return { error: 'Add at least one option, one per line.' };
  const label = values.label.trim();
  return {
    placeholder: { name: parsed.data, ...(label ? { label } : {}), type: values.type, required: values.required, options: values.type === 'select' ? options : [] },
  };
}

/** Type, Required and, for a choice, its options: the part of a placeholder's form after its name and label. */
export function PlaceholderTypeFields({
  id,
  values,
  onChange,
  compact,
}: {
  id: string;
  values: Pick<PlaceholderFormValues, 'type' | 'required' | 'options'>;
  onChange: (next: Partial<PlaceholderFormValues>) => void;
  compact?: boolean;
}) {
  return (
    <>
      <div className={cn('grid grid-cols-[1fr_auto] items-end', compact ? 'gap-2' : 'gap-3')}>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-type`}>Type</Label>
          <NativeSelect id={`${id}-type`} value={values.type} onChange={(e) => onChange({ type: e.target.value as TPlaceholderType })}>
            {PLACEHOLDER_TYPES.map((t) => (
              <option key={t} value={t}>
                {PLACEHOLDER_TYPE_LABELS[t]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <label htmlFor={`${id}-required`} className="flex h-9 cursor-pointer items-center gap-2 text-sm font-medium">
          <input
            id={`${id}-required`}
            type="checkbox"
            checked={values.required}
            onChange={(e) => onChange({ required: e.target.checked })}
            className="size-4 cursor-pointer accent-[var(--color-primary)]"
          />
          Required
        </label>
      </div>
      {values.type === 'select' && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-options`}>Options, one per line</Label>
          <Textarea
            id={`${id}-options`}
            value={values.options}
            rows={4}
            placeholder={'Full-time\nPart-time'}
            onChange={(e) => onChange({ options: e.target.value })}
            className={compact ? 'min-h-20' : undefined}
          />
        </div>
      )}
    </>
  );
}

/** What the dialog edits: an existing placeholder, or a new one with a suggested name and type. */
export type PlaceholderDraft = { editing: TPlaceholder } | { creating: Pick<TPlaceholder, 'name' | 'type'> };

/**
 * One form for a placeholder's name, label, type, required flag and options: to create one from a
 * tag typed in the text, or to edit one (a new name is written into every tag that used the old).
 */
export function PlaceholderDialog({
  draft,
  taken,
  onSave,
  onClose,
}: {
  draft: PlaceholderDraft | null;
  /** Names other placeholders already have. */
  taken: ReadonlySet<string>;
  onSave: (placeholder: TPlaceholder, previousName: string | null) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={draft !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        {draft && <PlaceholderForm key={'editing' in draft ? draft.editing.name : draft.creating.name} draft={draft} taken={taken} onSave={onSave} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function PlaceholderForm({
  draft,
  taken,
  onSave,
  onClose,
}: {
  draft: PlaceholderDraft;
  taken: ReadonlySet<string>;
  onSave: (placeholder: TPlaceholder, previousName: string | null) => void;
  onClose: () => void;
}) {
  const id = useId();
  const existing = 'editing' in draft ? draft.editing : null;
  const start: TPlaceholder = 'editing' in draft ? draft.editing : { ...draft.creating, required: false, options: [] };
  const [values, setValues] = useState<PlaceholderFormValues>({
    name: start.name,
    label: start.label ?? '',
    type: start.type,
    required: start.required,
    options: start.options.join('\n'),
  });
  const [error, setError] = useState<string | null>(null);
  const change = (next: Partial<PlaceholderFormValues>) => setValues((v) => ({ ...v, ...next }));
  const normalized = normalizePlaceholderName(values.name);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = placeholderFromForm(values, taken, existing?.name ?? null);
    if ('error' in result) setError(result.error);
    else onSave(result.placeholder, existing?.name ?? null);
  };

  return (
    <form onSubmit={submit} className="grid gap-4" data-own-undo aria-label={existing ? 'Edit placeholder' : 'New placeholder'}>
      <DialogHeader>
        <DialogTitle>{existing ? 'Edit placeholder' : 'New placeholder'}</DialogTitle>
        <DialogDescription>
          {existing
            ? 'A new name is written into every place the placeholder is used.'
            : 'It becomes a field on the form; its value goes wherever the tag is.'}
        </DialogDescription>
      </DialogHeader>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input
          id={`${id}-name`}
          value={values.name}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            change({ name: e.target.value });
            setError(null);
          }}
        />
        <p id={`${id}-hint`} className={cn('text-xs', error ? 'text-destructive' : 'text-muted-foreground')} role={error ? 'alert' : undefined}>
          {error ?? (normalized ? <>Written as <code className="font-mono text-foreground">{`{{${normalized}}}`}</code></> : 'Lowercase; spaces become underscores.')}
        </p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-label`}>
          Label on the form <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id={`${id}-label`}
          value={values.label}
          placeholder={normalized ? defaultPlaceholderLabel(normalized) : ''}
          onChange={(e) => change({ label: e.target.value })}
        />
      </div>
      <PlaceholderTypeFields id={id} values={values} onChange={change} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">{existing ? 'Save placeholder' : 'Create placeholder'}</Button>
      </DialogFooter>
    </form>
  );
}
