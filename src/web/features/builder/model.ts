import {
  findPlaceholderTags,
  type TPlaceholder,
} from '../../../contract/placeholders';
import {
  contentTexts,
  type TElement,
  type TElementType,
  type TFormatContent,
  type THeadingSize,
  type TTextStyle,
} from '../../../contract/format-content';

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

export function createElement(type: TElementType, id: string): TElement {
  switch (type) {
    case 'heading':
      return { id, type, content: DEFAULT_HEADING_TEXT, fontSize: 'text-2xl', align: 'left', bold: true, italic: false, underline: false };
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

export function placeholderUsage(content: TFormatContent, placeholders: readonly TPlaceholder[]): PlaceholderUsage {
  const counts = new Map<string, number>(placeholders.map((p) => [p.name, 0]));
  const unknown: string[] = [];
  for (const text of contentTexts(content)) {
    for (const tag of findPlaceholderTags(text)) {
      const current = counts.get(tag.name);
      if (current !== undefined) counts.set(tag.name, current + 1);
      else if (!RESERVED_TAGS.has(tag.name) && !unknown.includes(tag.name)) unknown.push(tag.name);
    }
  }
  return { counts, unknownTags: unknown };
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

export type TInlineMarker = '**' | '*';

/**
 * Bold (`**`) or italic (`*`) for the selected words only: the selection [start, end) wrapped in
 * the marker, or unwrapped when it already is. Spaces at the selection's edges stay outside, as a
 * double-click selects a word with its trailing space. Returns the new value and the selection
 * around the same words, or null when nothing is selected.
 */
export function toggleInlineMarker(
  value: string,
  start: number,
  end: number,
  marker: TInlineMarker,
): { value: string; start: number; end: number } | null {
  while (start < end && /\s/.test(value[start]!)) start++;
  while (end > start && /\s/.test(value[end - 1]!)) end--;
  if (start === end) return null;
  const m = marker.length;
  const wrapped = (s: number, e: number) =>
    value.slice(s - m, s) === marker &&
    value.slice(e, e + m) === marker &&
    // `*` must not be half of a `**` around the words.
    (marker === '**' || (value[s - m - 1] !== '*' && value[e + m] !== '*') || (value.slice(s - 3, s) === '***' && value.slice(e, e + 3) === '***'));
  if (wrapped(start, end)) {
    return { value: value.slice(0, start - m) + value.slice(start, end) + value.slice(end + m), start: start - m, end: end - m };
  }
  const inner = value.slice(start, end);
  if (inner.startsWith(marker) && inner.endsWith(marker) && inner.length >= 2 * m + 1 && (marker === '**' || !inner.startsWith('**') || inner.startsWith('***'))) {
    return { value: value.slice(0, start) + inner.slice(m, -m) + value.slice(end), start, end: end - 2 * m };
  }
  return { value: value.slice(0, start) + marker + inner + marker + value.slice(end), start: start + m, end: end + m };
}
