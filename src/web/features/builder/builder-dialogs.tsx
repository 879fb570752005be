import type { TPlaceholder } from '../../../contract/placeholders';
import { ConfirmDialog, NewFormatDialog } from './dialogs';
import { PlaceholderDialog } from './placeholder-dialog';
import type { usePlaceholderActions } from './use-placeholder-actions';
import type { useStartOver } from './use-start-over';
import type { useUnsavedGuard } from './use-unsaved-guard';

export interface BuilderDialogsProps {
  confirmClear: boolean;
  onClear: () => void;
  onCancelClear: () => void;
  placeholderActions: ReturnType<typeof usePlaceholderActions>;
  known: ReadonlySet<string>;
  placeholders: readonly TPlaceholder[];
  dirty: boolean;
  newFormat: ReturnType<typeof useStartOver>;
  guard: ReturnType<typeof useUnsavedGuard>;
}

/** The builder's dialogs: clear content, a placeholder's details, new format, and leaving unsaved. */
export function BuilderDialogs({
  confirmClear,
  onClear,
  onCancelClear,
  placeholderActions,
  known,
  placeholders,
  dirty,
  newFormat,
  guard,
}: BuilderDialogsProps) {
  return (
    <>
      <ConfirmDialog
        open={confirmClear}
        title="Clear all content?"
        description="This removes every element and placeholder from the builder. The saved format is only changed when you save."
        confirmLabel="Clear content"
        destructive
        onConfirm={onClear}
        onCancel={onCancelClear}
      />
      <PlaceholderDialog
        draft={placeholderActions.placeholderDraft}
        taken={known}
        placeholders={placeholders}
        onSave={placeholderActions.savePlaceholder}
        onClose={() => placeholderActions.setPlaceholderDraft(null)}
      />
      <NewFormatDialog
        open={newFormat.newOpen}
        dirty={dirty}
        onCreate={newFormat.createNew}
        onChooseStarter={newFormat.createFromStarter}
        onCancel={() => newFormat.setNewOpen(false)}
      />
      <ConfirmDialog
        open={guard.pending}
        title="Leave without saving?"
        description="You have unsaved changes to this format. If you leave now, they will be lost."
        confirmLabel="Leave without saving"
        cancelLabel="Stay"
        destructive
        onConfirm={guard.proceed}
        onCancel={guard.cancel}
      />
    </>
  );
}
