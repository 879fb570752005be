import type { TFilledValues } from './filled-values.ts';
import { elementTexts, leafElements, type TFormatContent } from './format-content.ts';
import { findPlaceholderTags, normalizePlaceholderName } from './placeholders.ts';

/**
 * Characters of text a document may hold once its placeholders are filled in. Layout time grows
 * with the text, and one short value used in thousands of places can make megabytes, so the
 * total is checked before any layout starts. A repeating row counts once per row of its list.
 */
export const MAX_EXPANDED_TEXT_CHARS = 2_000_000;

export type TExpansion = {
  /** Characters of text once every placeholder is replaced by its value. */
  chars: number;
  /** The placeholder whose values add the most text, with what it adds (for a list, `uses` is its rows). */
  largest?: { name: string; chars: number; uses: number; list?: true };
};

/** Text printed once per row of a list: a repeating table row, or a repeating list's items. */
interface TRepeatBlock {
  list: string;
  literal: number;
  uses: Map<string, number>;
}

function countTags(texts: readonly string[], uses: Map<string, number>): number {
  let literal = 0;
  for (const text of texts) {
    literal += text.length;
    for (const tag of findPlaceholderTags(text)) {
      literal -= tag.end - tag.start;
      uses.set(tag.name, (uses.get(tag.name) ?? 0) + 1);
    }
  }
  return literal;
}

const lengthOf = (value: unknown) => (typeof value === 'string' ? value.length : 0);

/**
 * A measure of `content`, read once: its literal text and how often each placeholder appears,
 * inside and outside repeating rows. Measuring a filled-in document with it then costs one step
 * per placeholder (and per row of a list), so a bulk job can measure every row. Conditions are
 * not applied: hidden elements count too, so the bound holds whatever the values decide.
 */
export function expansionMeter(content: Pick<TFormatContent, 'elements' | 'header' | 'footer'>) {
  const uses = new Map<string, number>();
  const blocks: TRepeatBlock[] = [];
  let literal = 0;
  for (const element of leafElements(content.elements)) {
    if (element.type === 'table' && element.repeat && element.repeat.row < element.rows.length) {
      const { row, list } = element.repeat;
      literal += countTags(element.rows.filter((_, r) => r !== row).flat(), uses);
      const block: TRepeatBlock = { list, literal: 0, uses: new Map() };
      block.literal = countTags(element.rows[row] ?? [], block.uses);
      blocks.push(block);
    } else if (element.type === 'list' && element.repeat) {
      const block: TRepeatBlock = { list: element.repeat, literal: 0, uses: new Map() };
      block.literal = countTags(element.items, block.uses);
      blocks.push(block);
    } else literal += countTags(elementTexts(element), uses);
  }
  literal += countTags([content.header?.text ?? '', content.footer?.text ?? ''], uses);

  return (values: Readonly<TFilledValues>): TExpansion => {
    const added = new Map<string, { chars: number; uses: number; list?: true }>();
    const add = (name: string, chars: number, count: number, list = false) => {
      const entry = added.get(name) ?? { chars: 0, uses: 0 };
      entry.chars += chars;
      // A list's uses are its rows, however many elements repeat them.
      entry.uses = list ? Math.max(entry.uses, count) : entry.uses + count;
      if (list) entry.list = true;
      added.set(name, entry);
    };
    let chars = literal;
    for (const [name, count] of uses) {
      const extra = lengthOf(values[name]) * count;
      chars += extra;
      add(name, extra, count);
    }
    for (const block of blocks) {
      const rows = values[block.list];
      if (!Array.isArray(rows)) continue;
      const prefix = `${block.list}.`;
      let blockChars = 0;
      for (const row of rows) {
        blockChars += block.literal;
        for (const [name, count] of block.uses) {
          const column = normalizePlaceholderName(name.startsWith(prefix) ? name.slice(prefix.length) : name);
          blockChars += (column in row ? lengthOf(row[column]) : lengthOf(values[name])) * count;
        }
      }
      chars += blockChars;
      add(block.list, blockChars, rows.length, true);
    }
    let largest: TExpansion['largest'];
    for (const [name, entry] of added) if (!largest || entry.chars > largest.chars) largest = { name, ...entry };
    return { chars, ...(largest && largest.chars > 0 ? { largest } : {}) };
  };
}

/** How much text `content` holds once filled with `values`, without building that text. */
export function measureExpansion(content: Pick<TFormatContent, 'elements' | 'header' | 'footer'>, values: Readonly<TFilledValues>): TExpansion {
  return expansionMeter(content)(values);
}

const megabytes = (chars: number) => `${(chars / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** The problem with a document's size, naming the placeholder that adds the most, or undefined. */
export function expansionProblem(expansion: TExpansion): string | undefined {
  if (expansion.chars <= MAX_EXPANDED_TEXT_CHARS) return undefined;
  const largest = expansion.largest;
  const cause = !largest
    ? ''
    : largest.list
      ? ` Most of it comes from the ${largest.uses.toLocaleString('en-US')} rows of {{${largest.name}}}: send fewer rows or shorter values.`
      : ` Most of it comes from {{${largest.name}}}, used ${largest.uses.toLocaleString('en-US')} ${largest.uses === 1 ? 'time' : 'times'}: shorten its value or use it in fewer places.`;
  return `This document would hold ${megabytes(expansion.chars)} of text, more than the ${megabytes(MAX_EXPANDED_TEXT_CHARS)} a document may hold.${cause}`;
}
