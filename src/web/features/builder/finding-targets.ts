import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react';
import type { TAccessibilityFinding } from '../../../contract/accessibility-check';
import type { TElement, TFormatContent } from '../../../contract/format-content';
import { linkAt, linksNamedByAddress } from '../../../contract/inline-markup';
import type { BuilderAction } from './builder-reducer';
import type { BuilderView } from './builder-toolbar';
import { ELEMENT_LABELS, findElement } from './model';

/*
 * Where each accessibility finding is fixed, and the jump there from the check beside the preview:
 * the element opens for editing as a click on it would, and focus goes to the very field that fixes
 * it (the heading's level, the image's alternative text), not only to the element.
 */

/** The fields a finding can lead to; each carries `data-a11y-fix` with its name. */
export type TFixField = 'heading-level' | 'heading-text' | 'image-alt' | 'table-header' | 'text-color' | 'link-text' | 'element-language';

/** Props that mark a control as the one that fixes findings of its kind. */
export const fixField = (field: TFixField) => ({ 'data-a11y-fix': field });

type TFindingTarget =
  /** A field of the element, in its editor on the canvas (`inTools`: in the tools panel while it is edited). */
  | { kind: 'element'; elementId: string; field: TFixField; inTools: boolean }
  /** The whole document's text colour. */
  | { kind: 'document-color' }
  /** The header or footer keeps a colour of its own, which the builder has no control for: it can only drop it. */
  | { kind: 'line-color'; part: 'header' | 'footer' };

const ELEMENT_FIELD: Record<TAccessibilityFinding['code'], TFixField> = {
  image_alt_missing: 'image-alt',
  heading_level_skipped: 'heading-level',
  heading_empty: 'heading-text',
  table_header_missing: 'table-header',
  text_contrast_low: 'text-color',
  link_text_is_address: 'link-text',
  language_mismatch: 'element-language',
};

/** In a text field that holds a link named by its address, selects that link's markup, ready for Ctrl/Cmd+K. */
function selectAddressLink(field: HTMLElement): void {
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) || field.dataset.a11yFix !== 'link-text') return;
  const value = field.value;
  for (let at = value.indexOf('['); at >= 0; at = value.indexOf('[', at + 1)) {
    const link = linkAt(value, at + 1, at + 1);
    if (link && linksNamedByAddress(value.slice(link.start, link.end)).length > 0) {
      field.setSelectionRange(link.start, link.end);
      return;
    }
  }
}

function findingTarget(finding: TAccessibilityFinding): TFindingTarget | null {
  if (finding.elementId) {
    const field = ELEMENT_FIELD[finding.code];
    return { kind: 'element', elementId: finding.elementId, field, inTools: field === 'text-color' };
  }
  if (finding.part === 'format') return { kind: 'document-color' };
  if (finding.part === 'header' || finding.part === 'footer') return { kind: 'line-color', part: finding.part };
  return null;
}

/**
 * What the finding's button says, and whether it changes the format itself (`fix`) rather than
 * leading to the field; null when there is nowhere to go (an element no longer in the format).
 */
export function findingAction(finding: TAccessibilityFinding, elements: readonly TElement[]): { label: string; fix: boolean } | null {
  const target = findingTarget(finding);
  if (!target) return null;
  if (target.kind === 'line-color') return { label: 'Use the document colour', fix: true };
  if (target.kind === 'document-color' || target.inTools) return { label: 'Go to text colour', fix: false };
  const element = findElement(elements, target.elementId)?.element;
  return element ? { label: `Go to ${ELEMENT_LABELS[element.type].toLowerCase()}`, fix: false } : null;
}

function withoutLineColor(content: TFormatContent, part: 'header' | 'footer'): TFormatContent {
  const line = content[part];
  if (!line?.style?.color) return content;
  const { color: _dropped, ...style } = line.style;
  return { ...content, [part]: { ...line, style } };
}

function fieldFor(selector: string, elementId: string | null): HTMLElement | null {
  if (elementId === null) return document.querySelector<HTMLElement>(selector);
  // Compared as data, not spliced into a selector: an id from the API may hold any character.
  const frame = [...document.querySelectorAll<HTMLElement>('[data-element-id]')].find((el) => el.dataset.elementId === elementId);
  return frame?.querySelector<HTMLElement>(selector) ?? frame ?? null;
}

/**
 * The jump from a finding to its fix. Focus moves after the render that opens the element: the
 * builder's effect runs after its editor's own (which focuses the editor's first field), so the
 * field that fixes the finding ends up focused.
 */
export function useFindingJump({
  elements,
  edit,
  setView,
  dispatch,
}: {
  elements: readonly TElement[];
  edit: (id: string | null) => void;
  setView: (view: BuilderView) => void;
  dispatch: Dispatch<BuilderAction>;
}) {
  const pending = useRef<{ selector: string; elementId: string | null } | null>(null);
  const [jumps, setJumps] = useState(0);

  useEffect(() => {
    const request = pending.current;
    pending.current = null;
    if (!request) return;
    const field = fieldFor(request.selector, request.elementId);
    if (!field) return;
    field.focus({ preventScroll: true });
    selectAddressLink(field);
    const behavior = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
    field.scrollIntoView({ block: 'center', behavior });
  }, [jumps]);

  return useCallback(
    (finding: TAccessibilityFinding) => {
      const target = findingTarget(finding);
      if (!target) return;
      if (target.kind === 'line-color') {
        dispatch({ type: 'update-content', update: (content) => withoutLineColor(content, target.part) });
        return;
      }
      const selector = `[data-a11y-fix="${target.kind === 'element' ? target.field : 'text-color'}"]`;
      if (target.kind === 'document-color') {
        // With no element open, the text style is the whole document's.
        edit(null);
        setView('tools');
        pending.current = { selector: `#builder-panel-tools ${selector}`, elementId: null };
      } else {
        if (!findElement(elements, target.elementId)) return;
        edit(target.elementId);
        setView(target.inTools ? 'tools' : 'canvas');
        pending.current = target.inTools ? { selector: `#builder-panel-tools ${selector}`, elementId: null } : { selector, elementId: target.elementId };
      }
      setJumps((n) => n + 1);
    },
    [dispatch, edit, elements, setView],
  );
}
