import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { accessibilityFindings } from '../../../contract/accessibility-check';
import type { TElementType } from '../../../contract/format-content';
import type { TFormat } from '../../../contract/formats';
import { DEFAULT_LOCALE, guessPlaceholder } from '../../../contract/placeholders';
import { UPGRADE_HREF } from '../../components/plan/upgrade';
import { LivePdfPane } from '../../components/ui/live-pdf-pane';
import { useAppConfig } from '../../hooks/use-app-config';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useMediaQuery } from '../../hooks/use-media-query';
import { toast } from '../../hooks/use-toast';
import { cn } from '../../lib/utils';
import { AccessibilityPanel } from './accessibility-panel';
import { useLivePreview } from './api';
import { BuilderCanvasPanel, PlanNotices } from './builder-canvas-panel';
import { BuilderDialogs } from './builder-dialogs';
import { BuilderToolbar, type BuilderView } from './builder-toolbar';
import { BuilderToolsPanel } from './builder-tools-panel';
import { ImportNotice } from './import-notice';
import { useFindingJump } from './finding-targets';
import { draftOf, type TStoredImport } from './imported-draft';
import { storeImportedDraft } from './imported-draft-store';
import { InsertTargetProvider, useInsertTarget } from './insert-target';
import { createElement, DEFAULT_FORMAT_NAME, elementsBefore, findElement, newElementId, nextHeadingLevel, placeholderUsage, type BuilderDoc } from './model';
import { NewTagsBar } from './new-tags-bar';
import { useBuilderDoc } from './use-builder-doc';
import { useBuilderSave } from './use-builder-save';
import { useBuilderShortcuts } from './use-builder-shortcuts';
import { useElementActions } from './use-element-actions';
import { usePlaceholderActions } from './use-placeholder-actions';
import { useStartOver } from './use-start-over';
import { useUnsavedGuard } from './use-unsaved-guard';
import { openApiInTab } from '../../lib/workspace-links';

/** From this width the live preview sits beside the canvas (the app's sidebar folds away to make room). */
const SIDE_BY_SIDE_QUERY = '(min-width: 80rem)';

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

/**
 * The live PDF and the accessibility check above it: beside the canvas on wide screens, a view of
 * their own on narrow ones. Stuck just below the format's toolbar (10 rem), not under its edge.
 */
function BuilderPreviewPane({
  view,
  preview,
  hasContent,
  check,
}: {
  view: BuilderView;
  preview: ReturnType<typeof useLivePreview>;
  hasContent: boolean;
  check: ReactNode;
}) {
  return (
    <section
      id="builder-panel-preview"
      aria-label="Live preview"
      className={cn(
        'min-w-0 space-y-3 xl:sticky xl:top-[10.5rem] xl:flex xl:h-[calc(100dvh-12rem)] xl:flex-col xl:gap-3 xl:space-y-0',
        view === 'preview' ? 'block' : 'hidden xl:flex',
      )}
    >
      {check}
      <LivePdfPane
        state={preview}
        hasContent={hasContent}
        emptyHint="Add an element and the real PDF renders as you type, with placeholders shown as [Label]."
        frameTitle="Live PDF preview of this format"
        className="h-[75dvh] lg:h-[calc(100dvh-15rem)] xl:h-auto xl:min-h-0 xl:flex-1"
      />
    </section>
  );
}

interface PreviewOpenerOptions {
  savedId: string | null;
  dirty: boolean;
  /** The live preview sits beside the canvas. */
  wide: boolean;
  preview: ReturnType<typeof useLivePreview>;
  setView: (view: BuilderView) => void;
}

/** Preview: the stored PDF of a saved format, else the live one (its own view on narrow screens). */
function previewOpener({ savedId, dirty, wide, preview, setView }: PreviewOpenerOptions) {
  return () => {
    // A saved format without changes opens its stored preview; otherwise the live one shows what is on screen.
    if (savedId && !dirty) {
      openApiInTab(`/api/formats/${encodeURIComponent(savedId)}/preview`);
      return;
    }
    if (!wide) {
      setView('preview');
      return;
    }
    if (preview.status !== 'idle' && preview.url) window.open(preview.url, '_blank', 'noopener');
    // With no PDF yet, the reason is the failed render's, not an empty format.
    else if (preview.status === 'error') toast({ variant: 'destructive', title: 'The preview could not be rendered', description: preview.message });
    else toast({ title: 'Nothing to Preview Yet', description: 'Add an element and its preview appears beside the canvas.' });
  };
}

