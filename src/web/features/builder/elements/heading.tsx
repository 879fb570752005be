import { useId, useRef } from 'react';
import { HEADING_SIZES, HEADING_SIZE_PX, type THeadingElement, type TTextStyle } from '../../../../contract/format-content';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { AlignGroup, NativeSelect } from '../controls';
import { InlineText } from '../inline-text';
import { useInsertableField } from '../insert-target';
import { DEFAULT_HEADING_TEXT, HEADING_SIZE_LABELS } from '../model';
import { emphasisCss, EmphasisTools, Empty, textCss, Toolbar, useFocusOnOpen, type ElementUpdater } from './shared';

const isDefaultText = (value: string) => value === DEFAULT_HEADING_TEXT;

export function HeadingView({ el, style, known }: { el: THeadingElement; style: Required<TTextStyle>; known: ReadonlySet<string> }) {
  return (
    <div style={{ ...textCss(style), ...emphasisCss(el), fontSize: HEADING_SIZE_PX[el.fontSize], lineHeight: 1.25 }} className="break-words">
      {el.content.trim() ? <InlineText text={el.content} known={known} markup={false} /> : <Empty>Empty heading: click to write</Empty>}
    </div>
  );
}

export function HeadingEditor({ el, index, update }: { el: THeadingElement; index: number; update: ElementUpdater }) {
  const id = useId();
  const textRef = useRef<HTMLInputElement>(null);
  useFocusOnOpen(textRef, isDefaultText);
  const set = (p: Partial<THeadingElement>) => update((e) => (e.type === 'heading' ? { ...e, ...p } : e));
  // A heading is styled as a whole: its text prints as typed, so no markup goes into it.
  const field = useInsertableField(`Heading ${index + 1}`, (content) => set({ content }), { inlineStyles: false });
  return (
    <div className="space-y-3">
      <Toolbar>
        <label htmlFor={`${id}-size`} className="sr-only">
          Heading size
        </label>
        <NativeSelect id={`${id}-size`} className="w-36" value={el.fontSize} onChange={(e) => set({ fontSize: e.target.value as THeadingElement['fontSize'] })}>
          {HEADING_SIZES.map((s) => (
            <option key={s} value={s}>
              {HEADING_SIZE_LABELS[s]}
            </option>
          ))}
        </NativeSelect>
        <AlignGroup value={el.align} options={['left', 'center', 'right', 'justify'] as const} onChange={(align) => set({ align })} />
        <EmphasisTools el={el} set={set} />
      </Toolbar>
      <Label htmlFor={`${id}-text`} className="sr-only">
        Heading text
      </Label>
      <Input
        id={`${id}-text`}
        ref={textRef}
        value={el.content}
        placeholder="Heading text"
        onChange={(e) => set({ content: e.target.value })}
        className="h-11 text-base font-semibold"
        {...field}
      />
    </div>
  );
}
