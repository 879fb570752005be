import { parsedFormula } from '../../../contract/filled-values';
import {
  elementTexts,
  headingLevel,
  leafElements,
  mapContentTexts,
  type TElement,
  type TElementType,
  type TFormatContent,
  type THeadingLevel,
  type THeadingSize,
  type TLeafElement,
  type TTextStyle,
} from '../../../contract/format-content';
import { renameInFormula } from '../../../contract/formulas';
import { findPlaceholderTags, renamePlaceholderTags, type TPlaceholder } from '../../../contract/placeholders';

/** What the builder edits: everything a save sends except the description. */
export interface BuilderDoc {
  name: string;
  description: string;
  content: TFormatContent;
  placeholders: TPlaceholder[];
}

export const DEFAULT_FORMAT_NAME = 'Untitled Format';
export const DEFAULT_NEW_FORMAT_NAME = 'New Format';
/** What a new heading and a new list item say until the user types over them. */
export const DEFAULT_HEADING_TEXT = 'New heading';
export const DEFAULT_LIST_ITEM = 'New item';
export const DEFAULT_SECTION_TITLE = 'New section';

export const ELEMENT_LABELS: Record<TElementType, string> = {
  heading: 'Heading',
  paragraph: 'Paragraph',
  list: 'List',
  table: 'Table',
  image: 'Image',
  section: 'Section',
};

export const HEADING_SIZE_LABELS: Record<THeadingSize, string> = {
  'text-xl': 'Small',
  'text-2xl': 'Medium',
  'text-3xl': 'Large',
  'text-4xl': 'Extra Large',
};

export function emptyDoc(name = DEFAULT_FORMAT_NAME): BuilderDoc {
  return { name, description: '', content: { elements: [] }, placeholders: [] };
}

/** An element id is a timestamp, bumped until it is unique within the format. */
export function newElementId(existing: readonly TElement[]): string {
  const taken = new Set(existing.map((e) => e.id));
  let t = Date.now();
  while (taken.has(String(t))) t += 1;
  return String(t);
}

/**
 * The level a heading added after `before` (the elements above it, in order) starts at, so that a
 * new format's outline is right without choosing: the first heading is level 1, one after a level
 * 1 heading is level 2, and one after a deeper heading is its sibling.
 */
export function nextHeadingLevel(before: readonly TElement[]): THeadingLevel {
  const previous = leafElements(before).findLast((el) => el.type === 'heading');
  if (!previous || previous.type !== 'heading') return 1;
  const level = headingLevel(previous);
  return level === 1 ? 2 : level;
}

/** The elements above where a new one goes: after `afterId` (in its section), else after everything. */
export function elementsBefore(elements: readonly TElement[], afterId: string | null): readonly TElement[] {
  if (!afterId) return elements;
  const out: TElement[] = [];
  for (const el of elements) {
    if (el.id === afterId) return [...out, el];
    if (el.type === 'section') {
      const at = el.elements.findIndex((inner) => inner.id === afterId);
      if (at >= 0) return [...out, ...el.elements.slice(0, at + 1)];
    }
    out.push(el);
  }
  return out;
}

export function createElement(type: TElementType, id: string, headingLevelAt: THeadingLevel = 1): TElement {
  switch (type) {
    case 'heading':
      // The level is saved with it, so that a later change of size leaves the document's outline as it is.
      return {
        id,
        type,
        content: DEFAULT_HEADING_TEXT,
        fontSize: 'text-2xl',
        level: headingLevelAt,
        align: 'left',
        bold: true,
        italic: false,
        underline: false,
      };
    case 'paragraph':
      return { id, type, content: '', align: 'left', bold: false, italic: false, underline: false };
    case 'list':
      return { id, type, items: [DEFAULT_LIST_ITEM], listStyle: 'bulleted' };
    case 'table':
      return {
        id,
        type,
        rows: [
          ['', ''],
          ['', ''],
        ],
        headerRow: false,
      };
    case 'image':
      return { id, type, src: '', width: 300, height: 200, align: 'left' };
    case 'section':
      return { id, type, title: DEFAULT_SECTION_TITLE, elements: [] };
  }
}

const RESERVED_TAGS = new Set(['page', 'pages']);

export interface PlaceholderUsage {
  /** name -> number of `{{name}}` tags in the format. */
  counts: Map<string, number>;
  /** Tag names that match no placeholder, in order of first use. */
  unknownTags: string[];
}

/**
 * How often each placeholder is used: its tags; for a list, the rows and items that repeat it and
 * the tags of its columns in them; for anything, the formulas and conditions that read it. Tags
 * that match nothing are listed, a column's tag counting as known only where its list repeats.
 */
