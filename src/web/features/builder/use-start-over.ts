import { useState, type Dispatch } from 'react';
import { useLocation } from 'wouter';
import type { TFormat } from '../../../contract/formats';
import type { TStarterFormat } from '../../../contract/starter-formats';
import type { BuilderAction } from './builder-reducer';
import type { BuilderView } from './builder-toolbar';
import { docFromImport, wantsImportedDraft, type TStoredImport } from './imported-draft';
import { clearImportedDraft, IMPORTED_DRAFT_HREF, storeImportedDraft } from './imported-draft-store';
import { emptyDoc, snapshotOf, type BuilderDoc } from './model';
import { starterDraft } from './starter-gallery';
import { setPendingNewName } from './use-builder-doc';

export interface StartOverOptions {
  initial: TFormat | null;
  savedId: string | null;
  imported: TStoredImport | null;
  setImported: (stored: TStoredImport | null) => void;
  setSavedSnapshot: (snapshot: string) => void;
  dispatch: Dispatch<BuilderAction>;
  edit: (id: string | null) => void;
  setView: (view: BuilderView) => void;
  /** Runs a navigation without the unsaved-changes prompt. */
  bypass: (fn: () => void) => void;
}

/** New format: a blank one or a starter, in this builder or (leaving a saved format) a new one. */
export function useStartOver(o: StartOverOptions) {
  const [, navigate] = useLocation();
  const [newOpen, setNewOpen] = useState(false);

  const startOver = (fresh: BuilderDoc, origin: TStoredImport | null) => {
    setNewOpen(false);
    if (o.initial || o.savedId) {
      // Leaving a saved format: a new address, and a new builder.
      if (origin) storeImportedDraft(origin.fileName, { draft: origin.draft, warnings: [] }, origin.origin);
      else setPendingNewName(fresh.name);
      o.bypass(() => navigate(origin ? IMPORTED_DRAFT_HREF : '/builder'));
      return;
    }
    if (o.imported) clearImportedDraft();
    o.setImported(origin);
    if (wantsImportedDraft()) navigate('/builder', { replace: true });
    o.dispatch({ type: 'load', doc: fresh });
    o.setSavedSnapshot(snapshotOf(origin ? emptyDoc() : fresh));
    o.edit(null);
    o.setView('canvas');
  };
  const createNew = (name: string) => startOver(emptyDoc(name), null);
  const createFromStarter = (starter: TStarterFormat) => {
    const draft = starterDraft(starter);
    startOver(docFromImport({ draft, warnings: [], fileName: starter.name, origin: 'starter' }), {
      draft,
      warnings: [],
      fileName: starter.name,
      origin: 'starter',
    });
  };

  return { newOpen, setNewOpen, createNew, createFromStarter };
}
