import { useId, useRef } from 'react';
import type { TParagraphElement, TTextStyle } from '../../../../contract/format-content';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { AlignGroup } from '../controls';
import { InlineText } from '../inline-text';
import { fixField } from '../finding-targets';
import { useInsertableField } from '../insert-target';
import { useLinkDialog } from '../link-dialog';
import { emphasisCss, EmphasisTools, Empty, never, textCss, Toolbar, useFocusOnOpen, type ElementUpdater } from './shared';

export function ParagraphView({ el, style, known }: { el: TParagraphElement; style: Required<TTextStyle>; known: ReadonlySet<string> }) {
  return (
    <div style={{ ...textCss(style), ...emphasisCss(el) }} className="break-words">
      {el.content.trim() ? <InlineText text={el.content} known={known} /> : <Empty>Empty paragraph: click to write</Empty>}
    </div>
  );
}

export function ParagraphEditor({ el, index, update }: { el: TParagraphElement; index: number; update: ElementUpdater }) {
  const id = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  useFocusOnOpen(textRef, never);
  const set = (p: Partial<TParagraphElement>) => update((e) => (e.type === 'paragraph' ? { ...e, ...p } : e));
  const link = useLinkDialog(textRef, (content) => set({ content }));
  const field = useInsertableField(`Paragraph ${index + 1}`, (content) => set({ content }), { onLink: link.open });
  return (
    <div className="space-y-3">
      <Toolbar>
        <AlignGroup value={el.align} options={['left', 'center', 'right', 'justify'] as const} onChange={(align) => set({ align })} />
        <EmphasisTools el={el} set={set} field={textRef} setText={(content) => set({ content })} onLink={link.open} />
      </Toolbar>
      <Label htmlFor={`${id}-text`} className="sr-only">
        Paragraph text
      </Label>
      <Textarea
        id={`${id}-text`}
        ref={textRef}
        dir="auto"
        value={el.content}
        rows={Math.min(12, Math.max(4, el.content.split('\n').length + 1))}
        placeholder="Write your paragraph. Use **bold**, *italic*, __underline__, [links](https://…) and {{placeholders}}."
        onChange={(e) => set({ content: e.target.value })}
        {...fixField('link-text')}
        {...field}
      />
      {link.dialog}
    </div>
  );
}