export function placeholderUsage(content: TFormatContent, placeholders: readonly TPlaceholder[]): PlaceholderUsage {
  const counts = new Map<string, number>(placeholders.map((p) => [p.name, 0]));
  const byName = new Map(placeholders.map((p) => [p.name, p]));
  const unknown: string[] = [];
  const count = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  const tagsIn = (texts: readonly string[], list?: TPlaceholder) => {
    for (const text of texts) {
      for (const tag of findPlaceholderTags(text)) {
        const column = list?.columns?.some((c) => c.name === tag.name || `${list.name}.${c.name}` === tag.name);
        if (column && list) count(list.name);
        else if (counts.has(tag.name)) count(tag.name);
        else if (!RESERVED_TAGS.has(tag.name) && !unknown.includes(tag.name)) unknown.push(tag.name);
      }
    }
  };
  const conditions = (element: TElement) => element.showIf?.conditions.forEach((c) => counts.has(c.field) && count(c.field));
  for (const element of content.elements) {
    conditions(element);
    for (const leaf of element.type === 'section' ? element.elements : [element]) {
      if (leaf !== element) conditions(leaf);
      if (leaf.type === 'table' && leaf.repeat) {
        const list = byName.get(leaf.repeat.list);
        tagsIn(leaf.rows.filter((_, r) => r !== leaf.repeat!.row).flat());
        tagsIn(leaf.rows[leaf.repeat.row] ?? [], list);
        if (list) count(list.name);
      } else if (leaf.type === 'list' && leaf.repeat) {
        const list = byName.get(leaf.repeat);
        tagsIn(leaf.items, list);
        if (list) count(list.name);
      } else tagsIn(elementTexts(leaf));
    }
  }
  tagsIn([content.header?.text ?? '', content.footer?.text ?? '']);
  for (const p of placeholders) {
    const expressions = p.type === 'formula' ? [p.expression ?? ''] : (p.columns ?? []).filter((c) => c.type === 'formula').map((c) => c.expression ?? '');
    const own = new Set((p.columns ?? []).map((c) => c.name));
    for (const expression of expressions) {
      const parsed = parsedFormula(expression);
      if (!('formula' in parsed)) continue;
      for (const reference of parsed.formula.references) {
        const head = reference.split('.')[0]!;
        if (!own.has(reference) && head !== p.name && counts.has(head)) count(head);
      }
    }
  }
  return { counts, unknownTags: unknown };
}

// ---------------------------------------------------------------------------------------------
// Elements inside sections: every edit finds an element by id at either level.

/** The element with this id, the section holding it (null at the top), and its index there. */
export function findElement(elements: readonly TElement[], id: string): { element: TElement; section: TElement | null; index: number } | undefined {
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i]!;
    if (element.id === id) return { element, section: null, index: i };
    if (element.type === 'section') {
      const index = element.elements.findIndex((child) => child.id === id);
      if (index >= 0) return { element: element.elements[index]!, section: element, index };
    }
  }
  return undefined;
}

/** Every id in the format, sections' elements included. */
export function allElementIds(elements: readonly TElement[]): string[] {
  return elements.flatMap((e) => (e.type === 'section' ? [e.id, ...e.elements.map((c) => c.id)] : [e.id]));
}

/** `elements` with `fn` applied to the list holding `id` (the top level, or a section's). */
export function withListOf(elements: TElement[], id: string, fn: (list: TElement[]) => TElement[]): TElement[] {
  if (elements.some((e) => e.id === id)) return fn(elements);
  return elements.map((e) => (e.type === 'section' && e.elements.some((c) => c.id === id) ? { ...e, elements: fn(e.elements) as TLeafElement[] } : e));
}

/** `elements` with the element `id` replaced by `fn` of it, wherever it is. */
export function updateElementIn(elements: TElement[], id: string, fn: (el: TElement) => TElement): TElement[] {
  return withListOf(elements, id, (list) => list.map((e) => (e.id === id ? fn(e) : e)));
}

/** `element` placed into the section `sectionId` at `index` (the end when omitted), or at the top level. */
export function insertElementIn(elements: TElement[], element: TElement, index: number | undefined, sectionId?: string): TElement[] {
  const insert = (list: TElement[]) => {
    const at = index === undefined ? list.length : Math.max(0, Math.min(list.length, index));
    return [...list.slice(0, at), element, ...list.slice(at)];
  };
  if (!sectionId || element.type === 'section') return insert(elements);
  return elements.map((e) => (e.type === 'section' && e.id === sectionId ? { ...e, elements: insert(e.elements) as TLeafElement[] } : e));
}

