import {
  BoldIcon,
  ImageIcon,
  ImageUpIcon,
  ItalicIcon,
  ListIcon,
  ListOrderedIcon,
  Loader2Icon,
  PlusIcon,
  Trash2Icon,
  UnderlineIcon,
  XIcon,
} from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type CSSProperties } from 'react';
import {
  DEFAULT_TEXT_STYLE,
  HEADING_SIZES,
  HEADING_SIZE_PX,
  MAX_IMAGE_PX,
  MAX_TABLE_COLUMNS,
  ZImageFromUrlBody,
  type TElement,
  type THeadingElement,
  type TImageElement,
  type TListElement,
  type TParagraphElement,
  type TTableElement,
  type TTextStyle,
} from '../../../contract/format-content';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../hooks/use-toast';
import { readApiError } from '../../lib/api';
import { handleIfUnauthorized } from '../../lib/unauthorized';
import { cn } from '../../lib/utils';
import { IMAGE_ACCEPT, imageFromUrl, MAX_IMAGE_BYTES, uploadImage } from './api';
import { AlignGroup, IconButton, NativeSelect, ToolGroup } from './controls';
import { InlineText } from './inline-text';
import { useInsertableField } from './insert-target';
import { columnPercents, HEADING_SIZE_LABELS, MIN_COLUMN_PERCENT, withColumnPercent } from './model';

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

function textCss(style: Required<TTextStyle>): CSSProperties {
  return { fontFamily: FONT_STACKS[style.fontFamily], fontSize: style.fontSize, color: style.color, lineHeight: 1.45 };
}

function emphasisCss(el: { bold: boolean; italic: boolean; underline: boolean; align: string }): CSSProperties {
  return {
    fontWeight: el.bold ? 700 : 400,
    fontStyle: el.italic ? 'italic' : 'normal',
    textDecoration: el.underline ? 'underline' : 'none',
    textAlign: el.align as CSSProperties['textAlign'],
  };
}

function Empty({ children }: { children: string }) {
  return <span className="font-sans text-sm text-muted-foreground/80 italic">{children}</span>;
}

/* ----------------------------------------------------------------- views */

