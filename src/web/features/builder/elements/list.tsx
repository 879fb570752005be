import { ListIcon, ListOrderedIcon, PlusIcon, RepeatIcon, XIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { TListElement, TTextStyle } from '../../../../contract/format-content';
import { placeholderLabel, type TPlaceholder } from '../../../../contract/placeholders';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { NativeSelect, ToolGroup } from '../controls';
import { IconButton } from '../../../components/ui/icon-button';
import { linksNamedByAddress } from '../../../../contract/inline-markup';
import { fixField } from '../finding-targets';
import { InlineText } from '../inline-text';
import { useInsertableField } from '../insert-target';
import { useLinkDialog } from '../link-dialog';
import { DEFAULT_LIST_ITEM } from '../model';
import { Empty, textCss, Toolbar, type ElementUpdater } from './shared';

export function ListView({
  el,
  style,
  known,
  placeholders,
}: {
  el: TListElement;
  style: Required<TTextStyle>;
  known: ReadonlySet<string>;
  placeholders: readonly TPlaceholder[];
}) {
  if (el.items.length === 0) return <Empty>Empty list: click to add items</Empty>;
  // A repeating list's items name the columns of its list.
  const columns = el.repeat ? (placeholders.find((p) => p.name === el.repeat)?.columns ?? []) : [];
  const names = columns.length > 0 ? new Set([...known, ...columns.map((c) => c.name), ...columns.map((c) => `${el.repeat}.${c.name}`)]) : known;
  const Tag = el.listStyle === 'numbered' ? 'ol' : 'ul';
  return (
    <Tag style={textCss(style)} className={cn('space-y-0.5 pl-6 break-words', el.listStyle === 'numbered' ? 'list-decimal' : 'list-disc')}>
      {el.items.map((item, i) => (
        <li key={i}>
          <InlineText text={item} known={names} />
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
  const ref = useRef<HTMLInputElement>(null);
  const link = useLinkDialog(ref, onChange);
  const field = useInsertableField(`List ${index + 1}, item ${itemIndex + 1}`, onChange, { onLink: link.open });
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
        dir="auto"
        aria-label={`Item ${itemIndex + 1}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-9"
        {...(linksNamedByAddress(value).length > 0 ? fixField('link-text') : {})}
        {...field}
      />
      <IconButton icon={XIcon} label={`Remove item ${itemIndex + 1}`} tone="danger" onClick={onRemove} />
      {link.dialog}
    </li>
  );
}

export function ListEditor({
  el,
  index,
  update,
  placeholders,
}: {
  el: TListElement;
  index: number;
  update: ElementUpdater;
  placeholders: readonly TPlaceholder[];
}) {
  const set = (fn: (e: TListElement) => Partial<TListElement>) => update((e) => (e.type === 'list' ? { ...e, ...fn(e) } : e));
  const [focusIndex, setFocusIndex] = useState<number | null>(0);
  const id = useId();
  const lists = placeholders.filter((p) => p.type === 'list');
  const repeatFor = (name: string) =>
    set((e) => {
      if (!name) return { repeat: undefined };
      const columns = lists.find((p) => p.name === name)?.columns ?? [];
      // A list that still holds only the default item starts from the list's columns.
      const untouched = e.items.every((item) => item === DEFAULT_LIST_ITEM || item.trim() === '');
      return {
        repeat: name,
        ...(untouched && columns.length > 0
          ? {
              items: [
                columns
                  .slice(0, 3)
                  .map((c) => `{{${c.name}}}`)
                  .join(' · '),
              ],
            }
          : {}),
      };
    });
  return (
    <div className="space-y-3">
      <Toolbar>
        <ToolGroup label="List style">
          <IconButton icon={ListIcon} label="Bulleted list" pressed={el.listStyle === 'bulleted'} onClick={() => set(() => ({ listStyle: 'bulleted' }))} />
          <IconButton
            icon={ListOrderedIcon}
            label="Numbered list"
            pressed={el.listStyle === 'numbered'}
            onClick={() => set(() => ({ listStyle: 'numbered' }))}
          />
        </ToolGroup>
        <div className="flex flex-wrap items-center gap-2 rounded-lg border border-dashed px-2.5 py-1">
          <RepeatIcon className="size-3.5 text-muted-foreground" aria-hidden />
          <label htmlFor={`${id}-repeat`} className="text-xs font-medium text-muted-foreground">
            Repeat the items for each row of
          </label>
          <NativeSelect
            id={`${id}-repeat`}
            className="w-auto min-w-32"
            value={el.repeat ?? ''}
            disabled={lists.length === 0 && !el.repeat}
            onChange={(e) => repeatFor(e.target.value)}
          >
            <option value="">{lists.length === 0 ? 'no list placeholder yet' : 'nothing (fixed items)'}</option>
            {el.repeat && !lists.some((p) => p.name === el.repeat) && <option value={el.repeat}>{el.repeat} (missing)</option>}
            {lists.map((p) => (
              <option key={p.name} value={p.name}>
                {placeholderLabel(p)}
              </option>
            ))}
          </NativeSelect>
        </div>
      </Toolbar>
      {el.repeat && <p className="text-xs text-muted-foreground">Each item prints once per row; write the row’s values as {'{{column}}'}.</p>}
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
