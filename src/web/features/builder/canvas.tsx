import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  ArrowDownIcon,
  ArrowUpIcon,
  CheckIcon,
  CopyPlusIcon,
  GripVerticalIcon,
  GroupIcon,
  HeadingIcon,
  ImageIcon,
  ListIcon,
  LogInIcon,
  LogOutIcon,
  PencilIcon,
  PilcrowIcon,
  Table2Icon,
  Trash2Icon,
  type LucideIcon,
} from 'lucide-react';
import { memo, useEffect, useMemo, useRef, type CSSProperties, type ReactNode, type RefObject } from 'react';
import type { TElement, TElementType, TTextStyle } from '../../../contract/format-content';
import type { TPlaceholder } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { LanguageBadge, RepeatBadge } from './canvas-badges';
import { ConditionBadge, ConditionEditor } from './condition-editor';
import { ElementLanguageField } from './element-language';
import { IconButton } from '../../components/ui/icon-button';
import { ElementEditor, ElementView } from './elements/registry';
import type { ElementUpdater } from './elements/shared';
import { describeElement, ELEMENT_LABELS } from './model';

export const ELEMENT_ICONS: Record<TElementType, LucideIcon> = {
  heading: HeadingIcon,
  paragraph: PilcrowIcon,
  list: ListIcon,
  table: Table2Icon,
  image: ImageIcon,
  section: GroupIcon,
};

/** What an element's frame can do to it; one stable object, so the memoised rows do not re-render. */
export interface TElementActions {
  /** Opens an element for editing, or closes the open one. */
  edit: (id: string | null) => void;
  update: (id: string, fn: Parameters<ElementUpdater>[0]) => void;
  move: (id: string, delta: -1 | 1) => void;
  remove: (id: string) => void;
  duplicate: (id: string) => void;
  moveAcross: (id: string, direction: 'into-above' | 'out') => void;
}

export interface CanvasProps {
  elements: TElement[];
  docStyle: TTextStyle | undefined;
  known: ReadonlySet<string>;
  /** For conditions, repeats and their badges. */
  placeholders: readonly TPlaceholder[];
  /** The format's language, as its documents print in it: an element's unless it has one. */
  language: string;
  editingId: string | null;
  actions: TElementActions;
  onReorder: (activeId: string, overId: string) => void;
  emptyState: React.ReactNode;
}

const POINTER_OPTIONS = { activationConstraint: { distance: 5 } };
const KEYBOARD_OPTIONS = { coordinateGetter: sortableKeyboardCoordinates };