export function ElementView({ el, docStyle, known }: { el: TElement; docStyle: TTextStyle | undefined; known: ReadonlySet<string> }) {
  const style = effectiveStyle(docStyle, el.style);
  switch (el.type) {
    case 'heading':
      return (
        <div style={{ ...textCss(style), ...emphasisCss(el), fontSize: HEADING_SIZE_PX[el.fontSize], lineHeight: 1.25 }} className="break-words">
          {el.content.trim() ? <InlineText text={el.content} known={known} /> : <Empty>Empty heading: click to write</Empty>}
        </div>
      );
    case 'paragraph':
      return (
        <div style={{ ...textCss(style), ...emphasisCss(el) }} className="break-words">
          {el.content.trim() ? <InlineText text={el.content} known={known} /> : <Empty>Empty paragraph: click to write</Empty>}
        </div>
      );
    case 'list': {
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
    case 'table':
      return (
        <div className="overflow-x-auto">
          <table style={textCss(style)} className="w-full table-fixed border-collapse">
            <colgroup>
              {columnPercents(el.columnWidths, Math.max(1, ...el.rows.map((r) => r.length))).map((p, c) => (
                <col key={c} style={{ width: `${p}%` }} />
              ))}
            </colgroup>
            <tbody>
              {el.rows.map((row, r) => (
                <tr key={r} className={cn(el.headerRow && r === 0 && 'bg-muted font-semibold')}>
                  {row.map((cell, c) => (
                    <td key={c} className="border border-[oklch(0.8_0.01_275)] px-2 py-1 align-top break-words">
                      {cell ? <InlineText text={cell} known={known} /> : <span className="inline-block h-[1em]" />}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'image':
      return <ImageView el={el} />;
  }
}

const JUSTIFY = { left: 'justify-start', center: 'justify-center', right: 'justify-end' } as const;

function ImageView({ el }: { el: TImageElement }) {
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const box = { width: el.width, height: el.height, maxWidth: '100%' };
  // An address the browser cannot show here (http:// under our content policy, or a host that
  // refuses other sites) is fetched once by the server, the way the PDF gets it, and shown from
  // our own origin. The element keeps its address.
  const byAddress = /^https?:\/\//i.test(el.src);
  const copy = useQuery({
    queryKey: ['image-by-address', el.src],
    queryFn: () => imageFromUrl(el.src),
    enabled: byAddress && failed.has(el.src),
    retry: false,
    staleTime: Infinity,
  });
  const shown = [el.src, copy.data].find((src) => src && !failed.has(src));
  if (shown) {
    return (
      <div className={cn('flex', JUSTIFY[el.align])}>
        <img
          src={shown}
          alt=""
          style={box}
          className="rounded-sm object-contain"
          onError={() => setFailed((before) => new Set(before).add(shown))}
        />
      </div>
    );
  }
  const message = !el.src
    ? 'No image yet: click to add one'
    : copy.isError
      ? readApiError(copy.error, 'This image could not be loaded.').message
      : byAddress && !copy.isSuccess
        ? 'Loading the image…'
        : 'This image cannot be shown.';
  return (
    <div className={cn('flex', JUSTIFY[el.align])}>
      <div
        style={{ ...box, aspectRatio: `${el.width} / ${el.height}`, height: 'auto', maxHeight: el.height }}
        className="flex min-h-20 flex-col items-center justify-center gap-1.5 rounded-md border border-dashed bg-muted/60 px-3 text-center font-sans text-xs text-muted-foreground"
      >
        <ImageIcon className="size-5" aria-hidden />
        <span role={copy.isError ? 'alert' : undefined}>{message}</span>
        <span className="tabular-nums">
          {el.width} × {el.height}
        </span>
      </div>
    </div>
  );
}

function EmphasisTools({
  el,
  set,
}: {
  el: { bold: boolean; italic: boolean; underline: boolean };
  set: (p: Partial<{ bold: boolean; italic: boolean; underline: boolean }>) => void;
}) {
  return (
    <ToolGroup label="Text emphasis">
      <IconButton icon={BoldIcon} label="Bold" pressed={el.bold} onClick={() => set({ bold: !el.bold })} />
      <IconButton icon={ItalicIcon} label="Italic" pressed={el.italic} onClick={() => set({ italic: !el.italic })} />
      <IconButton icon={UnderlineIcon} label="Underline" pressed={el.underline} onClick={() => set({ underline: !el.underline })} />
    </ToolGroup>
  );
}

function Toolbar({ children }: { children: React.ReactNode }) {
  return <div className="flex flex-wrap items-center gap-2">{children}</div>;
}

export function ElementEditor({ el, index, update }: { el: TElement; index: number; update: ElementUpdater }) {
  switch (el.type) {
    case 'heading':
      return <HeadingEditor el={el} index={index} update={update} />;
    case 'paragraph':
      return <ParagraphEditor el={el} index={index} update={update} />;
    case 'list':
      return <ListEditor el={el} index={index} update={update} />;
    case 'table':
      return <TableEditor el={el} index={index} update={update} />;
    case 'image':
      return <ImageEditor el={el} update={update} />;
  }
}

function HeadingEditor({ el, index, update }: { el: THeadingElement; index: number; update: ElementUpdater }) {
  const id = useId();
  const set = (p: Partial<THeadingElement>) => update((e) => (e.type === 'heading' ? { ...e, ...p } : e));
  const field = useInsertableField(`Heading ${index + 1}`, (content) => set({ content }));
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
          onChange={(e) => set({ fontSize: e.target.value as THeadingElement['fontSize'] })}
        >
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
        autoFocus
        value={el.content}
        placeholder="Heading text"
        onChange={(e) => set({ content: e.target.value })}
        className="h-11 text-base font-semibold"
        {...field}
      />
    </div>
  );
}

function ParagraphEditor({ el, index, update }: { el: TParagraphElement; index: number; update: ElementUpdater }) {
  const id = useId();
  const set = (p: Partial<TParagraphElement>) => update((e) => (e.type === 'paragraph' ? { ...e, ...p } : e));
  const field = useInsertableField(`Paragraph ${index + 1}`, (content) => set({ content }));
  return (
    <div className="space-y-3">
      <Toolbar>
        <AlignGroup value={el.align} options={['left', 'center', 'right', 'justify'] as const} onChange={(align) => set({ align })} />
        <EmphasisTools el={el} set={set} />
      </Toolbar>
      <Label htmlFor={`${id}-text`} className="sr-only">
        Paragraph text
      </Label>
      <Textarea
        id={`${id}-text`}
        autoFocus
        value={el.content}
        rows={Math.min(12, Math.max(4, el.content.split('\n').length + 1))}
        placeholder="Write your paragraph. Use **bold**, *italic* and {{placeholders}}."
        onChange={(e) => set({ content: e.target.value })}
        {...field}
      />
    </div>
  );
}

function ListItemInput({
  value,
  index,
  itemIndex,
  onChange,
  onRemove,
  autoFocus,
}: {
  value: string;
  index: number;
  itemIndex: number;
  onChange: (v: string) => void;
  onRemove: () => void;
  autoFocus: boolean;
}) {
  const field = useInsertableField(`List ${index + 1}, item ${itemIndex + 1}`, onChange);
  return (
    <li className="flex items-center gap-2">
      <span className="w-5 shrink-0 text-right text-xs text-muted-foreground tabular-nums" aria-hidden>
        {itemIndex + 1}.
      </span>
      <Input
        aria-label={`Item ${itemIndex + 1}`}
        value={value}
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.target.value)}
        className="h-9"
        {...field}
      />
      <IconButton icon={XIcon} label={`Remove item ${itemIndex + 1}`} tone="danger" onClick={onRemove} />
    </li>
  );
}

function ListEditor({ el, index, update }: { el: TListElement; index: number; update: ElementUpdater }) {
  const set = (fn: (e: TListElement) => Partial<TListElement>) => update((e) => (e.type === 'list' ? { ...e, ...fn(e) } : e));
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
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
            autoFocus={focusIndex === i}
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
          set((e) => ({ items: [...e.items, 'New item'] }));
        }}
      >
        <PlusIcon /> Add item
      </Button>
    </div>
  );
}

function TableCellInput({
  value,
  label,
  onChange,
  header,
}: {
  value: string;
  label: string;
  onChange: (v: string) => void;
  header: boolean;
}) {
  const field = useInsertableField(label, onChange);
  return (
    <input
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={cn(
        'h-9 w-full min-w-0 bg-transparent px-2 text-sm outline-none focus-visible:bg-primary-soft/60 focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:ring-inset',
        header && 'font-semibold',
      )}
      {...field}
    />
  );
}

/** A column's share of the table in percent; applied on Enter or when focus leaves. */
function ColumnWidthInput({
  percent,
  label,
  disabled,
  onCommit,
}: {
  percent: number;
  label: string;
  disabled: boolean;
  onCommit: (percent: number) => void;
}) {
  const shown = String(Math.round(percent));
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    const value = Number(draft);
    if (draft.trim() !== '' && Number.isFinite(value) && Math.round(value) !== Math.round(percent)) onCommit(value);
    setDraft(null);
  };
  return (
    <label className="flex items-center gap-0.5 text-xs font-normal text-muted-foreground" title="Column width, as a share of the table">
      <input
        type="number"
        inputMode="numeric"
        min={MIN_COLUMN_PERCENT}
        max={100}
        aria-label={label}
        disabled={disabled}
        value={draft ?? shown}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(null);
        }}
        className="h-7 w-12 rounded border bg-background px-1 text-right text-xs text-foreground tabular-nums outline-none focus-visible:ring-2 focus-visible:ring-ring/40 disabled:opacity-60"
      />
      %
    </label>
  );
}

