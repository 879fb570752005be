import {
  ArrowLeftIcon,
  BracesIcon,
  ClipboardPenLineIcon,
  EraserIcon,
  EyeIcon,
  FilePlus2Icon,
  LayoutTemplateIcon,
  LockIcon,
  Loader2Icon,
  PanelLeftIcon,
  PlusIcon,
  Redo2Icon,
  SaveIcon,
  SquarePenIcon,
  Undo2Icon,
} from 'lucide-react';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { TElement, TElementType, TTextStyle } from '../../../contract/format-content';
import type { TFormat } from '../../../contract/formats';
import { guessPlaceholderType, placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import type { TStarterFormat } from '../../../contract/starter-formats';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { ToastAction } from '../../components/ui/toast';
import { FormatAllowanceNotice, isPlanLimitError, upgradeActionFor, UPGRADE_HREF } from '../../components/plan/upgrade';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useFormatAllowance } from '../../hooks/use-format-allowance';
import { useMediaQuery } from '../../hooks/use-media-query';
import { toast } from '../../hooks/use-toast';
import { errorStatus, isUnauthorizedError, readApiError } from '../../lib/api';
import { cn } from '../../lib/utils';
import { formatFillHref } from '../formats/format-actions';
import { useLivePreview } from './api';
import { builderReducer, initialBuilderState } from './builder-reducer';
import { Canvas, ELEMENT_ICONS } from './canvas';
import { SectionTitle } from './controls';
import { ConfirmDialog, NewFormatDialog } from './dialogs';
import { effectiveStyle } from './elements/shared';
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
import {
  allElementIds,
  createElement,
  DEFAULT_FORMAT_NAME,
  describeElement,
  ELEMENT_LABELS,
  emptyDoc,
  findElement,
  newElementId,
  placeholderUsage,
  snapshotOf,
  type BuilderDoc,
} from './model';
import { PageSetup } from './page-setup';
import { DocumentNameField } from './document-name-field';
import { NewTagsBar } from './new-tags-bar';
import { PlaceholderDialog, type PlaceholderDraft } from './placeholder-dialog';
import { PlaceholderPanel } from './placeholder-panel';
import { LivePdfPane } from '../../components/ui/live-pdf-pane';
import { ElementPalette, FormattingHints, StyleControls } from './sidebar';
import { starterDraft } from './starter-gallery';
import { useSaveFormat } from './use-save-format';
import { useUnsavedGuard } from './use-unsaved-guard';

/**
 * 'Form Ready' follows a save after 2 s, unless another toast was raised meanwhile: it would
 * replace that newer one.
 */
export const FORM_READY_DELAY_MS = 2000;
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

type View = 'tools' | 'canvas' | 'preview';

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

/**
 * A menu choice that moves the focus (into a new element, back into a text) runs once the menu
 * has closed and let go of the focus; run while it is open, the menu would take the focus back.
 */
function useChoiceAfterClose() {
  const chosen = useRef<(() => void) | null>(null);
  return {
    choose: (action: () => void) => () => {
      chosen.current = action;
    },
    onCloseAutoFocus: (e: Event) => {
      const action = chosen.current;
      if (!action) return;
      e.preventDefault();
      chosen.current = null;
      action();
    },
  };
}

/** Insert: a placeholder at the cursor of the text last focused, or a new one made there. */
function InsertPlaceholderMenu({
  placeholders,
  onInsert,
  onNew,
}: {
  placeholders: readonly TPlaceholder[];
  onInsert: (name: string) => void;
  onNew: () => void;
}) {
  const after = useChoiceAfterClose();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Keeps the caret where it was in the text, so the tag goes there. */}
        <Button variant="outline" size="sm" onMouseDown={(e) => e.preventDefault()}>
          <BracesIcon /> <span className="hidden md:inline">Insert</span>
          <span className="sr-only md:hidden">Insert placeholder</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" onCloseAutoFocus={after.onCloseAutoFocus}>
        <DropdownMenuLabel>Insert placeholder</DropdownMenuLabel>
        {placeholders.map((p) => (
          <DropdownMenuItem key={p.name} onSelect={after.choose(() => onInsert(p.name))}>
            <span className="font-mono text-[12.5px]">{`{{${p.name}}}`}</span>
            <span className="ml-auto pl-3 text-xs text-muted-foreground">{placeholderLabel(p)}</span>
          </DropdownMenuItem>
        ))}
        {placeholders.length > 0 && <DropdownMenuSeparator />}
        <DropdownMenuItem onSelect={after.choose(onNew)}>
          <PlusIcon aria-hidden /> New placeholder…
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const ADDABLE: readonly TElementType[] = ['heading', 'paragraph', 'list', 'table', 'image', 'section'];

