import {
  ArrowLeftIcon,
  EraserIcon,
  EyeIcon,
  FilePlus2Icon,
  LayoutTemplateIcon,
  Loader2Icon,
  PanelLeftIcon,
  SaveIcon,
  SquarePenIcon,
} from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { TElement, TElementType, TTextStyle } from '../../../contract/format-content';
import type { TFormat } from '../../../contract/formats';
import type { TPlaceholder } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { ToastAction } from '../../components/ui/toast';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { toast } from '../../hooks/use-toast';
import { errorStatus, readApiError } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { handleIfUnauthorized } from '../../lib/unauthorized';
import { cn } from '../../lib/utils';
import { DOCUMENTS_KEY, FORMATS_KEY } from '../formats/api';
import { saveFormat, useLivePreview } from './api';
import { Canvas } from './canvas';
import { ConfirmDialog, NewFormatDialog } from './dialogs';
import { effectiveStyle } from './elements';
import { InsertTargetProvider, useInsertTarget } from './insert-target';
import {
  cleanStyle,
  createElement,
  DEFAULT_FORMAT_NAME,
  describeElement,
  emptyDoc,
  moveItem,
  newElementId,
  placeholderUsage,
  snapshotOf,
  type BuilderDoc,
} from './model';
import { PageSetup } from './page-setup';
import { ImportNotice } from './import-notice';
import { clearImportedDraft, docFromImport, readImportedDraft, wantsImportedDraft, type TStoredImport } from './imported-draft';
import { PlaceholderPanel } from './placeholder-panel';
import { PreviewPane } from './preview-pane';
import { ElementPalette, FormattingHints, StyleControls } from './sidebar';
import { useUnsavedGuard } from './use-unsaved-guard';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { SectionTitle } from './controls';

/**
 * SPEC section 4 and 9: 'Form Ready' 2 s after a save; back to / 3 s after the first save.
 * 'Form Ready' is skipped when another toast was raised in those 2 s: it would replace that newer one.
 */
