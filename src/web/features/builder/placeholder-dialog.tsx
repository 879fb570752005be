import { useId, useRef } from 'react';
import { defaultPlaceholderLabel, normalizePlaceholderName, type TPlaceholder } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { formValuesOf, starterColumns } from './placeholder-form-values';
import { PlaceholderNameHint } from './placeholder-name-hint';
import { usePlaceholderForm } from './use-placeholder-form';
import { PlaceholderTypeFields } from './placeholder-type-fields';
/** What the dialog edits: an existing placeholder, or a new one with a suggested name and type. */
export type PlaceholderDraft = { editing: TPlaceholder } | { creating: Pick<TPlaceholder, 'name' | 'type' | 'display'> };

/**
 * One form for a placeholder's name, label, type, required flag and options: to create one from a
 * tag typed in the text, or to edit one (a new name is written into every tag that used the old).
 */
export function PlaceholderDialog({
  draft,
  taken,
  onSave,
  onClose,
  placeholders,
}: {
  draft: PlaceholderDraft | null;
  /** Names other placeholders already have. */
  taken: ReadonlySet<string>;
  onSave: (placeholder: TPlaceholder, previousName: string | null, columnRenames: Record<string, string>) => void;
  onClose: () => void;
  /** The format's placeholders, for a formula's check. */
  placeholders: readonly TPlaceholder[];
}) {
  // A renamed placeholder's row in the list is a new one, so the Edit button that opened the dialog
  // is gone when it closes: focus goes to the renamed row's button instead of the page.
  const renamedTo = useRef<string | null>(null);
  const save: typeof onSave = (placeholder, previousName, columnRenames) => {
    renamedTo.current = previousName !== null && previousName !== placeholder.name ? placeholder.name : null;
    onSave(placeholder, previousName, columnRenames);
  };
  const focusRenamed = (event: Event) => {
    const name = renamedTo.current;
    renamedTo.current = null;
    const button = name ? document.querySelector<HTMLElement>(`button[aria-label="Edit placeholder ${CSS.escape(name)}"]`) : null;
    if (!button) return;
    event.preventDefault();
    button.focus();
  };
  return (
    <Dialog open={draft !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[92dvh] max-w-lg overflow-y-auto" onCloseAutoFocus={focusRenamed}>
        {draft && (
          <PlaceholderForm
            key={'editing' in draft ? draft.editing.name : draft.creating.name}
            draft={draft}
            taken={taken}
            onSave={save}
            onClose={onClose}
            placeholders={placeholders}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function PlaceholderForm({
  draft,
  taken,
  onSave,
  onClose,
  placeholders,
}: {
  draft: PlaceholderDraft;
  taken: ReadonlySet<string>;
  onSave: (placeholder: TPlaceholder, previousName: string | null, columnRenames: Record<string, string>) => void;
  onClose: () => void;
  placeholders: readonly TPlaceholder[];
}) {
  const id = useId();
  const existing = 'editing' in draft ? draft.editing : null;
  const start: TPlaceholder = 'editing' in draft ? draft.editing : { ...draft.creating, required: false, options: [] };
  const { values, change, error, submit } = usePlaceholderForm(
    () => {
      const v = formValuesOf(start);
      return v.type === 'list' && v.columns.length === 0 ? { ...v, columns: starterColumns() } : v;
    },
    taken,
    existing?.name ?? null,
  );
  const normalized = normalizePlaceholderName(values.name);
  const save = submit((made) => onSave(made.placeholder, existing?.name ?? null, made.columnRenames));

  return (
    <form onSubmit={(event) => void save(event)} className="grid gap-4" data-own-undo aria-label={existing ? 'Edit placeholder' : 'New placeholder'}>
      <DialogHeader>
        <DialogTitle>{existing ? 'Edit placeholder' : 'New placeholder'}</DialogTitle>
        <DialogDescription>
          {existing ? 'A new name is written into every place the placeholder is used.' : 'It becomes a field on the form; its value goes wherever the tag is.'}
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
          onChange={(e) => change({ name: e.target.value })}
        />
        <PlaceholderNameHint id={`${id}-hint`} error={error} normalized={normalized} lead="Written as" />
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
      <PlaceholderTypeFields id={id} values={values} onChange={change} placeholders={placeholders} />
      {error && values.type !== 'text' && (
        <p className="text-sm text-destructive" role="alert">
          {error}
        </p>
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
