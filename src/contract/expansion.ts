import { contentTexts, type TFormatContent } from './format-content.ts';
import { findPlaceholderTags } from './placeholders.ts';

/**
 * Characters of text a document may hold once its placeholders are filled in. Layout time grows
 * with the text, and one short value used in thousands of places can make megabytes, so the
 * total is checked before any layout starts.
 */
export const MAX_EXPANDED_TEXT_CHARS = 2_000_000;

export type TExpansion = {
  /** Characters of text once every placeholder is replaced by its value. */
  chars: number;
  /** The placeholder whose values add the most text, with what it adds. */
  largest?: { name: string; chars: number; uses: number };
};

/**
 * A measure of `content`, read once: its literal text and how often each placeholder appears.
 * Measuring a filled-in document with it then costs one step per placeholder, so a bulk job can
 * measure every row.
 */
export function expansionMeter(content: Pick<TFormatContent, 'elements' | 'header' | 'footer'>) {
  let literal = 0;
  const uses = new Map<string, number>();
  for (const text of contentTexts(content)) {
    literal += text.length;
    for (const tag of findPlaceholderTags(text)) {
      literal -= tag.end - tag.start;
      uses.set(tag.name, (uses.get(tag.name) ?? 0) + 1);
    }
  }
  return (valueLength: (name: string) => number): TExpansion => {
    let chars = literal;
    let largest: TExpansion['largest'];
    for (const [name, count] of uses) {
      const added = valueLength(name) * count;
      chars += added;
      if (!largest || added > largest.chars) largest = { name, chars: added, uses: count };
    }
    return { chars, ...(largest ? { largest } : {}) };
  };
}

/** How much text `content` holds once filled with `values`, without building that text. */
export function measureExpansion(
  content: Pick<TFormatContent, 'elements' | 'header' | 'footer'>,
  valueLength: (name: string) => number,
): TExpansion {
  return expansionMeter(content)(valueLength);
}

const megabytes = (chars: number) => `${(chars / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** The problem with a document's size, naming the placeholder that adds the most, or undefined. */
export function expansionProblem(expansion: TExpansion): string | undefined {
  if (expansion.chars <= MAX_EXPANDED_TEXT_CHARS) return undefined;
  const cause = expansion.largest
    ? ` Most of it comes from {{${expansion.largest.name}}}, used ${expansion.largest.uses.toLocaleString('en-US')} ${expansion.largest.uses === 1 ? 'time' : 'times'}: shorten its value or use it in fewer places.`
    : '';
  return `This document would hold ${megabytes(expansion.chars)} of text, more than the ${megabytes(MAX_EXPANDED_TEXT_CHARS)} a document may hold.${cause}`;
}
