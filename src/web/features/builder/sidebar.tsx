import { LightbulbIcon, RotateCcwIcon } from 'lucide-react';
import { useId } from 'react';
import {
  DEFAULT_TEXT_STYLE,
  FONT_FAMILIES,
  FONT_SIZES_PX,
  type TElementType,
  type TFontFamily,
  type TFontSizePx,
  type TTextStyle,
} from '../../../contract/format-content';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { ELEMENT_ICONS } from './canvas';
import { NativeSelect, SectionTitle } from './controls';
import { fixField } from './finding-targets';
import { ELEMENT_LABELS } from './model';

function ElementButton({ type, onAdd }: { type: TElementType; onAdd: (type: TElementType) => void }) {
  const Icon = ELEMENT_ICONS[type];
  return (
    <button
      type="button"
      onClick={() => onAdd(type)}
      aria-label={`Add ${ELEMENT_LABELS[type]}`}
      className="group flex h-[4.25rem] cursor-pointer flex-col items-center justify-center gap-1.5 rounded-lg border bg-background text-[13px] font-medium text-foreground shadow-xs transition-[border-color,background-color,box-shadow] outline-none hover:border-primary/40 hover:bg-primary-soft/50 focus-visible:ring-2 focus-visible:ring-ring"
    >
      <Icon className="size-[18px] text-muted-foreground transition-colors group-hover:text-primary" aria-hidden />
      {ELEMENT_LABELS[type]}
    </button>
  );
}

const PALETTE_GROUPS: readonly { label: string; types: readonly TElementType[] }[] = [
  { label: 'Text', types: ['heading', 'paragraph', 'list'] },
  { label: 'Data', types: ['table', 'image', 'section'] },
];

export function ElementPalette({ onAdd }: { onAdd: (type: TElementType) => void }) {
  return (
    <section aria-labelledby="palette-title">
      <SectionTitle>
        <span id="palette-title">Add elements</span>
      </SectionTitle>
      {PALETTE_GROUPS.map((group, i) => (
        <div key={group.label}>
          <p className={cn('mb-1.5 text-xs font-medium text-muted-foreground', i > 0 && 'mt-3')}>{group.label}</p>
          <div className="grid grid-cols-3 gap-2">
            {group.types.map((type) => (
              <ElementButton key={type} type={type} onAdd={onAdd} />
            ))}
          </div>
        </div>
      ))}
    </section>
  );
}

export function StyleControls({
  scopeLabel,
  isElement,
  style,
  inherited,
  onChange,
}: {
  /** "Whole document" or the selected element's name. */
  scopeLabel: string;
  isElement: boolean;
  style: TTextStyle | undefined;
  /** What applies when this scope sets nothing (the document style for an element). */
  inherited: Required<TTextStyle>;
  onChange: (style: TTextStyle) => void;
}) {
  const id = useId();
  const current = style ?? {};
  const set = (patch: TTextStyle) => {
    const next: TTextStyle = { ...current, ...patch };
    for (const k of Object.keys(next) as (keyof TTextStyle)[]) if (next[k] === undefined) delete next[k];
    onChange(next);
  };
  const hasOwn = !!(current.fontFamily || current.fontSize || current.color);
  const color = current.color ?? inherited.color;
  return (
    <section aria-labelledby={`${id}-title`}>
      <SectionTitle hint={<span className={cn(isElement && 'font-medium text-primary')}>{scopeLabel}</span>}>
        <span id={`${id}-title`}>Text style</span>
      </SectionTitle>
      <div className="space-y-2.5">
        <div className="grid grid-cols-[4.5rem_1fr] items-center gap-2">
          <label htmlFor={`${id}-font`} className="text-xs font-medium text-muted-foreground">
            Font
          </label>
          <NativeSelect
            id={`${id}-font`}
            value={current.fontFamily ?? ''}
            onChange={(e) => set({ fontFamily: (e.target.value || undefined) as TFontFamily | undefined })}
          >
            <option value="">{isElement ? `Document (${inherited.fontFamily})` : `Default (${DEFAULT_TEXT_STYLE.fontFamily})`}</option>
            {FONT_FAMILIES.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </NativeSelect>
          <label htmlFor={`${id}-size`} className="text-xs font-medium text-muted-foreground">
            Size
          </label>
          <NativeSelect
            id={`${id}-size`}
            value={current.fontSize ? String(current.fontSize) : ''}
            onChange={(e) => set({ fontSize: e.target.value ? (Number(e.target.value) as TFontSizePx) : undefined })}
          >
            <option value="">{isElement ? `Document (${inherited.fontSize} px)` : `Default (${DEFAULT_TEXT_STYLE.fontSize} px)`}</option>
            {FONT_SIZES_PX.map((s) => (
              <option key={s} value={s}>
                {s} px
              </option>
            ))}
          </NativeSelect>
          <label htmlFor={`${id}-color`} className="text-xs font-medium text-muted-foreground">
            Colour
          </label>
          <div className="flex items-center gap-2">
            <input
              id={`${id}-color`}
              type="color"
              value={color}
              onChange={(e) => set({ color: e.target.value })}
              {...fixField('text-color')}
              className="h-9 w-12 cursor-pointer rounded-md border border-input bg-background p-1 shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring"
            />
            <span className="font-mono text-xs text-muted-foreground uppercase">{color}</span>
          </div>
        </div>
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs text-muted-foreground">
            {isElement ? 'Overrides the document style for this element.' : 'Applies to every element without its own style.'}
          </p>
          {hasOwn && (
            <Button variant="ghost" size="sm" className="h-7 shrink-0 px-2 text-xs" onClick={() => onChange({})}>
              <RotateCcwIcon className="size-3.5" /> Reset
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}

export function FormattingHints() {
  return (
    <section aria-labelledby="hints-title" className="rounded-lg border border-dashed bg-muted/40 p-3">
      <h2 id="hints-title" className="mb-2 flex items-center gap-1.5 text-xs font-semibold text-foreground">
        <LightbulbIcon className="size-3.5 text-warning" aria-hidden /> Formatting tips
      </h2>
      <ul className="space-y-1.5 text-xs leading-relaxed text-muted-foreground">
        <li>
          <code className="rounded bg-background px-1 font-mono text-[11px] text-foreground ring-1 ring-border">**bold**</code>,{' '}
          <code className="rounded bg-background px-1 font-mono text-[11px] text-foreground ring-1 ring-border">*italic*</code>,{' '}
          <code className="rounded bg-background px-1 font-mono text-[11px] text-foreground ring-1 ring-border">__underline__</code> and links{' '}
          <code className="rounded bg-background px-1 font-mono text-[11px] text-foreground ring-1 ring-border">[words](https://…)</code> work in paragraphs,
          lists and tables.
        </li>
        <li>
          Select words and press Ctrl+B, Ctrl+I or Ctrl+U (⌘ on a Mac), or use the buttons above the text, to style just those words; Ctrl+K makes them a link.
        </li>
        <li>Press Enter in a paragraph for a line break.</li>
        <li>
          Type <code className="rounded bg-background px-1 font-mono text-[11px] text-foreground ring-1 ring-border">{'{{name}}'}</code> or use Insert to add a
          placeholder where the cursor is.
        </li>
        <li>Drag the handle, or focus it and press Space then the arrow keys, to reorder.</li>
      </ul>
    </section>
  );
}
