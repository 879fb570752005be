import {
  ArrowLeftIcon,
  ClipboardPenLineIcon,
  EraserIcon,
  EyeIcon,
  FilePlus2Icon,
  Loader2Icon,
  PanelLeftIcon,
  Redo2Icon,
  SaveIcon,
  SquarePenIcon,
  Undo2Icon,
} from 'lucide-react';
import { LinkButton } from '../../components/ui/link-button';
import type { ComponentProps, ReactNode, RefObject } from 'react';
import { Button } from '../../components/ui/button';
import { withMod, withShortcut } from '../../lib/shortcut-keys';
import { cn } from '../../lib/utils';
import { formatFillHref } from '../formats/format-actions';
import { AddElementMenu, FormatApiMenu, InsertPlaceholderMenu } from './builder-menus';
import { DEFAULT_FORMAT_NAME } from './model';

export type BuilderView = 'tools' | 'canvas' | 'preview';

export interface BuilderToolbarProps {
  name: string;
  nameRef: RefObject<HTMLInputElement | null>;
  nameError: boolean;
  onRename: (name: string) => void;
  onBack: () => void;
  save: {
    /** What the save line under the name says. */
    status: string;
    dirty: boolean;
    savedId: string | null;
    saving: boolean;
    run: () => void;
  };
  history: { canUndo: boolean; canRedo: boolean; undo: () => void; redo: () => void };
  addMenu: ComponentProps<typeof AddElementMenu>;
  placeholderMenu: ComponentProps<typeof InsertPlaceholderMenu>;
  onNew: () => void;
  onClear: () => void;
  onPreview: () => void;
  view: BuilderView;
  onViewChange: (view: BuilderView) => void;
}

/** The builder's top bar: back, the format's name and save state, its actions, and (below xl) the view switch. */
export function BuilderToolbar({ nameRef, save, history, ...p }: BuilderToolbarProps) {
  const saved = !!save.savedId && !save.dirty;
  return (
    <section
      aria-label="Format toolbar"
      className="z-20 -mx-4 -mt-6 bg-[color-mix(in_oklab,var(--color-muted)_40%,white)] px-4 pt-3 pb-3 sm:sticky sm:top-16 sm:-mx-6 sm:-mt-8 sm:px-6 sm:pt-4 lg:-mx-8 lg:px-8"
    >
      <div className="flex flex-col gap-3 rounded-xl border bg-background px-3 py-2.5 shadow-card sm:flex-row sm:items-center sm:px-4">
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <Button variant="ghost" size="icon-sm" aria-label="Back to dashboard" onClick={p.onBack}>
            <ArrowLeftIcon />
          </Button>
          <div className="min-w-0 flex-1">
            {/* The page's heading for screen readers; sighted users see the editable name. */}
            <h1 className="sr-only">Format Builder: {p.name.trim() || DEFAULT_FORMAT_NAME}</h1>
            <label htmlFor="format-name" className="sr-only">
              Format name
            </label>
            <input
              id="format-name"
              ref={nameRef}
              value={p.name}
              placeholder={DEFAULT_FORMAT_NAME}
              maxLength={200}
              aria-invalid={p.nameError || undefined}
              onChange={(e) => p.onRename(e.target.value)}
              className="-ml-1.5 h-8 w-full min-w-0 truncate rounded-md border border-transparent bg-transparent px-1.5 text-[17px] font-semibold tracking-tight text-foreground outline-none hover:border-input focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive"
            />
            <p className="flex items-center gap-1.5 text-xs text-muted-foreground" aria-live="polite" data-testid="save-status">
              <span className={cn('size-1.5 rounded-full', save.dirty ? 'bg-warning' : save.savedId ? 'bg-success' : 'bg-muted-foreground/40')} aria-hidden />
              {save.status}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-1.5">
          <AddElementMenu {...p.addMenu} />
          <InsertPlaceholderMenu {...p.placeholderMenu} />
          <Button
            variant="ghost"
            size="icon-sm"
            onClick={history.undo}
            disabled={!history.canUndo}
            aria-label="Undo"
            aria-keyshortcuts="Control+Z Meta+Z"
            title={withShortcut('Undo', withMod('Z'))}
          >
            <Undo2Icon />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            onClick={history.redo}
            disabled={!history.canRedo}
            aria-label="Redo"
            aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y Meta+Y"
            title={withShortcut('Redo', withMod('Z', { shift: true }))}
          >
            <Redo2Icon />
          </Button>
          <Button variant="ghost" size="sm" onClick={p.onNew} aria-label="New">
            <FilePlus2Icon /> <span className="hidden md:inline">New</span>
          </Button>
          <Button variant="ghost" size="sm" onClick={p.onClear} aria-label="Clear">
            <EraserIcon /> <span className="hidden md:inline">Clear</span>
          </Button>
          {save.savedId && <FormatApiMenu format={{ id: save.savedId, name: p.name, placeholders: p.placeholderMenu.placeholders }} />}
          <Button variant="outline" size="sm" onClick={p.onPreview} aria-label="Preview">
            <EyeIcon /> <span className="hidden md:inline">Preview</span>
          </Button>
          {saved && (
            <LinkButton size="sm" className="ml-auto sm:ml-1" href={formatFillHref(save.savedId!)} icon={ClipboardPenLineIcon}>
              Fill in
            </LinkButton>
          )}
          {/*
            One Save button, whatever the state: focus stays on it through saving and after (a
            disabled or replaced button would drop focus to the page). While saving it is
            aria-disabled, and the save itself ignores a second press.
          */}
          <Button
            id="builder-save"
            size="sm"
            variant={saved ? 'outline' : 'default'}
            className={cn(!saved && 'ml-auto sm:ml-1')}
            onClick={save.run}
            aria-disabled={save.saving || undefined}
            aria-keyshortcuts="Control+S Meta+S"
            title={withShortcut('Save', withMod('S'))}
          >
            {save.saving ? <Loader2Icon className="animate-spin" /> : <SaveIcon />}
            {save.saving ? 'Saving...' : 'Save Format'}
          </Button>
        </div>
      </div>

      {/* View switch below xl: tools (mobile only), canvas, preview */}
      <div className="mt-3 lg:ml-[calc(272px+1.25rem)] xl:hidden">
        <div
          role="tablist"
          aria-label="Builder views"
          className="inline-flex h-9 w-full items-center gap-1 rounded-lg bg-secondary p-1 text-muted-foreground lg:w-auto"
        >
          <ViewTab view="tools" current={p.view} onSelect={p.onViewChange} className="lg:hidden" icon={<PanelLeftIcon />}>
            Elements
          </ViewTab>
          <ViewTab view="canvas" current={p.view} onSelect={p.onViewChange} icon={<SquarePenIcon />}>
            Canvas
          </ViewTab>
          <ViewTab view="preview" current={p.view} onSelect={p.onViewChange} icon={<EyeIcon />}>
            Preview
          </ViewTab>
        </div>
      </div>
    </section>
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
  view: BuilderView;
  current: BuilderView;
  onSelect: (v: BuilderView) => void;
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
