import { ChevronDownIcon, CircleCheckIcon, TriangleAlertIcon } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { TAccessibilityFinding } from '../../../contract/accessibility-check';
import type { TElement } from '../../../contract/format-content';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { WARNING_TONE } from './controls';
import { findingAction } from './finding-targets';

/**
 * Beside the preview: what the format's documents lack for readers who use a screen reader or
 * cannot tell low-contrast text apart (contract/accessibility-check.ts), each with a way to the
 * field that fixes it. It can fold to its title line, so the preview keeps the height.
 */
export function AccessibilityPanel({
  findings,
  elements,
  onAct,
}: {
  findings: readonly TAccessibilityFinding[];
  elements: readonly TElement[];
  /** Leads to the finding's field, or fixes it where the builder has no field for it. */
  onAct: (finding: TAccessibilityFinding) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(true);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const count = findings.length;
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border bg-background px-3 py-2.5 shadow-card" data-testid="accessibility-check">
      <div className="flex min-h-7 flex-wrap items-center gap-x-2 gap-y-1">
        <h2
          id={`${id}-title`}
          ref={titleRef}
          tabIndex={-1}
          className="rounded-sm text-[11px] font-semibold tracking-wider text-muted-foreground/90 uppercase outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          Accessibility
        </h2>
        {/* Announced when the count changes, so a fix made in the editor is heard to have worked. */}
        <p role="status" className="flex min-w-0 items-center text-xs">
          {count === 0 ? (
            <span className="flex items-center gap-1.5 text-emerald-700" data-testid="accessibility-ok">
              <CircleCheckIcon className="size-3.5 shrink-0" aria-hidden />
              No accessibility problems found
            </span>
          ) : (
            <Badge variant="outline" className={cn('tabular-nums', WARNING_TONE)} data-testid="accessibility-count">
              {count}
              <span className="sr-only">{count === 1 ? ' problem found' : ' problems found'}</span>
            </Badge>
          )}
        </p>
        {count > 0 && (
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto h-7 px-2 text-xs text-muted-foreground"
            aria-expanded={open}
            aria-controls={`${id}-list`}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Hide' : 'Show'}
            <ChevronDownIcon className={cn('size-3.5 transition-transform', open && 'rotate-180')} aria-hidden />
          </Button>
        )}
      </div>
      {count > 0 && (
        <ul id={`${id}-list`} hidden={!open} aria-label="Accessibility problems" className="mt-1.5 divide-y xl:max-h-44 xl:overflow-y-auto">
          {findings.map((finding, i) => {
            const action = findingAction(finding, elements);
            return (
              <li
                key={`${finding.code}:${finding.elementId ?? finding.part ?? ''}:${i}`}
                className="flex items-start gap-2 py-2"
                data-testid="accessibility-finding"
              >
                <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-[oklch(0.55_0.13_65)]" aria-hidden />
                <div className="min-w-0 flex-1">
                  <p id={`${id}-finding-${i}`} className="text-xs leading-relaxed break-words text-foreground">
                    {finding.message}
                  </p>
                  {action && (
                    <Button
                      variant="outline"
                      size="sm"
                      className="mt-1.5 h-7 px-2.5 text-xs"
                      aria-describedby={`${id}-finding-${i}`}
                      onClick={() => {
                        onAct(finding);
                        // The fix takes the finding, and this button, away: focus stays in the check.
                        if (action.fix) titleRef.current?.focus();
                      }}
                    >
                      {action.label}
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