/** Which part shows on narrow screens (canvas, tools or preview); a switch scrolls back to the top. */
function useBuilderView() {
  const [view, setViewState] = useState<BuilderView>('canvas');
  const topRef = useRef<HTMLDivElement>(null);
  const setView = useCallback((v: BuilderView) => {
    setViewState(v);
    // The builder starts at the top of the page; a switched view starts there too.
    if ((topRef.current?.getBoundingClientRect().top ?? 0) < 0) window.scrollTo({ top: 0, behavior: 'instant' });
  }, []);
  return { view, setView, topRef };
}

interface BuilderNoticesProps {
  initial: TFormat | null;
  savedId: string | null;
  imported: TStoredImport | null;
  doc: BuilderDoc;
  dirty: boolean;
  unknownTags: readonly string[];
  placeholderActions: ReturnType<typeof usePlaceholderActions>;
  /** Runs a navigation without the unsaved-changes prompt. */
  bypass: (fn: () => void) => void;
}

/** Above the canvas: the plan's limits, where an imported draft came from, and tags without a placeholder. */
function BuilderNotices({ initial, savedId, imported, doc, dirty, unknownTags, placeholderActions, bypass }: BuilderNoticesProps) {
  const [, navigate] = useLocation();
  const keepDraftAndUpgrade = () => {
    // The work so far goes with the user, and comes back after the upgrade.
    if (dirty) {
      const kept: TStoredImport = { draft: draftOf(doc), warnings: [], fileName: doc.name, origin: 'kept' };
      storeImportedDraft(kept.fileName, kept, 'kept');
    }
    bypass(() => navigate(UPGRADE_HREF));
  };
  return (
    <>
      <PlanNotices
        isNew={!savedId}
        readOnly={!!initial?.readOnly && savedId === initial.id}
        onUpgrade={keepDraftAndUpgrade}
        onSeePlans={() => bypass(() => navigate(UPGRADE_HREF))}
      />
      {imported && !savedId && <ImportNotice stored={imported} placeholderCount={doc.placeholders.length} />}
      <NewTagsBar
        tags={unknownTags}
        onCreate={placeholderActions.createFromTags}
        onDetails={(name) => placeholderActions.setPlaceholderDraft({ creating: { name, ...guessPlaceholder(name) } })}
      />
    </>
  );
}

/**
 * Opening the builder puts focus on the format's name, new or not: it is the first control in
 * reading order, a screen reader announces which format this is, and Save is a few Tabs on. Focus
 * that something else already took (a dialog, a field) is left where it is.
 */
function useFocusOnOpen(nameRef: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body && active.id !== 'main') return;
    nameRef.current?.focus({ preventScroll: true });
  }, [nameRef]);
}

/**
 * The doc as shown and sent: with the language the format prints in. One opened from the server
 * without a language was saved before formats had one and prints in en-US; one made here gets the
 * installation's. Sending it every time keeps what is shown, previewed and saved alike.
 */
function inItsLanguage(doc: BuilderDoc, opened: boolean, installationLocale: string): BuilderDoc {
  if (doc.content.locale) return doc;
  return { ...doc, content: { ...doc.content, locale: opened ? DEFAULT_LOCALE : installationLocale } };
}