/** An element moved into the section just above it, or out of its section to just below it. */
export function moveAcrossSection(elements: TElement[], id: string, direction: 'into-above' | 'out'): TElement[] {
  const found = findElement(elements, id);
  if (!found || found.element.type === 'section') return elements;
  if (direction === 'out') {
    if (!found.section) return elements;
    const sectionIndex = elements.indexOf(found.section);
    const without = updateElementIn(elements, found.section.id, (s) => (s.type === 'section' ? { ...s, elements: s.elements.filter((c) => c.id !== id) } : s));
    return insertElementIn(without, found.element, sectionIndex + 1);
  }
  const above = found.section ? undefined : elements[found.index - 1];
  if (!above || above.type !== 'section') return elements;
  return insertElementIn(
    elements.filter((e) => e.id !== id),
    found.element,
    undefined,
    above.id,
  );
}

/**
 * A placeholder's new name written into everything that refers to it: tags (a list's column tags
 * in its repeats too), formulas, conditions and repeats. `column` renames a list's column instead.
 */
export function renameEverywhere(
  content: TFormatContent,
  placeholders: readonly TPlaceholder[],
  from: string,
  to: string,
  column?: { list: string },
): { content: TFormatContent; placeholders: TPlaceholder[] } {
  if (column) {
    const list = column.list;
    const retag = (text: string) => renamePlaceholderTags(renamePlaceholderTags(text, from, to), `${list}.${from}`, `${list}.${to}`);
    const elements = content.elements.map((element) => {
      const renameLeaf = (leaf: TElement): TElement => {
        if (leaf.type === 'table' && leaf.repeat?.list === list) {
          const row = leaf.repeat.row;
          return { ...leaf, rows: leaf.rows.map((cells, r) => (r === row ? cells.map(retag) : cells)) };
        }
        if (leaf.type === 'list' && leaf.repeat === list) return { ...leaf, items: leaf.items.map(retag) };
        return leaf;
      };
      return element.type === 'section' ? { ...element, elements: element.elements.map((c) => renameLeaf(c) as TLeafElement) } : renameLeaf(element);
    });
    const renamed = placeholders.map((p) => {
      if (p.name === list) {
        return {
          ...p,
          columns: p.columns?.map((c) => ({ ...c, ...(c.expression !== undefined ? { expression: renameInFormula(c.expression, from, to) } : {}) })),
        };
      }
      return p.expression !== undefined ? { ...p, expression: renameInFormula(p.expression, `${list}.${from}`, `${list}.${to}`) } : p;
    });
    return { content: { ...content, elements }, placeholders: renamed };
  }
  const retag = (text: string) => {
    let out = renamePlaceholderTags(text, from, to);
    // A list's columns written list.column follow the list.
    for (const tag of findPlaceholderTags(out))
      if (tag.name.startsWith(`${from}.`)) out = renamePlaceholderTags(out, tag.name, `${to}${tag.name.slice(from.length)}`);
    return out;
  };
  const fixLeaf = (leaf: TElement): TElement => {
    const showIf = leaf.showIf ? { ...leaf.showIf, conditions: leaf.showIf.conditions.map((c) => (c.field === from ? { ...c, field: to } : c)) } : undefined;
    let next: TElement = showIf ? { ...leaf, showIf } : leaf;
    if (next.type === 'table' && next.repeat?.list === from) next = { ...next, repeat: { ...next.repeat, list: to } };
    if (next.type === 'list' && next.repeat === from) next = { ...next, repeat: to };
    if (next.type === 'section') next = { ...next, elements: next.elements.map((c) => fixLeaf(c) as TLeafElement) };
    return next;
  };
  const retagged = mapContentTexts(content, retag);
  return {
    content: { ...retagged, elements: retagged.elements.map(fixLeaf) },
    placeholders: placeholders.map((p) => ({
      ...p,
      ...(p.expression !== undefined ? { expression: renameInFormula(p.expression, from, to) } : {}),
      ...(p.columns ? { columns: p.columns.map((c) => (c.expression !== undefined ? { ...c, expression: renameInFormula(c.expression, from, to) } : c)) } : {}),
    })),
  };
}

