import type { THeadingSize } from '../../../contract/format-content.ts';
import type { TBlock } from './blocks.ts';

/*
 * Plain text: blocks are separated by blank lines; inside a block single newlines are line
 * breaks. Lines that look like headings become headings:
 * - Markdown `# Title` lines (anywhere);
 * - a short ALL CAPS line (at the start of a block);
 * - a short line on its own (followed by a blank line) in Title Case or numbered like
 *   `1. Introduction` / `2.3 Scope` / `IV. Terms`, without a final period.
 * Blocks whose every line starts with a bullet (`-`, `*`, `•`) or a number (`1.`, `2)`) are lists.
 */

const MAX_HEADING_CHARS = 80;
const MD_HEADING_RE = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const BULLET_RE = /^(?:[-*•◦▪‣–]\s+)(.*)$/;
const NUMBERED_ITEM_RE = /^(?:\d{1,3}|[a-zA-Z])[.)]\s+(.*)$/;
const SECTION_NUMBER_RE = /^(?:\d{1,2}(?:\.\d{1,2})*\.?|[IVXLC]{1,6}\.|(?:Article|Section|Clause|Chapter|Part)\s+[\dIVXLC]+[.:]?)\s+\S/i;
const ENDS_LIKE_SENTENCE_RE = /[.,;:!?…]["')\]]*$/;
const SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'but',
  'by',
  'for',
  'in',
  'nor',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
  'vs',
  'via',
  'per',
  'de',
  'la',
]);

function markdownHeadingSize(hashes: number): THeadingSize {
  if (hashes === 1) return 'text-3xl';
  if (hashes === 2) return 'text-2xl';
  return 'text-xl';
}

function hasLetters(line: string): boolean {
  return /\p{L}/u.test(line);
}

/** Starts with a letter, digit or opening quote: not a tag, a bullet or punctuation. */
function startsLikeText(line: string): boolean {
  return /^["'“‘(]?[\p{L}\p{N}]/u.test(line);
}

export function isAllCapsHeading(line: string): boolean {
  if (line.length > MAX_HEADING_CHARS || !startsLikeText(line) || line.includes('{{')) return false;
  const letters = line.replace(/[^\p{L}]/gu, '');
  if (letters.length < 2) return false;
  if (letters !== letters.toUpperCase() || letters === letters.toLowerCase()) return false;
  return !/[.;,]$/.test(line);
}

export function isTitleCaseHeading(line: string): boolean {
  if (line.length > 60 || !startsLikeText(line) || ENDS_LIKE_SENTENCE_RE.test(line) || line.includes('{{')) return false;
  const words = line.split(/\s+/).filter((w) => hasLetters(w));
  if (words.length === 0 || words.length > 10) return false;
  const first = words[0]!;
  if (!/^["'“‘(]?\p{Lu}/u.test(first)) return false;
  const significant = words.slice(1).filter((w) => !SMALL_WORDS.has(w.toLowerCase()));
  const capitalised = significant.filter((w) => /^["'“‘(]?[\p{Lu}\p{N}]/u.test(w));
  return capitalised.length === significant.length;
}

export function isNumberedHeading(line: string): boolean {
  if (line.length > MAX_HEADING_CHARS || /\.$/.test(line) || !SECTION_NUMBER_RE.test(line)) return false;
  // The text after the number starts with a capital ("1. Introduction", not "1. buy milk").
  const rest = line.replace(/^\S+\s+/, '').replace(/^[\dIVXLC]+[.:]?\s+/i, '');
  return /^\p{Lu}/u.test(rest) && !/[;,:]$/.test(line);
}

function listOf(lines: string[]): TBlock | undefined {
  if (lines.length === 0) return undefined;
  const bullets = lines.map((l) => BULLET_RE.exec(l));
  if (bullets.every(Boolean)) return { kind: 'list', ordered: false, items: bullets.map((m) => m![1]!.trim()) };
  const numbers = lines.map((l) => NUMBERED_ITEM_RE.exec(l));
  if (lines.length > 1 && numbers.every(Boolean)) return { kind: 'list', ordered: true, items: numbers.map((m) => m![1]!.trim()) };
  return undefined;
}

function blockToBlocks(lines: string[], out: TBlock[], hasNext: boolean) {
  // Markdown headings split a block wherever they are.
  const md = lines.findIndex((l) => MD_HEADING_RE.test(l));
  if (md >= 0) {
    if (md > 0) blockToBlocks(lines.slice(0, md), out, true);
    const m = MD_HEADING_RE.exec(lines[md]!)!;
    out.push({ kind: 'heading', text: m[2]!.replace(/\*+/g, ''), size: markdownHeadingSize(m[1]!.length) });
    if (md < lines.length - 1) blockToBlocks(lines.slice(md + 1), out, hasNext);
    return;
  }
  if (lines.length === 0) return;
  const first = lines[0]!;
  if (lines.length === 1) {
    if (isNumberedHeading(first) || isAllCapsHeading(first)) {
      out.push({ kind: 'heading', text: first, size: isAllCapsHeading(first) ? 'text-2xl' : 'text-xl' });
      return;
    }
    // Title Case needs something after it: a name on the last line is a signature, not a heading.
    if (hasNext && !BULLET_RE.test(first) && isTitleCaseHeading(first)) {
      out.push({ kind: 'heading', text: first, size: 'text-xl' });
      return;
    }
  } else if (isAllCapsHeading(first) && !BULLET_RE.test(first)) {
    // "TERMS AND CONDITIONS" directly above its first paragraph.
    out.push({ kind: 'heading', text: first, size: 'text-2xl' });
    blockToBlocks(lines.slice(1), out, hasNext);
    return;
  }
  const list = listOf(lines);
  if (list) {
    out.push(list);
    return;
  }
  out.push({ kind: 'paragraph', text: lines.join('\n') });
}

export function convertText(text: string): TBlock[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029\f\v]/g, '\n')
    .split('\n')
    .map((l) =>
      l
        .replace(/\t/g, '    ')
        .replace(/[\u00a0 ]+/g, ' ')
        .trim(),
    );
  const groups: string[][] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line === '') {
      if (current.length) groups.push(current);
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length) groups.push(current);
  const blocks: TBlock[] = [];
  groups.forEach((g, i) => blockToBlocks(g, blocks, i < groups.length - 1));
  return blocks;
}
