import {
  MAX_CELL_LENGTH,
  MAX_ELEMENTS,
  MAX_IMAGE_PX,
  MAX_LIST_ITEMS,
  MAX_TABLE_COLUMNS,
  MAX_TABLE_ROWS,
  MAX_TEXT_LENGTH,
  type TElement,
  type THeadingSize,
} from '../../../contract/format-content.ts';
import type { TPlaceholder } from '../../../contract/placeholders.ts';
import { placeholdersFor, rewriteTags } from './placeholder-tags.ts';

/**
 * What every converter produces: the document as a flat list of blocks, in reading order. Text
 * may carry the paragraph markup (`**bold**`, `*italic*`, `\n` for a line break) except in
 * headings, which are plain.
 */
export type TBlock =
  | { kind: 'heading'; text: string; size: THeadingSize; italic?: boolean; underline?: boolean }
  | { kind: 'paragraph'; text: string; underline?: boolean; align?: 'center' | 'right' | 'justify' }
  | { kind: 'list'; items: string[]; ordered: boolean }
  | { kind: 'table'; rows: string[][]; headerRow: boolean }
  | { kind: 'image'; src: string; width: number; height: number };

export interface TConversion {
  blocks: TBlock[];
  warnings: string[];
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Splits long text into pieces of at most `max` characters, at line or word boundaries. */
function splitLong(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let at = rest.lastIndexOf('\n', max);
    if (at < max / 2) at = rest.lastIndexOf(' ', max);
    if (at < max / 2) at = max;
    out.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) out.push(rest);
  return out;
}

function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export interface TDraftContent {
  elements: TElement[];
  placeholders: TPlaceholder[];
  warnings: string[];
}

/**
 * Turns blocks into format elements within the content model's limits (anything cut is reported
 * as a warning), rewrites placeholder tags to `{{name}}` and collects the placeholders.
 */
export function blocksToDraft(blocks: readonly TBlock[], idBase = Date.now()): TDraftContent {
  const warnings: string[] = [];
  const names: string[] = [];
  const rejectedTags = new Set<string>();
  let truncatedCells = 0;
  let droppedRows = 0;
  let droppedColumns = 0;

  const tags = (text: string) => {
    const r = rewriteTags(text);
    names.push(...r.names);
    for (const t of r.rejected) rejectedTags.add(t);
    return r.text;
  };
  const cell = (text: string) => {
    const t = tags(text);
    if (t.length > MAX_CELL_LENGTH) truncatedCells++;
    return cut(t, MAX_CELL_LENGTH);
  };

  const elements: TElement[] = [];
  type TDistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
  const push = (el: TDistributiveOmit<TElement, 'id'>) => elements.push({ ...el, id: String(idBase + elements.length) } as TElement);

  for (const block of blocks) {
    switch (block.kind) {
      case 'heading': {
        const text = tags(block.text.replace(/\s*\n\s*/g, ' ').trim());
        if (!text) break;
        push({
          type: 'heading',
          content: cut(text, MAX_TEXT_LENGTH),
          fontSize: block.size,
          align: 'left',
          bold: true,
          italic: block.italic ?? false,
          underline: block.underline ?? false,
        });
        break;
      }
      case 'paragraph': {
        const text = tags(block.text);
        if (!text.trim()) break;
        for (const piece of splitLong(text, MAX_TEXT_LENGTH)) {
          push({
            type: 'paragraph',
            content: piece,
            align: block.align ?? 'left',
            bold: false,
            italic: false,
            underline: block.underline ?? false,
          });
        }
        break;
      }
      case 'list': {
        const items = block.items.map(cell).filter((i) => i.trim().length > 0);
        for (const part of chunk(items, MAX_LIST_ITEMS)) {
          push({ type: 'list', items: part, listStyle: block.ordered ? 'numbered' : 'bulleted' });
        }
        break;
      }
      case 'table': {
        let rows = block.rows.filter((r) => r.some((c) => c.trim().length > 0));
        if (rows.length === 0) break;
        if (rows.length > MAX_TABLE_ROWS) {
          droppedRows += rows.length - MAX_TABLE_ROWS;
          rows = rows.slice(0, MAX_TABLE_ROWS);
        }
        const width = Math.max(...rows.map((r) => r.length));
        if (width > MAX_TABLE_COLUMNS) droppedColumns += width - MAX_TABLE_COLUMNS;
        const cols = Math.min(width, MAX_TABLE_COLUMNS);
        push({
          type: 'table',
          // Every row as wide as the widest, so the builder's column controls line up.
          rows: rows.map((r) => Array.from({ length: cols }, (_, c) => cell(r[c] ?? ''))),
          headerRow: block.headerRow,
        });
        break;
      }
      case 'image':
        push({
          type: 'image',
          src: block.src,
          width: Math.max(1, Math.min(MAX_IMAGE_PX, Math.round(block.width))),
          height: Math.max(1, Math.min(MAX_IMAGE_PX, Math.round(block.height))),
          align: 'left',
        });
        break;
    }
  }

  if (elements.length > MAX_ELEMENTS) {
    warnings.push(`The document has ${elements.length} elements; only the first ${MAX_ELEMENTS} were imported.`);
    elements.length = MAX_ELEMENTS;
    // Placeholders only used in the part that was cut are not wanted either.
    names.length = 0;
    for (const el of elements) {
      if (el.type === 'heading' || el.type === 'paragraph') names.push(...rewriteTags(el.content).names);
      else if (el.type === 'list') for (const i of el.items) names.push(...rewriteTags(i).names);
      else if (el.type === 'table') for (const r of el.rows) for (const c of r) names.push(...rewriteTags(c).names);
    }
  }
  if (truncatedCells > 0) {
    warnings.push(
      `${truncatedCells} list item${truncatedCells === 1 ? '' : 's'} or table cell${truncatedCells === 1 ? ' was' : 's were'} longer than ${MAX_CELL_LENGTH.toLocaleString('en-US')} characters and cut short.`,
    );
  }
  if (droppedRows > 0) warnings.push(`A table had more than ${MAX_TABLE_ROWS} rows; ${droppedRows} row${droppedRows === 1 ? ' was' : 's were'} left out.`);
  if (droppedColumns > 0) warnings.push(`A table had more than ${MAX_TABLE_COLUMNS} columns; the extra columns were left out.`);
  if (rejectedTags.size > 0) {
    const list = [...rejectedTags].slice(0, 3).join(', ');
    warnings.push(
      `Some tags could not become placeholders and were left as text (names are at most 64 characters, without braces or asterisks): ${list}${rejectedTags.size > 3 ? ', …' : ''}.`,
    );
  }
  const { placeholders, dropped } = placeholdersFor(names);
  if (dropped > 0) warnings.push(`The document uses more than ${placeholders.length} placeholders; ${dropped} were not added.`);
  return { elements, placeholders, warnings };
}
