import type { ComponentType } from 'react';
import type { TElement, TElementType, TTextStyle } from '../../../../contract/format-content';
import type { TPlaceholder } from '../../../../contract/placeholders';
import { HeadingEditor, HeadingView } from './heading';
import { ImageEditor, ImageView } from './image';
import { ListEditor, ListView } from './list';
import { ParagraphEditor, ParagraphView } from './paragraph';
import { SectionEditor, SectionView } from './section';
import { effectiveStyle, type ElementUpdater } from './shared';
import { TableEditor, TableView } from './table';

type ElementOf<T extends TElementType> = Extract<TElement, { type: T }>;

export interface ElementViewProps<T extends TElementType = TElementType> {
  el: ElementOf<T>;
  style: Required<TTextStyle>;
  known: ReadonlySet<string>;
  /** For repeats and their badges. */
  placeholders: readonly TPlaceholder[];
}

export interface ElementEditorProps<T extends TElementType = TElementType> {
  el: ElementOf<T>;
  index: number;
  update: ElementUpdater;
  /** The lists a table row or a list may repeat for. */
  placeholders: readonly TPlaceholder[];
}

interface ElementKind<T extends TElementType> {
  /** How the element reads on the canvas, close to the PDF. */
  View: ComponentType<ElementViewProps<T>>;
  /** Its controls while it is being edited. */
  Editor: ComponentType<ElementEditorProps<T>>;
}

/** Every element type and its view and editor; a new type without an entry here does not compile. */
export const ELEMENT_KINDS: { [T in TElementType]: ElementKind<T> } = {
  heading: { View: HeadingView, Editor: HeadingEditor },
  paragraph: { View: ParagraphView, Editor: ParagraphEditor },
  list: { View: ListView, Editor: ListEditor },
  table: { View: TableView, Editor: TableEditor },
  image: { View: ({ el }) => <ImageView el={el} />, Editor: ImageEditor },
  section: {
    View: ({ el, style, known, placeholders }) => (
      <SectionView el={el}>
        {el.elements.map((child) => (
          <ElementView key={child.id} el={child} docStyle={style} known={known} placeholders={placeholders} />
        ))}
      </SectionView>
    ),
    Editor: SectionEditor,
  },
};

// TypeScript cannot tie `ELEMENT_KINDS[el.type]` to `el`'s own type, so the lookup widens once, here.
function kindOf(el: TElement): ElementKind<TElementType> {
  return ELEMENT_KINDS[el.type] as unknown as ElementKind<TElementType>;
}

export function ElementView({
  el,
  docStyle,
  known,
  placeholders,
}: {
  el: TElement;
  docStyle: TTextStyle | undefined;
  known: ReadonlySet<string>;
  placeholders: readonly TPlaceholder[];
}) {
  const { View } = kindOf(el);
  return <View el={el} style={effectiveStyle(docStyle, el.style)} known={known} placeholders={placeholders} />;
}

export function ElementEditor({ el, index, update, placeholders }: ElementEditorProps) {
  const { Editor } = kindOf(el);
  return <Editor el={el} index={index} update={update} placeholders={placeholders} />;
}