function BuilderInner({ initial, onCreated }: BuilderProps) {
  const [, navigate] = useLocation();
  const { state, dispatch, doc, imported, setImported, savedId, setSavedId, setSavedSnapshot, dirty } = useBuilderDoc(initial);
  const [editingId, setEditingId] = useState<string | null>(null);
  const { view, setView, topRef } = useBuilderView();
  const [confirmClear, setConfirmClear] = useState(false);
  const [addMenuOpen, setAddMenuOpen] = useState(false);
  const [nameError, setNameError] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const insertTarget = useInsertTarget();
  const wide = useMediaQuery(SIDE_BY_SIDE_QUERY);
  useFocusOnOpen(nameRef);

  const guard = useUnsavedGuard(dirty);
  useDocumentTitle(`${doc.name.trim() || DEFAULT_FORMAT_NAME} · Format Builder`);

  const elements = doc.content.elements;
  const usage = useMemo(() => placeholderUsage(doc.content, doc.placeholders), [doc.content, doc.placeholders]);
  const known = useMemo(() => new Set(doc.placeholders.map((p) => p.name)), [doc.placeholders]);
  const installationLocale = useAppConfig().data?.documentLocale ?? DEFAULT_LOCALE;
  const sent = useMemo(() => inItsLanguage(doc, !!savedId && savedId === initial?.id, installationLocale), [doc, savedId, initial?.id, installationLocale]);
  const preview = useLivePreview(sent, wide || view === 'preview');

  const actions = useElementActions({ elements, editingId, setEditingId, clearInsertTarget: insertTarget.clear, dispatch });
  const { edit } = actions;
  const addElement = (type: TElementType) => {
    const { elements: current, editingId: after } = actions.latest.current;
    actions.insertElement(createElement(type, newElementId(current), nextHeadingLevel(elementsBefore(current, after))));
    setView('canvas');
  };
  const placeholders = usePlaceholderActions(dispatch, insertTarget.insert);
  const findings = useMemo(() => accessibilityFindings(sent.content), [sent.content]);
  const goToFinding = useFindingJump({ elements, edit, setView, dispatch });

  const editing = editingId ? findElement(elements, editingId)?.element : undefined;
  const styleTarget = editing && editing.type !== 'image' ? editing : undefined;

  const { save, saving } = useBuilderSave({
    doc,
    sent,
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

  const openPreview = previewOpener({ savedId, dirty, wide, preview, setView });

  const clear = () => {
    setConfirmClear(false);
    dispatch({ type: 'clear' });
    edit(null);
    toast({ title: 'Content Cleared', description: 'All elements and placeholders were removed. Undo (Ctrl+Z) brings them back.' });
  };

  const newFormat = useStartOver({ initial, savedId, imported, setImported, setSavedSnapshot, dispatch, edit, setView, bypass: guard.bypass });

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
        save={{ status: saveStatus(saving, savedId, dirty, !!imported), dirty, savedId, saving, run: save }}
        history={{ canUndo: state.past.length > 0, canRedo: state.future.length > 0, undo, redo }}
        addMenu={{ open: addMenuOpen, onOpenChange: setAddMenuOpen, onAdd: addElement }}
        placeholderMenu={{
          placeholders: doc.placeholders,
          onInsert: placeholders.insertPlaceholder,
          onNew: () => placeholders.setPlaceholderDraft({ creating: { name: '', type: 'text' } }),
        }}
        onNew={() => newFormat.setNewOpen(true)}
        onClear={() => setConfirmClear(true)}
        onPreview={openPreview}
        view={view}
        onViewChange={setView}
      />

      <div className="mt-2 grid items-start gap-5 lg:grid-cols-[272px_minmax(0,1fr)] xl:grid-cols-[240px_minmax(0,1fr)_minmax(340px,36%)]">
        <BuilderToolsPanel
          doc={sent}
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
            <BuilderNotices
              initial={initial}
              savedId={savedId}
              imported={imported}
              doc={doc}
              dirty={dirty}
              unknownTags={usage.unknownTags}
              placeholderActions={placeholders}
              bypass={guard.bypass}
            />
          }
          canvas={{
            elements,
            docStyle: doc.content.style,
            known,
            placeholders: doc.placeholders,
            language: sent.content.locale ?? installationLocale,
            editingId,
            actions: actions.elementActions,
            onReorder: actions.reorder,
          }}
        />

        <BuilderPreviewPane
          view={view}
          preview={preview}
          hasContent={elements.length > 0}
          check={<AccessibilityPanel findings={findings} elements={elements} onAct={goToFinding} />}
        />
      </div>

      <BuilderDialogs
        confirmClear={confirmClear}
        onClear={clear}
        onCancelClear={() => setConfirmClear(false)}
        placeholderActions={placeholders}
        known={known}
        placeholders={doc.placeholders}
        dirty={dirty}
        newFormat={newFormat}
        guard={guard}
      />
    </div>
  );
}