export function Canvas(props: CanvasProps) {
  const { elements } = props;
  // Options must keep their identity: new ones re-create the sensors and re-render every sortable.
  const sensors = useSensors(useSensor(PointerSensor, POINTER_OPTIONS), useSensor(KeyboardSensor, KEYBOARD_OPTIONS));
  // Stable while only the contents of elements change (typing), so the sortables do not re-render.
  const idsKey = elements.map((e) => e.id).join('\n');
  const ids = useMemo(() => (idsKey ? idsKey.split('\n') : []), [idsKey]);

  const label = (id: string | number) => {
    const i = elements.findIndex((e) => e.id === id);
    const el = elements[i];
    return el ? describeElement(el, i) : 'element';
  };
  const position = (id: string | number | undefined) => elements.findIndex((e) => e.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${label(active.id)}. Use the arrow keys to move it, Space to drop, Escape to cancel.`,
    onDragOver: ({ active, over }) =>
      over ? `${label(active.id)} is over position ${position(over.id)} of ${elements.length}.` : `${label(active.id)} is no longer over a position.`,
    onDragEnd: ({ active, over }) =>
      over ? `${label(active.id)} was dropped at position ${position(over.id)} of ${elements.length}.` : `${label(active.id)} was dropped.`,
    onDragCancel: ({ active }) => `Moving ${label(active.id)} was cancelled.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) props.onReorder(String(active.id), String(over.id));
  };

  if (elements.length === 0) return <>{props.emptyState}</>;

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            'To reorder, press Space or Enter to pick up the element, use the arrow keys to move it, then Space or Enter to drop it, or Escape to cancel.',
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className="space-y-2" aria-label="Format elements" data-testid="canvas-elements">
          {elements.map((el, i) => (
            <SortableElement
              key={el.id}
              el={el}
              index={i}
              count={elements.length}
              docStyle={props.docStyle}
              known={props.known}
              placeholders={props.placeholders}
              language={props.language}
              editing={props.editingId === el.id}
              // A section passes on which of its elements is being edited; others need not know.
              editingId={el.type === 'section' && el.elements.some((c) => c.id === props.editingId) ? props.editingId : null}
              actions={props.actions}
              sectionAbove={elements[i - 1]?.type === 'section'}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

/** What an element's frame on the canvas needs from the builder, at the top level or in a section. */
interface ElementFrameProps extends Pick<CanvasProps, 'docStyle' | 'known' | 'placeholders' | 'language' | 'editingId' | 'actions'> {
  el: TElement;
  index: number;
  count: number;
  /** The section holding it; undefined at the top level. */
  inSection?: string;
  /** The language of the section holding it, when that section has one. */
  sectionLanguage?: string;
  /** The element just above is a section it could move into. */
  sectionAbove?: boolean;
}

interface SortableElementProps extends ElementFrameProps {
  editing: boolean;
}

/** Memoised: typing in one element re-renders only that element, even with hundreds of them. */
const SortableElement = memo(function SortableElement(props: SortableElementProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: props.el.id });
  return (
    <ElementFrame
      {...props}
      editingId={props.editing ? props.el.id : props.editingId}
      nodeRef={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      dragging={isDragging}
      dragHandle={
        <button
          ref={setActivatorNodeRef}
          type="button"
          className="inline-flex size-8 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
          aria-label={`Drag to reorder ${describeElement(props.el, props.index)}`}
          data-testid="drag-handle"
          {...attributes}
          {...listeners}
        >
          <GripVerticalIcon className="size-4" aria-hidden />
        </button>
      }
    />
  );
});

interface ElementToolbarProps extends Pick<ElementFrameProps, 'el' | 'index' | 'count' | 'inSection' | 'sectionAbove' | 'actions'> {
  name: string;
  editing: boolean;
  dragging?: boolean;
  dragHandle?: ReactNode;
}

/** The element's kind and its actions: move, move across a section, edit, duplicate, delete. */
function ElementToolbar({ el, index, count, inSection, sectionAbove, name, editing, dragging, dragHandle, actions }: ElementToolbarProps) {
  const Icon = ELEMENT_ICONS[el.type];
  const isSection = el.type === 'section';
  return (
    <div
      className={cn(
        'flex items-center gap-1 px-1.5 pt-1.5 transition-opacity',
        'sm:absolute sm:-top-4 sm:right-3 sm:z-10 sm:gap-0.5 sm:rounded-lg sm:border sm:bg-background sm:p-0.5 sm:shadow-card',
        !editing &&
          'sm:pointer-events-none sm:opacity-0 sm:group-focus-within/el:pointer-events-auto sm:group-focus-within/el:opacity-100 sm:group-hover/el:pointer-events-auto sm:group-hover/el:opacity-100',
        dragging && 'sm:opacity-100',
      )}
    >
      {dragHandle}
      <span className="inline-flex items-center gap-1.5 rounded-md bg-secondary px-2 py-0.5 text-[11px] font-medium text-secondary-foreground sm:mr-1">
        <Icon className="size-3" aria-hidden />
        {ELEMENT_LABELS[el.type]}
      </span>
      <div className="ml-auto flex items-center gap-0.5 sm:ml-0">
        <IconButton icon={ArrowUpIcon} label={`Move ${name} up`} disabled={index === 0} onClick={() => actions.move(el.id, -1)} />
        <IconButton icon={ArrowDownIcon} label={`Move ${name} down`} disabled={index === count - 1} onClick={() => actions.move(el.id, 1)} />
        {inSection && <IconButton icon={LogOutIcon} label={`Move ${name} out of the section`} onClick={() => actions.moveAcross(el.id, 'out')} />}
        {sectionAbove && !isSection && (
          <IconButton icon={LogInIcon} label={`Move ${name} into the section above`} onClick={() => actions.moveAcross(el.id, 'into-above')} />
        )}
        {!editing && <IconButton icon={PencilIcon} label={`Edit ${name}`} onClick={() => actions.edit(el.id)} />}
        <IconButton icon={CopyPlusIcon} label={`Duplicate ${name}`} onClick={() => actions.duplicate(el.id)} />
        <IconButton icon={Trash2Icon} label={`Delete ${name}`} tone="danger" onClick={() => actions.remove(el.id)} />
      </div>
    </div>
  );
}

/** The element open for editing: its own editor, its condition, and Done (or Escape). */
function ElementEditPanel({
  el,
  index,
  name,
  placeholders,
  language,
  sectionLanguage,
  actions,
}: Pick<ElementFrameProps, 'el' | 'index' | 'placeholders' | 'language' | 'sectionLanguage' | 'actions'> & { name: string }) {
  const isSection = el.type === 'section';
  return (
    <fieldset
      aria-label={`Editing ${name}`}
      className="min-w-0 px-3 pt-2 pb-3 sm:px-4 sm:pt-7"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.stopPropagation();
          actions.edit(null);
        }
      }}
    >
      <ElementEditor el={el} index={index} update={(fn) => actions.update(el.id, fn)} placeholders={placeholders} />
      <ConditionEditor
        showIf={el.showIf}
        placeholders={placeholders}
        noun={isSection ? 'section' : 'element'}
        onChange={(showIf) =>
          actions.update(el.id, (e) => {
            const { showIf: _old, ...rest } = e;
            return (showIf ? { ...rest, showIf } : rest) as TElement;
          })
        }
      />
      <ElementLanguageField
        kind={ELEMENT_LABELS[el.type]}
        lang={el.lang}
        inherited={sectionLanguage ? { tag: sectionLanguage, from: 'section' } : { tag: language, from: 'format' }}
        onChange={(lang) =>
          actions.update(el.id, (e) => {
            const { lang: _old, ...rest } = e;
            return (lang ? { ...rest, lang } : rest) as TElement;
          })
        }
      />
      <div className="mt-4 flex items-center justify-end gap-2 border-t pt-3">
        {isSection && <span className="mr-auto text-xs text-muted-foreground">Elements you add now go into this section.</span>}
        <Button size="sm" onClick={() => actions.edit(null)} title="Done (Esc)">
          <CheckIcon /> Done
        </Button>
      </div>
    </fieldset>
  );
}