export const FORM_READY_DELAY_MS = 2000;
export const RETURN_HOME_DELAY_MS = 3000;

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

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches);
  useEffect(() => {
    const mql = window.matchMedia(query);
    const onChange = () => setMatches(mql.matches);
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

type View = 'tools' | 'canvas' | 'preview';

export function Builder({ initial }: { initial: TFormat | null }) {
  return (
    <InsertTargetProvider>
      <BuilderInner initial={initial} />
    </InsertTargetProvider>
  );
}

function BuilderInner({ initial }: { initial: TFormat | null }) {
  const [, navigate] = useLocation();
  // An imported template (Dashboard > Import Template) opens as a new, unsaved format.
  const [imported, setImported] = useState<TStoredImport | null>(() => (!initial && wantsImportedDraft() ? readImportedDraft() : null));
  const [initialDoc] = useState(() => (initial ? docFromFormat(initial) : imported ? docFromImport(imported) : emptyDoc(takePendingNewName())));
  const [doc, setDoc] = useState<BuilderDoc>(initialDoc);
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
  const [saving, setSaving] = useState(false);
  const [confirmClear, setConfirmClear] = useState(false);
  const [newOpen, setNewOpen] = useState(false);
  const [nameError, setNameError] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const insertTarget = useInsertTarget();
  const wide = useMediaQuery('(min-width: 96rem)');

  const dirty = useMemo(() => snapshotOf(doc) !== savedSnapshot, [doc, savedSnapshot]);
  const guard = useUnsavedGuard(dirty);
  useDocumentTitle(`${doc.name.trim() || DEFAULT_FORMAT_NAME} · Format Builder`);

  useEffect(() => {
    const list = timers.current;
    return () => list.forEach(clearTimeout);
  }, []);

  // /builder?from=import without a stored draft (another tab, or storage cleared): a blank format.
  useEffect(() => {
    if (initial || imported || !wantsImportedDraft()) return;
    navigate('/builder', { replace: true });
    toast({ title: 'Import Not Found', description: 'The imported template is no longer here. Import the file again from the Dashboard.' });
  }, []);

  const elements = doc.content.elements;
  const usage = useMemo(() => placeholderUsage(doc.content, doc.placeholders), [doc.content, doc.placeholders]);
  const known = useMemo(() => new Set(doc.placeholders.map((p) => p.name)), [doc.placeholders]);
  const preview = useLivePreview(doc, wide || view === 'preview');

  const setElements = useCallback((fn: (els: TElement[]) => TElement[]) => {
    setDoc((d) => ({ ...d, content: { ...d.content, elements: fn(d.content.elements) } }));
  }, []);

  const clearInsertTarget = insertTarget.clear;
  const edit = useCallback(
    (id: string | null) => {
      setEditingId(id);
      if (id === null) clearInsertTarget();
    },
    [clearInsertTarget],
  );

  const addElement = (type: TElementType) => {
    const id = newElementId(elements);
    setElements((els) => [...els, createElement(type, id)]);
    edit(id);
    setView('canvas');
  };

  const updateElement = useCallback(
    (id: string, fn: (el: TElement) => TElement) => setElements((els) => els.map((e) => (e.id === id ? fn(e) : e))),
    [setElements],
  );

  const moveElement = useCallback(
    (id: string, delta: -1 | 1) =>
      setElements((els) => {
        const i = els.findIndex((e) => e.id === id);
        return moveItem(els, i, i + delta);
      }),
    [setElements],
  );

  const reorder = useCallback(
    (activeId: string, overId: string) =>
      setElements((els) => moveItem(els, els.findIndex((e) => e.id === activeId), els.findIndex((e) => e.id === overId))),
    [setElements],
  );

  const latest = useRef({ elements, editingId });
  useEffect(() => {
    latest.current = { elements, editingId };
  });
  const deleteElement = useCallback(
    (id: string) => {
      const i = latest.current.elements.findIndex((e) => e.id === id);
      const el = latest.current.elements[i];
      setElements((els) => els.filter((e) => e.id !== id));
      if (latest.current.editingId === id) edit(null);
      if (!el) return;
      const t = toast({
        title: 'Element Deleted',
        description: `${describeElement(el, i)} was removed.`,
        action: (
          <ToastAction
            altText="Undo deleting the element"
            onClick={() => {
              setElements((els) => (els.some((e) => e.id === el.id) ? els : [...els.slice(0, i), el, ...els.slice(i)]));
              t.dismiss();
            }}
          >
            Undo
          </ToastAction>
        ),
      });
    },
    [edit, setElements],
  );

  const editing = elements.find((e) => e.id === editingId);
  const styleTarget = editing && editing.type !== 'image' ? editing : undefined;
  const setStyle = (style: TTextStyle) => {
    const clean = cleanStyle(style);
    if (styleTarget) {
      updateElement(styleTarget.id, (e) => {
        const { style: _old, ...rest } = e;
        return (clean ? { ...rest, style: clean } : rest) as TElement;
      });
    } else {
      setDoc((d) => {
        const { style: _old, ...rest } = d.content;
        return { ...d, content: clean ? { ...rest, style: clean } : rest };
      });
    }
  };

  const addPlaceholder = (p: TPlaceholder) => setDoc((d) => ({ ...d, placeholders: [...d.placeholders, p] }));
  const deletePlaceholder = (name: string) => {
    setDoc((d) => ({ ...d, placeholders: d.placeholders.filter((p) => p.name !== name) }));
    toast({ title: 'Placeholder Deleted', description: `{{${name}}} was removed. Tags using it will print empty.` });
  };

  const save = async () => {
    if (saving) return;
    if (!doc.name.trim()) {
      setNameError(true);
      nameRef.current?.focus();
      toast({ variant: 'destructive', title: 'Missing Name', description: 'Please enter a format name.' });
      return;
    }
    const sent = doc;
    const wasNew = !savedId;
    setSaving(true);
    try {
      const saved = await saveFormat(savedId, sent);
      setSavedId(saved.id);
      setSavedSnapshot(snapshotOf(sent));
      if (imported) clearImportedDraft();
      queryClient.setQueryData(['/api/formats', saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: FORMATS_KEY, exact: true });
      void queryClient.invalidateQueries({ queryKey: ['/api/user/stats'] });
      void queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY });
      const success = toast({ title: 'Success', description: 'Format saved successfully!' });
      // Only if no other toast came meanwhile (a Clear or Delete in those 2 s): one toast at a time.
      timers.current.push(
        setTimeout(
          () => success.followUp({ title: 'Form Ready', description: `The data-entry form for "${saved.name}" is ready to fill.` }),
          FORM_READY_DELAY_MS,
        ),
      );
      if (wasNew) timers.current.push(setTimeout(() => navigate('/'), RETURN_HOME_DELAY_MS));
    } catch (error) {
      if (handleIfUnauthorized(error)) return;
      const status = errorStatus(error);
      const message =
        status === null || status >= 500
          ? 'Failed to save format. Please try again.'
          : readApiError(error, 'Failed to save format. Please try again.').message;
      toast({ variant: 'destructive', title: status === 403 ? 'Plan Limit Reached' : 'Error', description: message });
    } finally {
      setSaving(false);
    }
  };

  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const openPreview = () => {
    if (!savedId) {
      toast({ title: 'Save Format First', description: 'Please save the format before previewing.' });
      return;
    }
    window.open(`/api/formats/${encodeURIComponent(savedId)}/preview`, '_blank', 'noopener');
  };

  const clear = () => {
    setConfirmClear(false);
    setDoc((d) => ({ ...d, content: { ...d.content, elements: [] }, placeholders: [] }));
    edit(null);
    toast({ title: 'Content Cleared', description: 'All elements and placeholders were removed.' });
  };

  const createNew = (name: string) => {
    setNewOpen(false);
    if (initial) {
      pendingNewName = name;
      guard.bypass(() => navigate('/builder'));
      return;
    }
    if (imported) {
      clearImportedDraft();
      setImported(null);
      navigate('/builder', { replace: true });
    }
    const fresh = emptyDoc(name);
    setDoc(fresh);
    setSavedId(null);
    setSavedSnapshot(snapshotOf(fresh));
    edit(null);
    setView('canvas');
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
                  setDoc((d) => ({ ...d, name: e.target.value }));
                }}
                className="-ml-1.5 h-8 w-full min-w-0 truncate rounded-md border border-transparent bg-transparent px-1.5 text-[17px] font-semibold tracking-tight text-foreground outline-none hover:border-input focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/25 aria-invalid:border-destructive"
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
          <div className="flex items-center gap-1.5">
            <Button variant="ghost" size="sm" onClick={() => setNewOpen(true)} aria-label="New">
              <FilePlus2Icon /> <span className="hidden md:inline">New</span>
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirmClear(true)} aria-label="Clear">
              <EraserIcon /> <span className="hidden md:inline">Clear</span>
            </Button>
            <Button variant="outline" size="sm" onClick={openPreview} aria-label="Preview">
              <EyeIcon /> <span className="hidden md:inline">Preview</span>
            </Button>
            <Button size="sm" className="ml-auto sm:ml-1" onClick={() => void save()} disabled={saving}>
              {saving ? <Loader2Icon className="animate-spin" /> : <SaveIcon />}
              {saving ? 'Saving...' : 'Save Format'}
            </Button>
          </div>
        </div>

        {/* View switch below 2xl: tools (mobile only), canvas, preview */}
        <div className="mt-3 lg:ml-[calc(272px+1.25rem)] 2xl:hidden">
          <div
            role="tablist"
            aria-label="Builder views"
            className="inline-flex h-9 w-full items-center gap-1 rounded-lg bg-secondary p-1 text-muted-foreground lg:w-auto"
            onKeyDown={(e) => {
              if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
              const tabs = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role=tab]')].filter((t) => t.offsetParent !== null);
              const i = tabs.indexOf(document.activeElement as HTMLButtonElement);
              const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
              next?.focus();
              next?.click();
            }}
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

      <div className="mt-2 grid items-start gap-5 lg:grid-cols-[272px_minmax(0,1fr)] 2xl:grid-cols-[248px_minmax(0,1fr)_360px]">
        <aside
          id="builder-panel-tools"
          aria-label="Builder tools"
          className={cn('space-y-6', view === 'tools' ? 'block' : 'hidden lg:block')}
          data-testid="builder-sidebar"
        >
          <ElementPalette onAdd={addElement} />
          <StyleControls
            scopeLabel={styleTarget ? describeElement(styleTarget, elements.indexOf(styleTarget)).split(':')[0] ?? 'Element' : 'Whole document'}
            isElement={!!styleTarget}
            style={styleTarget ? styleTarget.style : doc.content.style}
            inherited={inherited}
            onChange={setStyle}
          />
          <PlaceholderPanel placeholders={doc.placeholders} usage={usage} onAdd={addPlaceholder} onDelete={deletePlaceholder} />
          <PageSetup content={doc.content} update={(fn) => setDoc((d) => ({ ...d, content: fn(d.content) }))} />
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
              onChange={(e) => setDoc((d) => ({ ...d, description: e.target.value }))}
              className="h-9"
            />
          </section>
          <FormattingHints />
        </aside>

        <section
          id="builder-panel-canvas"
          aria-label="Canvas"
          className={cn(
            'min-w-0 rounded-xl border bg-background p-2 shadow-card sm:p-4',
            view === 'canvas' ? 'block' : view === 'tools' ? 'hidden lg:block' : 'hidden 2xl:block',
          )}
          data-testid="builder-canvas"
        >
          <div className="mb-2 flex items-center justify-between px-1.5 text-xs text-muted-foreground">
            <span>
              {elements.length === 0 ? 'No elements' : `${elements.length} element${elements.length === 1 ? '' : 's'}`}
            </span>
            {elements.length > 0 && <span className="hidden sm:inline">Click an element to edit it</span>}
          </div>
          {imported && !savedId && <ImportNotice stored={imported} placeholderCount={doc.placeholders.length} />}
          <Canvas
            elements={elements}
            docStyle={doc.content.style}
            known={known}
            editingId={editingId}
            onEdit={edit}
            onUpdate={updateElement}
            onMove={moveElement}
            onReorder={reorder}
            onDelete={deleteElement}
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
          className={cn('min-w-0 2xl:sticky 2xl:top-[9.5rem] 2xl:h-[calc(100dvh-11rem)]', view === 'preview' ? 'block h-[75dvh] lg:h-[calc(100dvh-15rem)]' : 'hidden 2xl:block')}
        >
          <PreviewPane state={preview} hasElements={elements.length > 0} />
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
      <NewFormatDialog open={newOpen} dirty={dirty} onCreate={createNew} onCancel={() => setNewOpen(false)} />
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
      className={cn(
        'inline-flex h-full flex-1 cursor-pointer items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-[color,background-color,box-shadow] outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/40 lg:flex-none [&_svg]:size-4',
        selected && 'bg-background text-foreground shadow-xs',
        className,
      )}
    >
      {icon}
      {children}
    </button>
  );
}