/** Add element: a menu in the top bar, opened by "/" from anywhere outside a text field. */
function AddElementMenu({ open, onOpenChange, onAdd }: { open: boolean; onOpenChange: (open: boolean) => void; onAdd: (type: TElementType) => void }) {
  const after = useChoiceAfterClose();
  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" aria-keyshortcuts="/" title="Add element (/)">
          <PlusIcon /> <span className="hidden md:inline">Add</span>
          <span className="sr-only md:hidden">Add element</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" onCloseAutoFocus={after.onCloseAutoFocus}>
        <DropdownMenuLabel>Add element</DropdownMenuLabel>
        {ADDABLE.map((type) => {
          const Icon = ELEMENT_ICONS[type];
          return (
            <DropdownMenuItem key={type} onSelect={after.choose(() => onAdd(type))}>
              <Icon aria-hidden /> {ELEMENT_LABELS[type]}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
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
  const [view, setViewState] = useState<View>('canvas');
  const topRef = useRef<HTMLDivElement>(null);
  const setView = useCallback((v: View) => {
    setViewState(v);
    // The builder starts at the top of the page; a switched view starts there too.
    if ((topRef.current?.getBoundingClientRect().top ?? 0) < 0) window.scrollTo({ top: 0, behavior: 'instant' });
  }, []);
  const saveFormat = useSaveFormat();
  const saving = saveFormat.isPending;
  const [confirmClear, setConfirmClear] = useState(false);
  const [newOpen, setNewOpen] = useState(false);
  const [nameError, setNameError] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const insertTarget = useInsertTarget();
  const wide = useMediaQuery(SIDE_BY_SIDE_QUERY);
  const allowance = useFormatAllowance();

  const dirty = useMemo(() => snapshotOf(doc) !== savedSnapshot, [doc, savedSnapshot]);
  const guard = useUnsavedGuard(dirty);
  useDocumentTitle(`${doc.name.trim() || DEFAULT_FORMAT_NAME} · Format Builder`);

  useEffect(() => {
    const list = timers.current;
    return () => list.forEach(clearTimeout);
  }, []);

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

  const clearInsertTarget = insertTarget.clear;
  const edit = useCallback(
    (id: string | null) => {
      setEditingId(id);
      if (id === null) clearInsertTarget();
    },
    [clearInsertTarget],
  );

  const latest = useRef({ elements, editingId });
  useEffect(() => {
    latest.current = { elements, editingId };
  });

  /**
   * A new element goes after `afterId` (the one being edited, by default), in the same section if
   * it is in one; into a section that is being edited, at its end; else at the end of the format.
   */
  const insertElement = useCallback(
    (element: TElement, afterId: string | null = latest.current.editingId) => {
      const found = afterId ? findElement(latest.current.elements, afterId) : undefined;
      if (found?.element.type === 'section' && element.type !== 'section' && afterId === latest.current.editingId) {
        dispatch({ type: 'add-element', element, sectionId: found.element.id });
      } else if (found?.section && element.type !== 'section') {
        dispatch({ type: 'add-element', element, sectionId: found.section.id, index: found.index + 1 });
      } else {
        const top = found?.section ? latest.current.elements.indexOf(found.section) : found?.index;
        dispatch({ type: 'add-element', element, index: top === undefined ? undefined : top + 1 });
      }
      edit(element.id);
    },
    [edit],
  );

  const addElement = (type: TElementType) => {
    insertElement(createElement(type, newElementId(latest.current.elements)));
    setView('canvas');
  };

  const duplicateElement = useCallback(
    (id: string) => {
      const el = findElement(latest.current.elements, id)?.element;
      if (!el) return;
      const copy = structuredClone(el);
      // Every copied element gets a new id, a section's elements too.
      const taken = allElementIds(latest.current.elements);
      const fresh = () => {
        const next = newElementId(taken.map((tid) => ({ id: tid })) as TElement[]);
        taken.push(next);
        return next;
      };
      copy.id = fresh();
      if (copy.type === 'section') copy.elements = copy.elements.map((child) => ({ ...child, id: fresh() }));
      insertElement(copy, id);
    },
    [insertElement],
  );

  const updateElement = useCallback((id: string, update: (el: TElement) => TElement) => dispatch({ type: 'update-element', id, update }), []);
  const moveElement = useCallback((id: string, delta: -1 | 1) => dispatch({ type: 'move-element', id, delta }), []);
  const moveAcrossSection = useCallback((id: string, direction: 'into-above' | 'out') => dispatch({ type: 'move-across-section', id, direction }), []);
  const reorder = useCallback((activeId: string, overId: string) => dispatch({ type: 'reorder', activeId, overId }), []);

  const deleteElement = useCallback(
    (id: string) => {
      const found = findElement(latest.current.elements, id);
      dispatch({ type: 'delete-element', id });
      if (latest.current.editingId === id) edit(null);
      if (!found) return;
      const { element: el, index: i, section } = found;
      const t = toast({
        title: 'Element Deleted',
        description: `${describeElement(el, i)} was removed.`,
        action: (
          <ToastAction
            altText="Undo deleting the element"
            onClick={() => {
              if (!findElement(latest.current.elements, el.id)) dispatch({ type: 'add-element', element: el, index: i, ...(section ? { sectionId: section.id } : {}) });
              t.dismiss();
            }}
          >
            Undo
          </ToastAction>
        ),
      });
    },
    [edit],
  );

  const editing = editingId ? findElement(elements, editingId)?.element : undefined;
  const styleTarget = editing && editing.type !== 'image' ? editing : undefined;
  const setStyle = (style: TTextStyle) => dispatch({ type: 'set-style', elementId: styleTarget?.id ?? null, style });

  const addPlaceholder = (p: TPlaceholder) => dispatch({ type: 'add-placeholder', placeholder: p });
  const [placeholderDraft, setPlaceholderDraft] = useState<PlaceholderDraft | null>(null);
  const createFromTags = (names: readonly string[]) => {
    for (const name of names) dispatch({ type: 'add-placeholder', placeholder: { name, type: guessPlaceholderType(name), required: false, options: [] } });
    toast({
      title: names.length === 1 ? 'Placeholder Created' : 'Placeholders Created',
      description: `${names.map((n) => `{{${n}}}`).join(', ')} ${names.length === 1 ? 'is' : 'are'} now on the form. Edit ${names.length === 1 ? 'it' : 'them'} under Placeholders.`,
    });
  };
  const savePlaceholder = (placeholder: TPlaceholder, previousName: string | null, columnRenames: Record<string, string> = {}) => {
    setPlaceholderDraft(null);
    if (previousName === null) {
      dispatch({ type: 'add-placeholder', placeholder });
      if (placeholderDraft && 'creating' in placeholderDraft && placeholderDraft.creating.name === '') insertTarget.insert(`{{${placeholder.name}}}`);
      return;
    }
    dispatch({ type: 'update-placeholder', name: previousName, placeholder, columnRenames });
    if (previousName !== placeholder.name) {
      toast({ title: 'Placeholder Renamed', description: `{{${previousName}}} is now {{${placeholder.name}}} everywhere it is used.` });
    }
  };
  const insertPlaceholder = (name: string) => {
    if (!insertTarget.insert(`{{${name}}}`)) {
      toast({ title: 'Choose where to insert', description: 'Click into a heading, paragraph, list item or table cell first, then insert the placeholder.' });
    }
  };
  const deletePlaceholder = (name: string) => {
    dispatch({ type: 'delete-placeholder', name });
    toast({ title: 'Placeholder Deleted', description: `{{${name}}} was removed. Tags using it will print empty.` });
  };

  const fillInAction = (id: string) => (
    <ToastAction altText="Fill in the form now" onClick={() => guard.bypass(() => navigate(formatFillHref(id)))}>
      Fill in now
    </ToastAction>
  );

  const save = () => {
    if (saving) return;
    if (!doc.name.trim()) {
      setNameError(true);
      nameRef.current?.focus();
      toast({ variant: 'destructive', title: 'Missing Name', description: 'Please enter a format name.' });
      return;
    }
    const sent = doc;
    const wasNew = !savedId;
    saveFormat.mutate(
      { id: savedId, doc: sent },
      {
        onSuccess: (saved) => {
          setSavedId(saved.id);
          setSavedSnapshot(snapshotOf(sent));
          if (imported) clearImportedDraft();
          const success = toast({ title: 'Success', description: 'Format saved successfully!', action: fillInAction(saved.id) });
          // Only if no other toast came meanwhile (a Clear or Delete in those 2 s): one toast at a time.
          timers.current.push(
            setTimeout(
              () =>
                success.followUp({
                  title: 'Form Ready',
                  description: `The data-entry form for "${saved.name}" is ready to fill.`,
                  action: fillInAction(saved.id),
                }),
              FORM_READY_DELAY_MS,
            ),
          );
          // The address names the saved format, so a reload or a shared link opens it; the builder stays.
          if (wasNew) onCreated?.(saved.id);
        },
        onError: (error) => {
          if (isUnauthorizedError(error)) return;
          const status = errorStatus(error);
          const message =
            status === null || status >= 500
              ? 'Failed to save format. Please try again.'
              : readApiError(error, 'Failed to save format. Please try again.').message;
          const refused = isPlanLimitError(error);
          if (refused && wasNew) {
            // Kept for after the upgrade: the builder reopens it from Billing or the payment page.
            const kept: TStoredImport = { draft: draftOf(sent), warnings: [], fileName: sent.name, origin: 'kept' };
            storeImportedDraft(kept.fileName, kept, 'kept');
            setImported(kept);
          }
          toast({
            variant: 'destructive',
            title: refused ? 'Plan Limit Reached' : 'Error',
            description: refused && wasNew ? `${message} Your format is kept here in the meantime.` : message,
            action: upgradeActionFor(error, (href) => guard.bypass(() => navigate(href))),
          });
        },
      },
    );
  };

  const undo = () => dispatch({ type: 'undo' });
  const redo = () => dispatch({ type: 'redo' });
  const [addMenuOpen, setAddMenuOpen] = useState(false);

  const shortcuts = useRef({ save, undo, redo, openAddMenu: () => setAddMenuOpen(true) });
  useEffect(() => {
    shortcuts.current = { save, undo, redo, openAddMenu: () => setAddMenuOpen(true) };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      // Dialogs and the placeholder form keep their own keys (their fields are not part of the format).
      if (target?.closest('[role=dialog], [data-own-undo]')) return;
      const mod = e.metaKey || e.ctrlKey;
      const key = e.key.toLowerCase();
      if (mod && key === 's') {
        e.preventDefault();
        shortcuts.current.save();
      } else if (mod && !e.altKey && ((key === 'z' && e.shiftKey) || key === 'y')) {
        e.preventDefault();
        shortcuts.current.redo();
      } else if (mod && !e.altKey && key === 'z') {
        e.preventDefault();
        shortcuts.current.undo();
      } else if (e.key === '/' && !mod && !target?.closest('input, textarea, select, [contenteditable=true]')) {
        e.preventDefault();
        shortcuts.current.openAddMenu();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

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

  const status = saving
    ? 'Saving...'
    : !savedId
      ? dirty
        ? imported
          ? 'Unsaved changes'
          : 'Not saved yet'
        : 'New format'
      : dirty
        ? 'Unsaved changes'
        : 'All changes saved';

  const emptyCanvas = (
    <div className="flex flex-col items-center justify-center rounded-lg border border-dashed bg-muted/30 px-6 py-16 text-center" data-testid="canvas-empty">
      <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-background shadow-card ring-1 ring-border">
        <LayoutTemplateIcon className="size-5 text-primary" aria-hidden />
      </div>
      <p className="text-sm font-semibold text-foreground">Start building your format</p>
      <p className="mt-1 max-w-sm text-sm text-muted-foreground">
        Add a heading, paragraph, list, table or image. Then add placeholders like{' '}
        <code className="font-mono text-foreground">{'{{client_name}}'}</code> and Formwork builds the form for you.
      </p>
      <div className="mt-5 flex flex-wrap justify-center gap-2">
        <Button size="sm" onClick={() => addElement('heading')}>
          Add a heading
        </Button>
        <Button size="sm" variant="outline" onClick={() => addElement('paragraph')}>
          Add a paragraph
        </Button>
      </div>
    </div>
  );

  const inherited = effectiveStyle(doc.content.style, undefined);

  return (
    <div className="pb-10" data-testid="format-builder" ref={topRef}>
      {/* Top bar */}
      <div className="z-20 -mx-4 sm:sticky sm:top-16 -mt-6 bg-[color-mix(in_oklab,var(--color-muted)_40%,white)] px-4 pt-3 pb-3 sm:-mx-6 sm:-mt-8 sm:px-6 sm:pt-4 lg:-mx-8 lg:px-8">
        <div className="flex flex-col gap-3 rounded-xl border bg-background px-3 py-2.5 shadow-card sm:flex-row sm:items-center sm:px-4">
          <div className="flex min-w-0 flex-1 items-center gap-2">
            <Button variant="ghost" size="icon-sm" aria-label="Back to dashboard" onClick={() => navigate('/')}>
              <ArrowLeftIcon />
            </Button>
            <div className="min-w-0 flex-1">
              {/* The page's heading for screen readers; sighted users see the editable name. */}
              <h1 className="sr-only">Format Builder: {doc.name.trim() || DEFAULT_FORMAT_NAME}</h1>
              <label htmlFor="format-name" className="sr-only">
                Format name
              </label>
              <input
                id="format-name"
                ref={nameRef}
                value={doc.name}
                placeholder={DEFAULT_FORMAT_NAME}
                maxLength={200}
                aria-invalid={nameError || undefined}
                onChange={(e) => {
                  setNameError(false);
                  dispatch({ type: 'rename', name: e.target.value });
                }}
                className="-ml-1.5 h-8 w-full min-w-0 truncate rounded-md border border-transparent bg-transparent px-1.5 text-[17px] font-semibold tracking-tight text-foreground outline-none hover:border-input focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive"
              />
              <p className="flex items-center gap-1.5 text-xs text-muted-foreground" aria-live="polite" data-testid="save-status">
                <span
                  className={cn('size-1.5 rounded-full', dirty ? 'bg-warning' : savedId ? 'bg-success' : 'bg-muted-foreground/40')}
                  aria-hidden
                />
                {status}
              </p>
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-1.5">
            <AddElementMenu open={addMenuOpen} onOpenChange={setAddMenuOpen} onAdd={addElement} />
            <InsertPlaceholderMenu
              placeholders={doc.placeholders}
              onInsert={insertPlaceholder}
              onNew={() => setPlaceholderDraft({ creating: { name: '', type: 'text' } })}
            />
            <Button variant="ghost" size="icon-sm" onClick={undo} disabled={state.past.length === 0} aria-label="Undo" title="Undo (Ctrl+Z)">
              <Undo2Icon />
            </Button>
            <Button variant="ghost" size="icon-sm" onClick={redo} disabled={state.future.length === 0} aria-label="Redo" title="Redo (Ctrl+Shift+Z)">
              <Redo2Icon />
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setNewOpen(true)} aria-label="New">
              <FilePlus2Icon /> <span className="hidden md:inline">New</span>
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirmClear(true)} aria-label="Clear">
              <EraserIcon /> <span className="hidden md:inline">Clear</span>
            </Button>
            <Button variant="outline" size="sm" onClick={openPreview} aria-label="Preview">
              <EyeIcon /> <span className="hidden md:inline">Preview</span>
            </Button>
            {savedId && !dirty ? (
              <Button size="sm" className="ml-auto sm:ml-1" asChild>
                <Link href={formatFillHref(savedId)}>
                  <ClipboardPenLineIcon /> Fill in
                </Link>
              </Button>
            ) : (
              <Button size="sm" className="ml-auto sm:ml-1" onClick={save} disabled={saving}>
                {saving ? <Loader2Icon className="animate-spin" /> : <SaveIcon />}
                {saving ? 'Saving...' : 'Save Format'}
              </Button>
            )}
          </div>
        </div>

        {/* View switch below xl: tools (mobile only), canvas, preview */}
        <div className="mt-3 lg:ml-[calc(272px+1.25rem)] xl:hidden">
          <div
            role="tablist"
            aria-label="Builder views"
            className="inline-flex h-9 w-full items-center gap-1 rounded-lg bg-secondary p-1 text-muted-foreground lg:w-auto"
          >
            <ViewTab view="tools" current={view} onSelect={setView} className="lg:hidden" icon={<PanelLeftIcon />}>
              Elements
            </ViewTab>
            <ViewTab view="canvas" current={view} onSelect={setView} icon={<SquarePenIcon />}>
              Canvas
            </ViewTab>
            <ViewTab view="preview" current={view} onSelect={setView} icon={<EyeIcon />}>
              Preview
            </ViewTab>
          </div>
        </div>
      </div>

      <div className="mt-2 grid items-start gap-5 lg:grid-cols-[272px_minmax(0,1fr)] xl:grid-cols-[240px_minmax(0,1fr)_minmax(340px,36%)]">
        <aside
          id="builder-panel-tools"
          aria-label="Builder tools"
          className={cn('space-y-6', view === 'tools' ? 'block' : 'hidden lg:block')}
          data-testid="builder-sidebar"
        >
          <ElementPalette onAdd={addElement} />
          <StyleControls
            scopeLabel={styleTarget ? describeElement(styleTarget, findElement(elements, styleTarget.id)?.index ?? 0).split(':')[0] ?? 'Element' : 'Whole document'}
            isElement={!!styleTarget}
            style={styleTarget ? styleTarget.style : doc.content.style}
            inherited={inherited}
            onChange={setStyle}
          />
          <PlaceholderPanel
            placeholders={doc.placeholders}
            usage={usage}
            onAdd={addPlaceholder}
            onEdit={(p) => setPlaceholderDraft({ editing: p })}
            onDelete={deletePlaceholder}
          />
          <PageSetup content={doc.content} update={(update) => dispatch({ type: 'update-content', update })} />
          <section aria-labelledby="details-title">
            <SectionTitle>
              <span id="details-title">Details</span>
            </SectionTitle>
            <Label htmlFor="format-description" className="mb-1.5 text-xs text-muted-foreground">
              Description (shown on the form)
            </Label>
            <Input
              id="format-description"
              value={doc.description}
              maxLength={2000}
              placeholder="e.g. Offer letter for new hires"
              onChange={(e) => dispatch({ type: 'describe', description: e.target.value })}
              className="h-9"
            />
            <DocumentNameField
              formatName={doc.name}
              content={doc.content}
              placeholders={doc.placeholders}
              update={(update) => dispatch({ type: 'update-content', update })}
            />
          </section>
          <FormattingHints />
        </aside>

        <section
          id="builder-panel-canvas"
          aria-label="Canvas"
          className={cn(
            'min-w-0 rounded-xl border bg-background p-2 shadow-card sm:p-4',
            view === 'canvas' ? 'block' : view === 'tools' ? 'hidden lg:block' : 'hidden xl:block',
          )}
          data-testid="builder-canvas"
        >
          <div className="mb-2 flex items-center justify-between px-1.5 text-xs text-muted-foreground">
            <span>
              {elements.length === 0 ? 'No elements' : `${elements.length} element${elements.length === 1 ? '' : 's'}`}
            </span>
            {elements.length > 0 && <span className="hidden sm:inline">Click an element to edit it</span>}
          </div>
          {!savedId && allowance?.atLimit && allowance.limit !== null && (
            <div className="mb-3">
              <FormatAllowanceNotice
                used={allowance.used}
                limit={allowance.limit}
                planName={allowance.planName}
                onUpgrade={() => {
                  // The work so far goes with the user, and comes back after the upgrade.
                  if (dirty) {
                    const kept: TStoredImport = { draft: draftOf(doc), warnings: [], fileName: doc.name, origin: 'kept' };
                    storeImportedDraft(kept.fileName, kept, 'kept');
                  }
                  guard.bypass(() => navigate(UPGRADE_HREF));
                }}
              />
            </div>
          )}
          {initial?.readOnly && savedId === initial.id && (
            <Alert variant="info" className="mb-3" data-testid="read-only-notice">
              <LockIcon aria-hidden />
              <AlertTitle>Read-only on the {allowance?.planName ?? 'current'} plan</AlertTitle>
              <AlertDescription>
                <p>This format is kept, and you can fill it in, but your plan has room to edit only your most recent formats. Upgrade to edit it again.</p>
                <Button size="sm" className="mt-1" onClick={() => guard.bypass(() => navigate(UPGRADE_HREF))}>
                  See plans
                </Button>
              </AlertDescription>
            </Alert>
          )}
          {imported && !savedId && <ImportNotice stored={imported} placeholderCount={doc.placeholders.length} />}
          <NewTagsBar tags={usage.unknownTags} onCreate={createFromTags} onDetails={(name) => setPlaceholderDraft({ creating: { name, type: guessPlaceholderType(name) } })} />
          <Canvas
            elements={elements}
            docStyle={doc.content.style}
            known={known}
            placeholders={doc.placeholders}
            onMoveAcross={moveAcrossSection}
            editingId={editingId}
            onEdit={edit}
            onUpdate={updateElement}
            onMove={moveElement}
            onReorder={reorder}
            onDelete={deleteElement}
            onDuplicate={duplicateElement}
            emptyState={emptyCanvas}
          />
          {elements.length > 0 && (
            <div className="mt-3 flex flex-wrap gap-2 border-t px-1.5 pt-3 lg:hidden">
              <Button variant="outline" size="sm" onClick={() => setView('tools')}>
                <PanelLeftIcon /> Add element or placeholder
              </Button>
            </div>
          )}
        </section>

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
        draft={placeholderDraft}
        taken={known}
        placeholders={doc.placeholders}
        onSave={savePlaceholder}
        onClose={() => setPlaceholderDraft(null)}
      />
      <NewFormatDialog
        open={newOpen}
        dirty={dirty}
        onCreate={createNew}
        onChooseStarter={createFromStarter}
        onCancel={() => setNewOpen(false)}
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
    </div>
  );
}

function ViewTab({
  view,
  current,
  onSelect,
  icon,
  children,
  className,
}: {
  view: View;
  current: View;
  onSelect: (v: View) => void;
  icon: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const selected = current === view;
  return (
    <button
      type="button"
      role="tab"
      aria-selected={selected}
      aria-controls={`builder-panel-${view}`}
      tabIndex={selected ? 0 : -1}
      onClick={() => onSelect(view)}
      onKeyDown={(e) => {
        // Arrow keys move between the visible tabs, as in any tab list.
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        const list = e.currentTarget.closest('[role=tablist]');
        const tabs = [...(list?.querySelectorAll<HTMLButtonElement>('[role=tab]') ?? [])].filter((t) => t.offsetParent !== null);
        const i = tabs.indexOf(e.currentTarget);
        const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
        next?.focus();
        next?.click();
      }}
      className={cn(
        'inline-flex h-full flex-1 cursor-pointer items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-[color,background-color,box-shadow] outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring lg:flex-none [&_svg]:size-4',
        selected && 'bg-background text-foreground shadow-xs',
        className,
      )}
    >
      {icon}
      {children}
    </button>
  );
}
