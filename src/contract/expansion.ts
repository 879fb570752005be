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

/** How much text `content` holds once filled with `values`, without building that text. */
export function measureExpansion(
  content: Pick<TFormatContent, 'elements' | 'header' | 'footer'>,
  valueLength: (name: string) => number,
): TExpansion {
  let chars = 0;
  const added = new Map<string, { chars: number; uses: number }>();
  for (const text of contentTexts(content)) {
    let literal = text.length;
    for (const tag of findPlaceholderTags(text)) {
      literal -= tag.end - tag.start;
      const length = valueLength(tag.name);
      const entry = added.get(tag.name) ?? { chars: 0, uses: 0 };
      entry.chars += length;
      entry.uses += 1;
      added.set(tag.name, entry);
      chars += length;
    }
    chars += literal;
  }
  let largest: TExpansion['largest'];
  for (const [name, entry] of added) if (!largest || entry.chars > largest.chars) largest = { name, ...entry };
  return { chars, ...(largest ? { largest } : {}) };
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
