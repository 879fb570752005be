import { BoldIcon, ItalicIcon, LinkIcon, UnderlineIcon } from 'lucide-react';
import { useEffect, type CSSProperties, type MouseEvent, type ReactNode, type RefObject } from 'react';
import { DEFAULT_TEXT_STYLE, type TElement, type TTextStyle } from '../../../../contract/format-content';
import { ToolGroup } from '../controls';
import { IconButton } from '../../../components/ui/icon-button';
import { applyInlineMarker } from '../insert-target';
import type { TInlineMarker } from '../model';
import { withMod, withShortcut } from '../../../lib/shortcut-keys';

export type ElementUpdater = (fn: (el: TElement) => TElement) => void;

const FONT_STACKS: Record<string, string> = {
  Arial: 'Arial, Arimo, "Liberation Sans", sans-serif',
  'Times New Roman': '"Times New Roman", Tinos, "Liberation Serif", serif',
  Helvetica: 'Helvetica, Arial, Arimo, "Liberation Sans", sans-serif',
  Inter: '"Inter Variable", Inter, sans-serif',
};

export function effectiveStyle(doc: TTextStyle | undefined, el: TTextStyle | undefined): Required<TTextStyle> {
  return {
    fontFamily: el?.fontFamily ?? doc?.fontFamily ?? DEFAULT_TEXT_STYLE.fontFamily,
    fontSize: el?.fontSize ?? doc?.fontSize ?? DEFAULT_TEXT_STYLE.fontSize,
    color: el?.color ?? doc?.color ?? DEFAULT_TEXT_STYLE.color,
  };
}

export function textCss(style: Required<TTextStyle>): CSSProperties {
  return { fontFamily: FONT_STACKS[style.fontFamily], fontSize: style.fontSize, color: style.color, lineHeight: 1.45 };
}

export function emphasisCss(el: { bold: boolean; italic: boolean; underline: boolean; align: string }): CSSProperties {
  return {
    fontWeight: el.bold ? 700 : 400,
    fontStyle: el.italic ? 'italic' : 'normal',
    textDecoration: el.underline ? 'underline' : 'none',
    textAlign: el.align as CSSProperties['textAlign'],
  };
}

export function Empty({ children }: { children: string }) {
  return <span className="font-sans text-sm text-muted-foreground/80 italic">{children}</span>;
}

/**
 * Bold, italic and underline apply to the words selected in the element's text (`field`, when it
 * takes markup), or to the whole element when nothing is selected. With `onLink`, a Link button
 * asks for a link for the selected words.
 */
export function EmphasisTools({
  el,
  set,
  field,
  setText,
  onLink,
}: {
  el: { bold: boolean; italic: boolean; underline: boolean };
  set: (p: Partial<{ bold: boolean; italic: boolean; underline: boolean }>) => void;
  /** The element's text, when it may carry markup for selected words. */
  field?: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  setText?: (text: string) => void;
  onLink?: () => void;
}) {
  const inline = (marker: TInlineMarker) => !!field?.current && !!setText && applyInlineMarker(field.current, marker, setText);
  // The buttons leave the focus, and so the selection, in the text.
  const keepSelection = (e: MouseEvent) => e.preventDefault();
  // The keys work in the text itself (useInsertableField), so the tooltips name them only there.
  const keyed = (label: string, key: string) => ({
    label,
    ...(field && setText ? { tooltip: withShortcut(label, withMod(key)), 'aria-keyshortcuts': `Control+${key} Meta+${key}` } : {}),
  });
  return (
    <ToolGroup label="Text emphasis">
      <IconButton
        icon={BoldIcon}
        {...keyed('Bold', 'B')}
        pressed={el.bold}
        onMouseDown={keepSelection}
        onClick={() => inline('**') || set({ bold: !el.bold })}
      />
      <IconButton
        icon={ItalicIcon}
        {...keyed('Italic', 'I')}
        pressed={el.italic}
        onMouseDown={keepSelection}
        onClick={() => inline('*') || set({ italic: !el.italic })}
      />
      <IconButton
        icon={UnderlineIcon}
        {...keyed('Underline', 'U')}
        pressed={el.underline}
        onMouseDown={keepSelection}
        onClick={() => inline('__') || set({ underline: !el.underline })}
      />
      {onLink && <IconButton icon={LinkIcon} {...keyed('Link', 'K')} onMouseDown={keepSelection} onClick={onLink} />}
    </ToolGroup>
  );
}

export function Toolbar({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-center gap-2">{children}</div>;
}

/**
 * An editor opens with focus in its first field, so typing goes straight into the element. A text
 * still at its default ("New heading") is selected, so typing replaces it. `selectIf` must be a
 * module-level function: a new one on every render would pull the focus back each time.
 */
export function useFocusOnOpen(ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>, selectIf: (value: string) => boolean) {
  useEffect(() => {
    const field = ref.current;
    if (!field) return;
    field.focus();
    if (selectIf(field.value)) field.select();
  }, [ref, selectIf]);
}

export const never = () => false;
