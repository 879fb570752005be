import { useEffect, useMemo, useReducer, useState } from 'react';
import { useLocation } from 'wouter';
import type { TFormat } from '../../../contract/formats';
import { toast } from '../../hooks/use-toast';
import { builderReducer, initialBuilderState } from './builder-reducer';
import { docFromImport, readImportedDraft, wantsImportedDraft, type TStoredImport } from './imported-draft';
import { DEFAULT_FORMAT_NAME, emptyDoc, snapshotOf, type BuilderDoc } from './model';

let pendingNewName: string | null = null;
/** The name the next blank builder starts with (set by New before it navigates to /builder). */
export function setPendingNewName(name: string): void {
  pendingNewName = name;
}
function takePendingNewName(): string {
  const n = pendingNewName;
  pendingNewName = null;
  return n ?? DEFAULT_FORMAT_NAME;
}

function docFromFormat(f: TFormat): BuilderDoc {
  return { name: f.name, description: f.description ?? '', content: f.content, placeholders: f.placeholders };
}

/** The format being edited, with its undo history, where it came from and whether it is saved. */
export function useBuilderDoc(initial: TFormat | null) {
  const [, navigate] = useLocation();
  // A draft handed over by Import Template or a starter template opens as a new, unsaved format.
  const [imported, setImported] = useState<TStoredImport | null>(() => (!initial && wantsImportedDraft() ? readImportedDraft() : null));
  const [initialDoc] = useState(() => (initial ? docFromFormat(initial) : imported ? docFromImport(imported) : emptyDoc(takePendingNewName())));
  const [state, dispatch] = useReducer(builderReducer, initialDoc, initialBuilderState);
  const doc = state.doc;
  const [savedId, setSavedId] = useState<string | null>(initial?.id ?? null);
  // Measured against an empty format, so an imported draft counts as unsaved changes from the start.
  const [savedSnapshot, setSavedSnapshot] = useState(() => snapshotOf(imported ? emptyDoc() : initialDoc));
  const dirty = useMemo(() => snapshotOf(doc) !== savedSnapshot, [doc, savedSnapshot]);

  // /builder?from=import without a stored draft (another tab, or storage cleared): a blank format.
  const draftMissing = !initial && !imported && wantsImportedDraft();
  useEffect(() => {
    if (!draftMissing) return;
    navigate('/builder', { replace: true });
    toast({ title: 'Import Not Found', description: 'The imported template is no longer here. Import the file again from the Dashboard.' });
  }, [draftMissing, navigate]);

  return { state, dispatch, doc, imported, setImported, savedId, setSavedId, setSavedSnapshot, dirty };
}