/** A text style with undefined keys removed, or undefined when nothing is left. */
export function cleanStyle(style: TTextStyle | undefined): TTextStyle | undefined {
  if (!style) return undefined;
  const out: TTextStyle = {};
  if (style.fontFamily) out.fontFamily = style.fontFamily;
  if (style.fontSize) out.fontSize = style.fontSize;
  if (style.color) out.color = style.color;
  return Object.keys(out).length > 0 ? out : undefined;
}

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = list.slice();
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next;
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** A short description of an element for screen-reader announcements and aria labels. */
export function describeElement(el: TElement, index: number): string {
  const label = ELEMENT_LABELS[el.type];
  let text = '';
  if (el.type === 'heading' || el.type === 'paragraph') text = el.content;
  else if (el.type === 'list') text = el.items[0] ?? '';
  else if (el.type === 'section') text = el.title;
  const snippet = text.trim().slice(0, 40);
  return `${label} ${index + 1}${snippet ? `: ${snippet}` : ''}`;
}

export function snapshotOf(doc: BuilderDoc): string {
  return JSON.stringify({ n: doc.name, d: doc.description, c: doc.content, p: doc.placeholders });
}

/** Narrowest share of a table a column can be set to, in percent. */
export const MIN_COLUMN_PERCENT = 5;

/** Each column's share of the table width in percent (columnWidths are relative weights; a missing one weighs 1). */
export function columnPercents(columnWidths: readonly number[] | undefined, columns: number): number[] {
  const weights = Array.from({ length: columns }, (_, c) => columnWidths?.[c] ?? 1);
  const total = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w) => (w / total) * 100);
}

/**
 * Column widths (as percentages summing to 100) with column `column` set to `percent`: the other
 * columns share the rest in their current proportions, none narrower than MIN_COLUMN_PERCENT.
 */
export function withColumnPercent(columnWidths: readonly number[] | undefined, columns: number, column: number, percent: number): number[] {
  if (columns <= 1) return [100];
  const current = columnPercents(columnWidths, columns);
  const others = current.filter((_, c) => c !== column);
  const target = Math.min(100 - MIN_COLUMN_PERCENT * others.length, Math.max(MIN_COLUMN_PERCENT, percent));
  // Scale the other columns into what is left, then lift any below the minimum (taking it from the widest).
  const othersTotal = others.reduce((sum, p) => sum + p, 0);
  const scaled = others.map((p) => Math.max(MIN_COLUMN_PERCENT, (p / othersTotal) * (100 - target)));
  let excess = scaled.reduce((sum, p) => sum + p, 0) - (100 - target);
  while (excess > 1e-9) {
    const widest = scaled.indexOf(Math.max(...scaled));
    const take = Math.min(excess, scaled[widest]! - MIN_COLUMN_PERCENT);
    if (take <= 0) break;
    scaled[widest] = scaled[widest]! - take;
    excess -= take;
  }
  const result = [...scaled.slice(0, column), target, ...scaled.slice(column)];
  return result.map((p) => Math.round(p * 10) / 10);
}

export type TInlineMarker = '**' | '*' | '__';

/**
 * Bold (`**`), italic (`*`) or underline (`__`) for the selected words only: the selection [start, end) wrapped in
 * the marker, or unwrapped when it already is. Spaces at the selection's edges stay outside, as a
 * double-click selects a word with its trailing space. Returns the new value and the selection
 * around the same words, or null when nothing is selected.
 */
export function toggleInlineMarker(value: string, start: number, end: number, marker: TInlineMarker): { value: string; start: number; end: number } | null {
  while (start < end && /\s/.test(value[start]!)) start++;
  while (end > start && /\s/.test(value[end - 1]!)) end--;
  if (start === end) return null;
  const m = marker.length;
  const wrapped = (s: number, e: number) =>
    value.slice(s - m, s) === marker &&
    value.slice(e, e + m) === marker &&
    // `*` must not be half of a `**` around the words.
    (marker !== '*' || (value[s - m - 1] !== '*' && value[e + m] !== '*') || (value.slice(s - 3, s) === '***' && value.slice(e, e + 3) === '***'));
  if (wrapped(start, end)) {
    return { value: value.slice(0, start - m) + value.slice(start, end) + value.slice(end + m), start: start - m, end: end - m };
  }
  const inner = value.slice(start, end);
  if (
    inner.startsWith(marker) &&
    inner.endsWith(marker) &&
    inner.length >= 2 * m + 1 &&
    (marker !== '*' || !inner.startsWith('**') || inner.startsWith('***'))
  ) {
    return { value: value.slice(0, start) + inner.slice(m, -m) + value.slice(end), start, end: end - 2 * m };
  }
  return { value: value.slice(0, start) + marker + inner + marker + value.slice(end), start: start + m, end: end + m };
}
