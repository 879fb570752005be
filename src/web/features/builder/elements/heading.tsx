import { useId, useRef } from 'react';
import { HEADING_SIZES, HEADING_SIZE_PX, headingLevel, type THeadingElement, type THeadingLevel, type TTextStyle } from '../../../../contract/format-content';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { HeadingLevelBadge } from '../canvas-badges';
import { AlignGroup, NativeSelect } from '../controls';
import { fixField } from '../finding-targets';
import { InlineText } from '../inline-text';
import { useInsertableField } from '../insert-target';
import { DEFAULT_HEADING_TEXT, HEADING_SIZE_LABELS } from '../model';
import { emphasisCss, EmphasisTools, Empty, textCss, Toolbar, useFocusOnOpen, type ElementUpdater } from './shared';

const isDefaultText = (value: string) => value === DEFAULT_HEADING_TEXT;

const HEADING_LEVELS: readonly THeadingLevel[] = [1, 2, 3, 4, 5, 6];

export function HeadingView({ el, style, known }: { el: THeadingElement; style: Required<TTextStyle>; known: ReadonlySet<string> }) {
  return (
    <div className="flex items-baseline gap-2">
      <HeadingLevelBadge level={headingLevel(el)} />
      <div style={{ ...textCss(style), ...emphasisCss(el), fontSize: HEADING_SIZE_PX[el.fontSize], lineHeight: 1.25 }} className="min-w-0 flex-1 break-words">
        {el.content.trim() ? <InlineText text={el.content} known={known} markup={false} /> : <Empty>Empty heading: click to write</Empty>}
      </div>
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
        <NativeSelect
          id={`${id}-size`}
          className="w-36"
          value={el.fontSize}
          onChange={(e) => {
            const fontSize = e.target.value as THeadingElement['fontSize'];
            // A heading saved before levels followed its size: it keeps the level it had, so a new size changes only its looks.
            update((h) => (h.type === 'heading' ? { ...h, fontSize, level: headingLevel(h) } : h));
          }}
        >
          {HEADING_SIZES.map((s) => (
            <option key={s} value={s}>
              {HEADING_SIZE_LABELS[s]}
            </option>
          ))}
        </NativeSelect>
        <label htmlFor={`${id}-level`} className="sr-only">
          Heading level
        </label>
        <NativeSelect
          id={`${id}-level`}
          className="w-32"
          title="Its level in the document’s outline, as screen readers announce it"
          value={headingLevel(el)}
          onChange={(e) => set({ level: Number(e.target.value) as THeadingLevel })}
          {...fixField('heading-level')}
        >
          {HEADING_LEVELS.map((level) => (
            <option key={level} value={level}>
              Heading {level}
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
        dir="auto"
        value={el.content}
        placeholder="Heading text"
        onChange={(e) => set({ content: e.target.value })}
        className="h-11 text-base font-semibold"
        {...fixField('heading-text')}
        {...field}
      />
    </div>
  );
}
