import { LayoutTemplateIcon, LockIcon, PanelLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TElementType } from '../../../contract/format-content';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { FormatAllowanceNotice } from '../../components/plan/upgrade';
import { useFormatAllowance } from '../../hooks/use-format-allowance';
import { cn } from '../../lib/utils';
import type { BuilderView } from './builder-toolbar';
import { Canvas, type CanvasProps } from './canvas';

/** The middle column: the element count, the notices above the format, and the canvas itself. */
export function BuilderCanvasPanel({
  view,
  canvas,
  onAdd,
  onShowTools,
  notices,
}: {
  view: BuilderView;
  canvas: Omit<CanvasProps, 'emptyState'>;
  onAdd: (type: TElementType) => void;
  onShowTools: () => void;
  notices: ReactNode;
}) {
  const { elements } = canvas;
  return (
    <section
      id="builder-panel-canvas"
      aria-label="Canvas"
      // The target of the page's "Skip to editor" link.
      tabIndex={-1}
      className={cn(
        'min-w-0 rounded-xl border bg-background p-2 shadow-card outline-none sm:p-4',
        view === 'canvas' ? 'block' : view === 'tools' ? 'hidden lg:block' : 'hidden xl:block',
      )}
      data-testid="builder-canvas"
    >
      <div className="mb-2 flex items-center justify-between px-1.5 text-xs text-muted-foreground">
        <span>{elements.length === 0 ? 'No elements' : `${elements.length} element${elements.length === 1 ? '' : 's'}`}</span>
        {elements.length > 0 && <span className="hidden sm:inline">Click an element to edit it</span>}
      </div>
      {notices}
      <Canvas {...canvas} emptyState={<EmptyCanvas onAdd={onAdd} />} />
      {elements.length > 0 && (
        <div className="mt-3 flex flex-wrap gap-2 border-t px-1.5 pt-3 lg:hidden">
          <Button variant="outline" size="sm" onClick={onShowTools}>
            <PanelLeftIcon /> Add element or placeholder
          </Button>
        </div>
      )}
    </section>
  );
}

function EmptyCanvas({ onAdd }: { onAdd: (type: TElementType) => void }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-lg border border-dashed bg-muted/30 px-6 py-16 text-center" data-testid="canvas-empty">
      <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-background shadow-card ring-1 ring-border">
        <LayoutTemplateIcon className="size-5 text-primary" aria-hidden />
      </div>
      <p className="text-sm font-semibold text-foreground">Start building your format</p>
      <p className="mt-1 max-w-sm text-sm text-muted-foreground">
        Add a heading, paragraph, list, table or image. Then add placeholders like <code className="font-mono text-foreground">{'{{client_name}}'}</code> and
        Formwork builds the form for you.
      </p>
      <div className="mt-5 flex flex-wrap justify-center gap-2">
        <Button size="sm" onClick={() => onAdd('heading')}>
          Add a heading
        </Button>
        <Button size="sm" variant="outline" onClick={() => onAdd('paragraph')}>
          Add a paragraph
        </Button>
      </div>
    </div>
  );
}

/**
 * Above the canvas: the plan's format limit (for a format not saved yet), and the read-only notice
 * for a format the plan no longer lets the user edit.
 */
export function PlanNotices({ isNew, readOnly, onUpgrade, onSeePlans }: { isNew: boolean; readOnly: boolean; onUpgrade: () => void; onSeePlans: () => void }) {
  const allowance = useFormatAllowance();
  return (
    <>
      {isNew && allowance?.atLimit && allowance.limit !== null && (
        <div className="mb-3">
          <FormatAllowanceNotice used={allowance.used} limit={allowance.limit} planName={allowance.planName} onUpgrade={onUpgrade} />
        </div>
      )}
      {readOnly && (
        <Alert variant="info" className="mb-3" data-testid="read-only-notice">
          <LockIcon aria-hidden />
          <AlertTitle>Read-only on the {allowance?.planName ?? 'current'} plan</AlertTitle>
          <AlertDescription>
            <p>This format is kept, and you can fill it in, but your plan has room to edit only your most recent formats. Upgrade to edit it again.</p>
            <Button size="sm" className="mt-1" onClick={onSeePlans}>
              See plans
            </Button>
          </AlertDescription>
        </Alert>
      )}
    </>
  );
}
