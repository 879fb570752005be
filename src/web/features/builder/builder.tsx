import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { TElementType } from '../../../contract/format-content';
import type { TFormat } from '../../../contract/formats';
import { guessPlaceholderType } from '../../../contract/placeholders';
import type { TStarterFormat } from '../../../contract/starter-formats';
import { UPGRADE_HREF } from '../../components/plan/upgrade';
import { LivePdfPane } from '../../components/ui/live-pdf-pane';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useMediaQuery } from '../../hooks/use-media-query';
import { toast } from '../../hooks/use-toast';
import { cn } from '../../lib/utils';
import { useLivePreview } from './api';
import { BuilderCanvasPanel, PlanNotices } from './builder-canvas-panel';
import { builderReducer, initialBuilderState } from './builder-reducer';
import { BuilderToolbar, type BuilderView } from './builder-toolbar';
import { BuilderToolsPanel } from './builder-tools-panel';
import { ConfirmDialog, NewFormatDialog } from './dialogs';
import { ImportNotice } from './import-notice';
import {
  clearImportedDraft,
  docFromImport,
  draftOf,
  IMPORTED_DRAFT_HREF,
  readImportedDraft,
  storeImportedDraft,
  wantsImportedDraft,
  type TStoredImport,
} from './imported-draft';
import { InsertTargetProvider, useInsertTarget } from './insert-target';
import { createElement, DEFAULT_FORMAT_NAME, emptyDoc, findElement, newElementId, placeholderUsage, snapshotOf, type BuilderDoc } from './model';
import { NewTagsBar } from './new-tags-bar';
import { PlaceholderDialog } from './placeholder-dialog';
import { starterDraft } from './starter-gallery';
import { useBuilderSave } from './use-builder-save';
import { useBuilderShortcuts } from './use-builder-shortcuts';
import { useElementActions } from './use-element-actions';
import { usePlaceholderActions } from './use-placeholder-actions';
import { useUnsavedGuard } from './use-unsaved-guard';

/** From this width the live preview sits beside the canvas (the app's sidebar folds away to make room). */
const SIDE_BY_SIDE_QUERY = '(min-width: 80rem)';

let pendingNewName: string | null = null;
/** The name the next blank builder starts with (set by New before it navigates to /builder). */
function takePendingNewName(): string {
  const n = pendingNewName;
  pendingNewName = null;
  return n ?? DEFAULT_FORMAT_NAME;
}

function docFromFormat(f: TFormat): BuilderDoc {
  return { name: f.name, description: f.description ?? '', content: f.content, placeholders: f.placeholders };
}

export interface BuilderProps {
  initial: TFormat | null;
  /** After the first save of a new format: its id, so the page can move to its address. */
  onCreated?: (id: string) => void;
}

export function Builder(props: BuilderProps) {
  return (
    <InsertTargetProvider>
      <BuilderInner {...props} />
    </InsertTargetProvider>
  );
}

function saveStatus(saving: boolean, savedId: string | null, dirty: boolean, imported: boolean): string {
  if (saving) return 'Saving...';
  if (!savedId) return dirty ? (imported ? 'Unsaved changes' : 'Not saved yet') : 'New format';
  return dirty ? 'Unsaved changes' : 'All changes saved';
}