function TableEditor({ el, index, update }: { el: TTableElement; index: number; update: ElementUpdater }) {
  const set = (fn: (e: TTableElement) => Partial<TTableElement>) => update((e) => (e.type === 'table' ? { ...e, ...fn(e) } : e));
  const cols = Math.max(1, ...el.rows.map((r) => r.length));
  const rows = el.rows.length;
  const headerId = useId();

  const addRow = () => set((e) => ({ rows: [...e.rows, Array.from({ length: Math.max(1, ...e.rows.map((r) => r.length)) }, () => '')] }));
  const addColumn = () =>
    set((e) => {
      const before = Math.max(1, ...e.rows.map((x) => x.length));
      return {
        rows: e.rows.map((r) => [...r, ...Array.from({ length: before - r.length + 1 }, () => '')]),
        // A new column gets an average share rather than the weight of 1 a missing width means.
        ...(e.columnWidths ? { columnWidths: [...columnPercents(e.columnWidths, before), 100 / before] } : {}),
      };
    });
  const percents = columnPercents(el.columnWidths, cols);
  const setWidth = (c: number, percent: number) => set((e) => ({ columnWidths: withColumnPercent(e.columnWidths, cols, c, percent) }));
  const deleteRow = (r: number) => set((e) => (e.rows.length <= 1 ? {} : { rows: e.rows.filter((_, i) => i !== r) }));
  const deleteColumn = (c: number) =>
    set((e) =>
      Math.max(1, ...e.rows.map((r) => r.length)) <= 1
        ? {}
        : {
            rows: e.rows.map((r) => r.filter((_, i) => i !== c)),
            ...(e.columnWidths ? { columnWidths: e.columnWidths.filter((_, i) => i !== c) } : {}),
          },
    );
  const setCell = (r: number, c: number, v: string) =>
    set((e) => ({
      rows: e.rows.map((row, i) => {
        if (i !== r) return row;
        const next = row.slice();
        while (next.length <= c) next.push('');
        next[c] = v;
        return next;
      }),
    }));

  return (
    <div className="space-y-3">
      <Toolbar>
        <Button variant="outline" size="sm" onClick={addRow}>
          <PlusIcon /> Add row
        </Button>
        <Button variant="outline" size="sm" onClick={addColumn} disabled={cols >= MAX_TABLE_COLUMNS}>
          <PlusIcon /> Add column
        </Button>
        <label htmlFor={headerId} className="ml-1 flex cursor-pointer items-center gap-2 text-sm font-medium">
          <input
            id={headerId}
            type="checkbox"
            checked={el.headerRow}
            onChange={(e) => set(() => ({ headerRow: e.target.checked }))}
            className="size-4 cursor-pointer accent-[var(--color-primary)]"
          />
          Header row
        </label>
        {el.columnWidths && (
          <Button variant="ghost" size="sm" onClick={() => set(() => ({ columnWidths: undefined }))}>
            Even widths
          </Button>
        )}
        <span className="ml-auto text-xs text-muted-foreground tabular-nums">
          {rows} × {cols}
        </span>
      </Toolbar>
      <div className="overflow-x-auto rounded-md border">
        {/* Wide enough that the narrowest column still takes a few words (6 rem); scrolls beyond that. */}
        <table
          className="w-full table-fixed border-collapse"
          style={{ minWidth: `${Math.min(40, Math.max(cols * 7.5, 600 / Math.min(...percents)))}rem` }}
        >
          <colgroup>
            {percents.map((p, c) => (
              <col key={c} style={{ width: `${p}%` }} />
            ))}
            <col className="w-9" />
          </colgroup>
          <thead>
            <tr>
              {Array.from({ length: cols }, (_, c) => (
                <th key={c} scope="col" className="border-b bg-muted/60 px-1 py-0.5">
                  <div className="flex flex-wrap items-center justify-between gap-1">
                    <ColumnWidthInput
                      percent={percents[c] ?? 100}
                      label={`Table ${index + 1}, column ${c + 1} width in percent`}
                      disabled={cols <= 1}
                      onCommit={(p) => setWidth(c, p)}
                    />
                    <IconButton
                      icon={Trash2Icon}
                      label={`Delete column ${c + 1}`}
                      tone="danger"
                      disabled={cols <= 1}
                      onClick={() => deleteColumn(c)}
                      className="size-7"
                    />
                  </div>
                </th>
              ))}
              <th className="w-9 border-b bg-muted/60" aria-hidden />
            </tr>
          </thead>
          <tbody>
            {el.rows.map((row, r) => (
              <tr key={r} className={cn(el.headerRow && r === 0 && 'bg-muted/70')}>
                {Array.from({ length: cols }, (_, c) => (
                  <td key={c} className="border-r border-b last:border-r-0">
                    <TableCellInput
                      value={row[c] ?? ''}
                      label={`Table ${index + 1}, row ${r + 1}, column ${c + 1}`}
                      header={el.headerRow && r === 0}
                      onChange={(v) => setCell(r, c, v)}
                    />
                  </td>
                ))}
                <td className="w-9 border-b bg-muted/30 p-0.5 text-center">
                  <IconButton
                    icon={Trash2Icon}
                    label={`Delete row ${r + 1}`}
                    tone="danger"
                    disabled={rows <= 1}
                    onClick={() => deleteRow(r)}
                    className="size-7"
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function clampPx(value: string, fallback: number): number {
  const n = Math.round(Number(value));
  if (!Number.isFinite(n) || n < 1) return fallback;
  return Math.min(MAX_IMAGE_PX, n);
}

function ImageEditor({ el, update }: { el: TImageElement; update: ElementUpdater }) {
  const id = useId();
  const set = (p: Partial<TImageElement>) => update((e) => (e.type === 'image' ? { ...e, ...p } : e));
  const [url, setUrl] = useState(el.src.startsWith('/api/assets/') ? '' : el.src);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  const [fetching, setFetching] = useState(false);
  // The server fetches the image once and keeps it like an upload: the canvas then shows, from our
  // own origin (http:// images too), exactly what the PDF will embed, and a bad address is told now.
  const applyUrl = async () => {
    const parsed = ZImageFromUrlBody.safeParse({ url });
    if (!parsed.success) {
      setUrlError(parsed.error.issues[0]?.message ?? 'Enter an image address starting with http:// or https://');
      return;
    }
    setUrlError(null);
    setFetching(true);
    try {
      set({ src: await imageFromUrl(parsed.data.url) });
      toast({ title: 'Image Added', description: 'The image was fetched and added to the format.' });
    } catch (error) {
      if (!handleIfUnauthorized(error)) setUrlError(readApiError(error, 'The image could not be loaded from this address.').message);
    } finally {
      setFetching(false);
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (!IMAGE_ACCEPT.split(',').includes(file.type)) {
      toast({ variant: 'destructive', title: 'Unsupported image', description: 'Use a PNG, JPEG, GIF or WebP image.' });
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      toast({ variant: 'destructive', title: 'Image too large', description: 'Images can be at most 10 MB.' });
      return;
    }
    setUploading(true);
    try {
      const src = await uploadImage(file);
      set({ src });
      setUrl('');
      setUrlError(null);
      toast({ title: 'Image Uploaded', description: `${file.name} was added to the format.` });
    } catch (error) {
      if (!handleIfUnauthorized(error)) {
        toast({ variant: 'destructive', title: 'Upload failed', description: readApiError(error, 'The image could not be uploaded.').message });
      }
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-url`}>Image URL</Label>
          <div className="flex gap-2">
            <Input
              id={`${id}-url`}
              type="url"
              inputMode="url"
              placeholder="https://example.com/logo.png"
              value={url}
              aria-invalid={urlError ? true : undefined}
              aria-describedby={urlError ? `${id}-url-error` : undefined}
              onChange={(e) => setUrl(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  if (!fetching) void applyUrl();
                }
              }}
              className="h-9"
            />
            <Button variant="secondary" size="sm" className="h-9" onClick={() => void applyUrl()} disabled={fetching}>
              {fetching && <Loader2Icon className="animate-spin" aria-hidden />}
              {fetching ? 'Fetching...' : 'Use URL'}
            </Button>
          </div>
        </div>
        <div className="flex items-center gap-2">
          <span className="text-xs text-muted-foreground sm:hidden">or</span>
          <input
            ref={fileRef}
            id={`${id}-file`}
            type="file"
            accept={IMAGE_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          <Button variant="outline" size="sm" className="h-9" disabled={uploading} onClick={() => fileRef.current?.click()}>
            {uploading ? <Loader2Icon className="animate-spin" /> : <ImageUpIcon />}
            {uploading ? 'Uploading...' : 'Upload image'}
          </Button>
        </div>
      </div>
      {urlError && (
        <p id={`${id}-url-error`} className="-mt-2 text-xs text-destructive" role="alert">
          {urlError}
        </p>
      )}
      <p className="-mt-2 text-xs text-muted-foreground">PNG, JPEG, GIF or WebP, up to 10 MB.</p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-w`}>Width (px)</Label>
          <Input
            id={`${id}-w`}
            type="number"
            min={1}
            max={MAX_IMAGE_PX}
            defaultValue={el.width}
            key={`w${el.width}`}
            onBlur={(e) => set({ width: clampPx(e.target.value, el.width) })}
            onKeyDown={(e) => e.key === 'Enter' && set({ width: clampPx(e.currentTarget.value, el.width) })}
            className="h-9 w-24"
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-h`}>Height (px)</Label>
          <Input
            id={`${id}-h`}
            type="number"
            min={1}
            max={MAX_IMAGE_PX}
            defaultValue={el.height}
            key={`h${el.height}`}
            onBlur={(e) => set({ height: clampPx(e.target.value, el.height) })}
            onKeyDown={(e) => e.key === 'Enter' && set({ height: clampPx(e.currentTarget.value, el.height) })}
            className="h-9 w-24"
          />
        </div>
        <div className="space-y-1.5">
          <span className="block text-sm leading-none font-medium">Alignment</span>
          <AlignGroup value={el.align} options={['left', 'center', 'right'] as const} onChange={(align) => set({ align })} />
        </div>
      </div>
      <div className="rounded-lg border bg-muted/30 p-3">
        <ImageView el={el} />
      </div>
    </div>
  );
}