interface ElementBodyProps extends Pick<ElementFrameProps, 'el' | 'index' | 'docStyle' | 'known' | 'placeholders' | 'sectionLanguage' | 'actions'> {
  bodyRef: RefObject<HTMLDivElement | null>;
}

/** The element as it prints (a section as its title), with its badges; a click or Enter opens it. */
function ElementBody({ el, index, docStyle, known, placeholders, sectionLanguage, actions, bodyRef }: ElementBodyProps) {
  const isSection = el.type === 'section';
  const repeat = el.type === 'table' ? el.repeat?.list : el.type === 'list' ? el.repeat : undefined;
  const badges = (el.showIf || (repeat && el.type === 'list') || el.lang) && (
    <div className="mb-1.5 flex flex-wrap gap-1.5">
      {el.showIf && <ConditionBadge showIf={el.showIf} placeholders={placeholders} />}
      {repeat && el.type === 'list' && <RepeatBadge list={repeat} placeholders={placeholders} />}
      {el.lang && <LanguageBadge lang={el.lang} />}
    </div>
  );
  // The builder's own screen reader users hear the element's text in its language too; right-to-left
  // text keeps its order (a closing full stop stays at its end) wherever its alignment puts it.
  const textLanguage = el.lang ?? sectionLanguage;
  return (
    <div
      ref={bodyRef}
      role="button"
      tabIndex={0}
      onClick={() => actions.edit(el.id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          actions.edit(el.id);
        }
      }}
      className={cn(
        'cursor-text rounded-md px-3 pt-1 pb-3 outline-none sm:py-3 focus-visible:ring-2 focus-visible:ring-ring sm:px-4',
        isSection && 'pb-1 sm:pb-1',
      )}
    >
      {/* The name starts with what the element is; the visible text follows, as a reader sees it. */}
      <span className="sr-only">
        {ELEMENT_LABELS[el.type]} {index + 1}, press Enter to edit:{' '}
      </span>
      {badges}
      {isSection ? (
        <p className="flex items-center gap-1.5 text-xs font-medium text-primary">
          <GroupIcon className="size-3.5" aria-hidden /> {el.title || 'Section'}
          <span className="font-normal text-muted-foreground">
            · {el.elements.length} {el.elements.length === 1 ? 'element' : 'elements'}
          </span>
        </p>
      ) : (
        <div lang={textLanguage} dir="auto">
          <ElementView el={el} docStyle={docStyle} known={known} placeholders={placeholders} />
        </div>
      )}
    </div>
  );
}

