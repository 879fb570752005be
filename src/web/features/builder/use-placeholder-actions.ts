import { useState, type Dispatch } from 'react';
import { guessPlaceholder, type TPlaceholder } from '../../../contract/placeholders';
import { toast } from '../../hooks/use-toast';
import type { BuilderAction } from './builder-reducer';
import type { PlaceholderDraft } from './placeholder-dialog';

/** The builder's placeholder actions, and the draft the placeholder dialog is showing (null: closed). */
export function usePlaceholderActions(dispatch: Dispatch<BuilderAction>, insertAtCursor: (text: string) => boolean) {
  const [placeholderDraft, setPlaceholderDraft] = useState<PlaceholderDraft | null>(null);

  const addPlaceholder = (p: TPlaceholder) => dispatch({ type: 'add-placeholder', placeholder: p });
  const createFromTags = (names: readonly string[]) => {
    for (const name of names) dispatch({ type: 'add-placeholder', placeholder: { name, ...guessPlaceholder(name), required: false, options: [] } });
    toast({
      title: names.length === 1 ? 'Placeholder Created' : 'Placeholders Created',
      description: `${names.map((n) => `{{${n}}}`).join(', ')} ${names.length === 1 ? 'is' : 'are'} now on the form. Edit ${names.length === 1 ? 'it' : 'them'} under Placeholders.`,
    });
  };
  const savePlaceholder = (placeholder: TPlaceholder, previousName: string | null, columnRenames: Record<string, string> = {}) => {
    setPlaceholderDraft(null);
    if (previousName === null) {
      dispatch({ type: 'add-placeholder', placeholder });
      if (placeholderDraft && 'creating' in placeholderDraft && placeholderDraft.creating.name === '') insertAtCursor(`{{${placeholder.name}}}`);
      return;
    }
    dispatch({ type: 'update-placeholder', name: previousName, placeholder, columnRenames });
    if (previousName !== placeholder.name) {
      toast({ title: 'Placeholder Renamed', description: `{{${previousName}}} is now {{${placeholder.name}}} everywhere it is used.` });
    }
  };
  const insertPlaceholder = (name: string) => {
    if (!insertAtCursor(`{{${name}}}`)) {
      toast({ title: 'Choose where to insert', description: 'Click into a heading, paragraph, list item or table cell first, then insert the placeholder.' });
    }
  };
  const deletePlaceholder = (name: string) => {
    dispatch({ type: 'delete-placeholder', name });
    toast({ title: 'Placeholder Deleted', description: `{{${name}}} was removed. Tags using it will print empty.` });
  };

  return { placeholderDraft, setPlaceholderDraft, addPlaceholder, createFromTags, savePlaceholder, insertPlaceholder, deletePlaceholder };
}
