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
};

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
  const [name, setName] = useState(start.name);
  const [label, setLabel] = useState(start.label ?? '');
  const [type, setType] = useState<TPlaceholderType>(start.type);
  const [required, setRequired] = useState(start.required);
  const [options, setOptions] = useState(start.options.join('\n'));
  const [error, setError] = useState<string | null>(null);
  const normalized = normalizePlaceholderName(name);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = ZPlaceholderName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter a valid placeholder name.');
      return;
    }
    if (parsed.data !== existing?.name && taken.has(parsed.data)) {
      setError(`A placeholder named ${parsed.data} already exists.`);
      return;
    }
    const opts = options
      .split('\n')
      .map((o) => o.trim())
      .filter(Boolean);
    if (type === 'select' && opts.length === 0) {
      setError('Add at least one option, one per line.');
      return;
    }
    onSave(
      { name: parsed.data, ...(label.trim() ? { label: label.trim() } : {}), type, required, options: type === 'select' ? opts : [] },
      existing?.name ?? null,
    );
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
          value={name}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            setName(e.target.value);
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
        <Input id={`${id}-label`} value={label} placeholder={normalized ? defaultPlaceholderLabel(normalized) : ''} onChange={(e) => setLabel(e.target.value)} />
      </div>
      <div className="grid grid-cols-[1fr_auto] items-end gap-3">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-type`}>Type</Label>
          <NativeSelect id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as TPlaceholderType)}>
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
            checked={required}
            onChange={(e) => setRequired(e.target.checked)}
            className="size-4 cursor-pointer accent-[var(--color-primary)]"
          />
          Required
        </label>
      </div>
      {type === 'select' && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-options`}>Options, one per line</Label>
          <Textarea id={`${id}-options`} value={options} rows={4} onChange={(e) => setOptions(e.target.value)} />
        </div>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">{existing ? 'Save placeholder' : 'Create placeholder'}</Button>
      </DialogFooter>
    </form>
  );
}