/** A section's own elements, each in its frame, or a hint while it is empty. */
function SectionElements({
  section: el,
  name,
  ...frame
}: Omit<ElementFrameProps, 'el' | 'index' | 'count' | 'inSection' | 'sectionAbove'> & { section: Extract<TElement, { type: 'section' }>; name: string }) {
  return (
    <div className="px-2 pb-2 sm:px-3">
      {el.elements.length === 0 ? (
        <p className="rounded-md border border-dashed bg-background/70 px-3 py-4 text-center text-xs text-muted-foreground">
          Empty section: select it and add elements, or move elements into it.
        </p>
      ) : (
        <ol className="space-y-2 border-l-2 border-primary/20 pl-2" aria-label={`Elements in ${name}`}>
          {el.elements.map((child, k) => (
            <ElementFrame key={child.id} {...frame} el={child} index={k} count={el.elements.length} inSection={el.id} sectionLanguage={el.lang} />
          ))}
        </ol>
      )}
    </div>
  );
}

function ElementFrame({
  el,
  index,
  count,
  docStyle,
  known,
  placeholders,
  language,
  editingId,
  actions,
  inSection,
  sectionLanguage,
  sectionAbove,
  nodeRef,
  style,
  dragging,
  dragHandle,
}: ElementFrameProps & {
  nodeRef?: (node: HTMLLIElement | null) => void;
  style?: CSSProperties;
  dragging?: boolean;
  dragHandle?: ReactNode;
}) {
  const editing = editingId === el.id;
  const name = describeElement(el, index);
  const ref = useRef<HTMLLIElement | null>(null);

  const bodyRef = useRef<HTMLDivElement | null>(null);
  const wasEditing = useRef(editing);
  useEffect(() => {
    if (editing) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    // Done (or Escape) hands focus back to the element, so keyboard users keep their place.
    else if (wasEditing.current && (!document.activeElement || document.activeElement === document.body)) bodyRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const isSection = el.type === 'section';

  return (
    <li
      ref={(node) => {
        nodeRef?.(node);
        ref.current = node;
      }}
      style={style}
      data-testid="canvas-element"
      data-element-id={el.id}
      data-element-type={el.type}
      data-editing={editing || undefined}
      className={cn(
        'group/el relative rounded-lg border border-transparent transition-[border-color,box-shadow,background-color]',
        editing
          ? 'border-primary/40 bg-background shadow-[0_0_0_4px_oklch(0.585_0.2_277/0.08)]'
          : 'hover:border-border hover:bg-muted/30 focus-within:border-border',
        isSection && !editing && 'border-dashed border-primary/30 bg-primary-soft/15',
        dragging && 'z-10 border-primary/40 bg-background opacity-90 shadow-elevated',
      )}
    >
      <ElementToolbar
        el={el}
        index={index}
        count={count}
        inSection={inSection}
        sectionAbove={sectionAbove}
        name={name}
        editing={editing}
        dragging={dragging}
        dragHandle={dragHandle}
        actions={actions}
      />
      {editing ? (
        <ElementEditPanel
          el={el}
          index={index}
          name={name}
          placeholders={placeholders}
          language={language}
          sectionLanguage={sectionLanguage}
          actions={actions}
        />
      ) : (
        <ElementBody
          el={el}
          index={index}
          docStyle={docStyle}
          known={known}
          placeholders={placeholders}
          sectionLanguage={sectionLanguage}
          actions={actions}
          bodyRef={bodyRef}
        />
      )}
      {el.type === 'section' && (
        <SectionElements
          section={el}
          name={name}
          docStyle={docStyle}
          known={known}
          placeholders={placeholders}
          language={language}
          editingId={editingId}
          actions={actions}
        />
      )}
    </li>
  );
}
