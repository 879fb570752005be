import type { TElement, TFormatContent, TTextStyle } from '../../../contract/format-content';
import type { TPlaceholder } from '../../../contract/placeholders';
import { cleanStyle, findElement, insertElementIn, moveAcrossSection, moveItem, renameEverywhere, updateElementIn, withListOf, type BuilderDoc } from './model';

/** How many steps Undo can go back. */
export const HISTORY_LIMIT = 100;

/**
 * The builder's document and its edit history. Every edit goes through `builderReducer`, so Undo
 * and Redo cover all of them. Edits with the same `group` in a row (typing into one field) are one
 * step, so Undo takes back the word, not each letter.
 */
export interface BuilderState {
  doc: BuilderDoc;
  past: BuilderDoc[];
  future: BuilderDoc[];
  /** The group of the last edit, or null when the next edit must start a new step. */
  group: string | null;
}

export type BuilderEdit =
  | { type: 'rename'; name: string }
  | { type: 'describe'; description: string }
  /** `sectionId`: into that section, at `index` among its elements (the end when omitted). */
  | { type: 'add-element'; element: TElement; index?: number; sectionId?: string }
  | { type: 'update-element'; id: string; update: (el: TElement) => TElement }
  | { type: 'move-element'; id: string; delta: -1 | 1 }
  | { type: 'reorder'; activeId: string; overId: string }
  | { type: 'delete-element'; id: string }
  /** Into the section just above, or out of its section to just below it. */
  | { type: 'move-across-section'; id: string; direction: 'into-above' | 'out' }
  | { type: 'set-style'; elementId: string | null; style: TTextStyle }
  | { type: 'update-content'; update: (content: TFormatContent) => TFormatContent }
  | { type: 'add-placeholder'; placeholder: TPlaceholder }
  | { type: 'delete-placeholder'; name: string }
  /**
   * Changes a placeholder; a new name is written into every tag, formula, condition and repeat that
   * used the old one, and so are its list's renamed columns (`columnRenames`, old name -> new).
   */
  | { type: 'update-placeholder'; name: string; placeholder: TPlaceholder; columnRenames?: Record<string, string> }
  | { type: 'clear' };

export type BuilderAction =
  | BuilderEdit
  | { type: 'undo' }
  | { type: 'redo' }
  /** Starts over with another document (New): its history is empty. */
  | { type: 'load'; doc: BuilderDoc };

export function initialBuilderState(doc: BuilderDoc): BuilderState {
  return { doc, past: [], future: [], group: null };
}

function withElements(doc: BuilderDoc, fn: (els: TElement[]) => TElement[]): BuilderDoc {
  return { ...doc, content: { ...doc.content, elements: fn(doc.content.elements) } };
}

/** The document after one edit (a pure function of the document and the edit). */
export function applyEdit(doc: BuilderDoc, edit: BuilderEdit): BuilderDoc {
  switch (edit.type) {
    case 'rename':
      return { ...doc, name: edit.name };
    case 'describe':
      return { ...doc, description: edit.description };
    case 'add-element':
      return withElements(doc, (els) => insertElementIn(els, edit.element, edit.index, edit.sectionId));
    case 'update-element':
      return withElements(doc, (els) => updateElementIn(els, edit.id, edit.update));
    case 'move-element':
      return withElements(doc, (els) =>
        withListOf(els, edit.id, (list) => {
          const i = list.findIndex((e) => e.id === edit.id);
          return i < 0 ? list : moveItem(list, i, i + edit.delta);
        }),
      );
    case 'move-across-section':
      return withElements(doc, (els) => moveAcrossSection(els, edit.id, edit.direction));
    case 'reorder':
      return withElements(doc, (els) =>
        moveItem(
          els,
          els.findIndex((e) => e.id === edit.activeId),
          els.findIndex((e) => e.id === edit.overId),
        ),
      );
    case 'delete-element':
      return withElements(doc, (els) => (findElement(els, edit.id) ? withListOf(els, edit.id, (list) => list.filter((e) => e.id !== edit.id)) : els));
    case 'set-style': {
      const clean = cleanStyle(edit.style);
      if (edit.elementId === null) {
        const { style: _old, ...rest } = doc.content;
        return { ...doc, content: clean ? { ...rest, style: clean } : rest };
      }
      return withElements(doc, (els) =>
        updateElementIn(els, edit.elementId!, (e) => {
          if (e.type === 'image') return e;
          const { style: _old, ...rest } = e;
          return (clean ? { ...rest, style: clean } : rest) as TElement;
        }),
      );
    }
    case 'update-content':
      return { ...doc, content: edit.update(doc.content) };
    case 'add-placeholder':
      return doc.placeholders.some((p) => p.name === edit.placeholder.name) ? doc : { ...doc, placeholders: [...doc.placeholders, edit.placeholder] };
    case 'delete-placeholder':
      return { ...doc, placeholders: doc.placeholders.filter((p) => p.name !== edit.name) };
    case 'update-placeholder': {
      const { name, placeholder } = edit;
      if (!doc.placeholders.some((p) => p.name === name)) return doc;
      const renamed = placeholder.name !== name;
      if (renamed && doc.placeholders.some((p) => p.name === placeholder.name)) return doc;
      let next = { content: doc.content, placeholders: doc.placeholders.map((p) => (p.name === name ? placeholder : p)) };
      if (renamed) next = renameEverywhere(next.content, next.placeholders, name, placeholder.name);
      for (const [from, to] of Object.entries(edit.columnRenames ?? {})) {
        if (from !== to) next = renameEverywhere(next.content, next.placeholders, from, to, { list: placeholder.name });
      }
      return { ...doc, ...next };
    }
    case 'clear':
      return { ...doc, content: { ...doc.content, elements: [] }, placeholders: [] };
  }
}

/** Which edits merge into one Undo step when they come in a row. */
function groupOf(edit: BuilderEdit): string | null {
  switch (edit.type) {
    case 'rename':
      return 'name';
    case 'describe':
      return 'description';
    case 'update-element':
      return `element:${edit.id}`;
    case 'set-style':
      return `style:${edit.elementId ?? 'document'}`;
    case 'update-content':
      return 'content';
    default:
      return null;
  }
}

export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return { doc: previous, past: state.past.slice(0, -1), future: [state.doc, ...state.future], group: null };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return { doc: next, past: [...state.past, state.doc].slice(-HISTORY_LIMIT), future: rest, group: null };
    }
    case 'load':
      return initialBuilderState(action.doc);
    default: {
      const doc = applyEdit(state.doc, action);
      if (doc === state.doc) return state;
      const group = groupOf(action);
      // Same group as the last edit: that step already holds the document from before the run.
      if (group !== null && group === state.group) return { ...state, doc, future: [] };
      return { doc, past: [...state.past, state.doc].slice(-HISTORY_LIMIT), future: [], group };
    }
  }
}
