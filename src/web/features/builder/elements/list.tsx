import { ListIcon, ListOrderedIcon, PlusIcon, XIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { TListElement, TTextStyle } from '../../../../contract/format-content';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { IconButton, ToolGroup } from '../controls';
import { InlineText } from '../inline-text';
import { useInsertableField } from '../insert-target';
import { DEFAULT_LIST_ITEM } from '../model';
import { Empty, textCss, Toolbar, type ElementUpdater } from './shared';

export function ListView({ el, style, known }: { el: TListElement; style: Required<TTextStyle>; known: ReadonlySet<string> }) {
  if (el.items.length === 0) return <Empty>Empty list: click to add items</Empty>;
  const Tag = el.listStyle === 'numbered' ? 'ol' : 'ul';
  return (
    <Tag style={textCss(style)} className={cn('space-y-0.5 pl-6 break-words', el.listStyle === 'numbered' ? 'list-decimal' : 'list-disc')}>
      {el.items.map((item, i) => (
        <li key={i}>
          <InlineText text={item} known={known} />
        </li>
      ))}
    </Tag>
  );
}

function ListItemInput({
  value,
  index,
  itemIndex,
  onChange,
  onRemove,
  focused,
}: {
  value: string;
  index: number;
  itemIndex: number;
  onChange: (v: string) => void;
  onRemove: () => void;
  /** Takes the focus (a new item, or the first when the list opens), its default text selected. */
  focused: boolean;
}) {
  const field = useInsertableField(`List ${index + 1}, item ${itemIndex + 1}`, onChange);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!focused || !ref.current) return;
    ref.current.focus();
    if (ref.current.value === DEFAULT_LIST_ITEM) ref.current.select();
  }, [focused]);
  return (
    <li className="flex items-center gap-2">
      <span className="w-5 shrink-0 text-right text-xs text-muted-foreground tabular-nums" aria-hidden>
        {itemIndex + 1}.
      </span>
      <Input
        ref={ref}
        aria-label={`Item ${itemIndex + 1}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-9"
        {...field}
      />
      <IconButton icon={XIcon} label={`Remove item ${itemIndex + 1}`} tone="danger" onClick={onRemove} />
    </li>
  );
}

export function ListEditor({ el, index, update }: { el: TListElement; index: number; update: ElementUpdater }) {
  const set = (fn: (e: TListElement) => Partial<TListElement>) => update((e) => (e.type === 'list' ? { ...e, ...fn(e) } : e));
  const [focusIndex, setFocusIndex] = useState<number | null>(0);
  return (
    <div className="space-y-3">
      <Toolbar>
        <ToolGroup label="List style">
          <IconButton icon={ListIcon} label="Bulleted list" pressed={el.listStyle === 'bulleted'} onClick={() => set(() => ({ listStyle: 'bulleted' }))} />
          <IconButton icon={ListOrderedIcon} label="Numbered list" pressed={el.listStyle === 'numbered'} onClick={() => set(() => ({ listStyle: 'numbered' }))} />
        </ToolGroup>
      </Toolbar>
      <ul className="space-y-2" aria-label="List items">
        {el.items.map((item, i) => (
          <ListItemInput
            key={i}
            value={item}
            index={index}
            itemIndex={i}
            focused={focusIndex === i}
            onChange={(v) => set((e) => ({ items: e.items.map((x, j) => (j === i ? v : x)) }))}
            onRemove={() => set((e) => ({ items: e.items.filter((_, j) => j !== i) }))}
          />
        ))}
      </ul>
      {el.items.length === 0 && <p className="text-sm text-muted-foreground">No items. Add one below.</p>}
      <Button
        variant="outline"
        size="sm"
        onClick={() => {
          setFocusIndex(el.items.length);
          set((e) => ({ items: [...e.items, DEFAULT_LIST_ITEM] }));
        }}
      >
        <PlusIcon /> Add item
      </Button>
    </div>
  );
}