function BuilderInner({ initial, onCreated }: BuilderProps) {
  const [, navigate] = useLocation();
  // A draft handed over by Import Template or a starter template opens as a new, unsaved format.
  const [imported, setImported] = useState<TStoredImport | null>(() => (!initial && wantsImportedDraft() ? readImportedDraft() : null));
  const [initialDoc] = useState(() => (initial ? docFromFormat(initial) : imported ? docFromImport(imported) : emptyDoc(takePendingNewName())));
  const [state, dispatch] = useReducer(builderReducer, initialDoc, initialBuilderState);
  const doc = state.doc;
  const [savedId, setSavedId] = useState<string | null>(initial?.id ?? null);
  // Measured against an empty format, so an imported draft counts as unsaved changes from the start.
  const [savedSnapshot, setSavedSnapshot] = useState(() => snapshotOf(imported ? emptyDoc() : initialDoc));
  const [editingId, setEditingId] = useState<string | null>(null);
  const [view, setViewState] = useState<BuilderView>('canvas');
  const topRef = useRef<HTMLDivElement>(null);
  const setView = useCallback((v: BuilderView) => {
    setViewState(v);
    // The builder starts at the top of the page; a switched view starts there too.
    if ((topRef.current?.getBoundingClientRect().top ?? 0) < 0) window.scrollTo({ top: 0, behavior: 'instant' });
  }, []);
  const [confirmClear, setConfirmClear] = useState(false);
  const [newOpen, setNewOpen] = useState(false);
  const [addMenuOpen, setAddMenuOpen] = useState(false);
  const [nameError, setNameError] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const insertTarget = useInsertTarget();
  const wide = useMediaQuery(SIDE_BY_SIDE_QUERY);

  const dirty = useMemo(() => snapshotOf(doc) !== savedSnapshot, [doc, savedSnapshot]);
  const guard = useUnsavedGuard(dirty);
  useDocumentTitle(`${doc.name.trim() || DEFAULT_FORMAT_NAME} · Format Builder`);

  // /builder?from=import without a stored draft (another tab, or storage cleared): a blank format.
  const draftMissing = !initial && !imported && wantsImportedDraft();
  useEffect(() => {
    if (!draftMissing) return;
    navigate('/builder', { replace: true });
    toast({ title: 'Import Not Found', description: 'The imported template is no longer here. Import the file again from the Dashboard.' });
  }, [draftMissing, navigate]);

  const elements = doc.content.elements;
  const usage = useMemo(() => placeholderUsage(doc.content, doc.placeholders), [doc.content, doc.placeholders]);
  const known = useMemo(() => new Set(doc.placeholders.map((p) => p.name)), [doc.placeholders]);
  const preview = useLivePreview(doc, wide || view === 'preview');

  const actions = useElementActions({ elements, editingId, setEditingId, clearInsertTarget: insertTarget.clear, dispatch });
  const { edit } = actions;
  const addElement = (type: TElementType) => {
    actions.insertElement(createElement(type, newElementId(actions.latest.current.elements)));
    setView('canvas');
  };
  const placeholders = usePlaceholderActions(dispatch, insertTarget.insert);

  const editing = editingId ? findElement(elements, editingId)?.element : undefined;
  const styleTarget = editing && editing.type !== 'image' ? editing : undefined;

  const { save, saving } = useBuilderSave({
    doc,
    savedId,
    imported,
    nameRef,
    setNameError,
    setSavedId,
    setSavedSnapshot,
    setImported,
    bypass: guard.bypass,
    onCreated,
  });
  const undo = () => dispatch({ type: 'undo' });
  const redo = () => dispatch({ type: 'redo' });
  useBuilderShortcuts({ save, undo, redo, openAddMenu: () => setAddMenuOpen(true) });

  const openPreview = () => {
    // A saved format without changes opens its stored preview; otherwise the live one shows what is on screen.
    if (savedId && !dirty) {
      window.open(`/api/formats/${encodeURIComponent(savedId)}/preview`, '_blank', 'noopener');
      return;
    }
    if (!wide) {
      setView('preview');
      return;
    }
    if (preview.status !== 'idle' && preview.url) window.open(preview.url, '_blank', 'noopener');
    else toast({ title: 'Nothing to Preview Yet', description: 'Add an element and its preview appears beside the canvas.' });
  };

  const clear = () => {
    setConfirmClear(false);
    dispatch({ type: 'clear' });
    edit(null);
    toast({ title: 'Content Cleared', description: 'All elements and placeholders were removed. Undo (Ctrl+Z) brings them back.' });
  };

  const startOver = (fresh: BuilderDoc, origin: TStoredImport | null) => {
    setNewOpen(false);
    if (initial || savedId) {
      // Leaving a saved format: a new address, and a new builder.
      if (origin) storeImportedDraft(origin.fileName, { draft: origin.draft, warnings: [] }, origin.origin);
      else pendingNewName = fresh.name;
      guard.bypass(() => navigate(origin ? IMPORTED_DRAFT_HREF : '/builder'));
      return;
    }
    if (imported) clearImportedDraft();
    setImported(origin);
    if (wantsImportedDraft()) navigate('/builder', { replace: true });
    dispatch({ type: 'load', doc: fresh });
    setSavedSnapshot(snapshotOf(origin ? emptyDoc() : fresh));
    edit(null);
    setView('canvas');
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

  const keepDraftAndUpgrade = () => {
    // The work so far goes with the user, and comes back after the upgrade.
    if (dirty) {
      const kept: TStoredImport = { draft: draftOf(doc), warnings: [], fileName: doc.name, origin: 'kept' };
      storeImportedDraft(kept.fileName, kept, 'kept');
    }
    guard.bypass(() => navigate(UPGRADE_HREF));
  };

  return (
    <div className="pb-10" data-testid="format-builder" ref={topRef}>
      <BuilderToolbar
        name={doc.name}
        nameRef={nameRef}
        nameError={nameError}
        onRename={(name) => {
          setNameError(false);
          dispatch({ type: 'rename', name });
        }}
        onBack={() => navigate('/')}
        status={saveStatus(saving, savedId, dirty, !!imported)}
        dirty={dirty}
        savedId={savedId}
        saving={saving}
        addMenuOpen={addMenuOpen}
        onAddMenuOpenChange={setAddMenuOpen}
        onAdd={addElement}
        placeholders={doc.placeholders}
        onInsertPlaceholder={placeholders.insertPlaceholder}
        onNewPlaceholder={() => placeholders.setPlaceholderDraft({ creating: { name: '', type: 'text' } })}
        canUndo={state.past.length > 0}
        canRedo={state.future.length > 0}
        onUndo={undo}
        onRedo={redo}
        onNew={() => setNewOpen(true)}
        onClear={() => setConfirmClear(true)}
        onPreview={openPreview}
        onSave={save}
        view={view}
        onViewChange={setView}
      />

      <div className="mt-2 grid items-start gap-5 lg:grid-cols-[272px_minmax(0,1fr)] xl:grid-cols-[240px_minmax(0,1fr)_minmax(340px,36%)]">
        <BuilderToolsPanel
          doc={doc}
          visible={view === 'tools'}
          styleTarget={styleTarget}
          usage={usage}
          dispatch={dispatch}
          onAdd={addElement}
          onAddPlaceholder={placeholders.addPlaceholder}
          onEditPlaceholder={(p) => placeholders.setPlaceholderDraft({ editing: p })}
          onDeletePlaceholder={placeholders.deletePlaceholder}
        />

        <BuilderCanvasPanel
          view={view}
          onAdd={addElement}
          onShowTools={() => setView('tools')}
          notices={
            <>
              <PlanNotices
                isNew={!savedId}
                readOnly={!!initial?.readOnly && savedId === initial.id}
                onUpgrade={keepDraftAndUpgrade}
                onSeePlans={() => guard.bypass(() => navigate(UPGRADE_HREF))}
              />
              {imported && !savedId && <ImportNotice stored={imported} placeholderCount={doc.placeholders.length} />}
              <NewTagsBar
                tags={usage.unknownTags}
                onCreate={placeholders.createFromTags}
                onDetails={(name) => placeholders.setPlaceholderDraft({ creating: { name, type: guessPlaceholderType(name) } })}
              />
            </>
          }
          canvas={{ elements, docStyle: doc.content.style, known, placeholders: doc.placeholders, editingId, ...actions.canvasHandlers }}
        />

        <div
          id="builder-panel-preview"
          className={cn('min-w-0 xl:sticky xl:top-[9.5rem] xl:h-[calc(100dvh-11rem)]', view === 'preview' ? 'block h-[75dvh] lg:h-[calc(100dvh-15rem)]' : 'hidden xl:block')}
        >
          <LivePdfPane
            state={preview}
            hasContent={elements.length > 0}
            emptyHint="Add an element and the real PDF renders as you type, with placeholders shown as [Label]."
            frameTitle="Live PDF preview of this format"
          />
        </div>
      </div>

      <ConfirmDialog
        open={confirmClear}
        title="Clear all content?"
        description="This removes every element and placeholder from the builder. The saved format is only changed when you save."
        confirmLabel="Clear content"
        destructive
        onConfirm={clear}
        onCancel={() => setConfirmClear(false)}
      />
      <PlaceholderDialog
        draft={placeholders.placeholderDraft}
        taken={known}
        placeholders={doc.placeholders}
        onSave={placeholders.savePlaceholder}
        onClose={() => placeholders.setPlaceholderDraft(null)}
      />
      <NewFormatDialog open={newOpen} dirty={dirty} onCreate={createNew} onChooseStarter={createFromStarter} onCancel={() => setNewOpen(false)} />
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
    </div>
  );
}
