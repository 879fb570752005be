import { z } from 'zod';

/*
 * Inline markup in paragraphs, list items, table cells, headers and footers: `**bold**`,
 * `*italic*`, and, in formats saved since documents are tagged (`extended`), `__underline__` and
 * links, `[words](https://…)`, whose address may be a placeholder. The builder's canvas and the
 * renderer read text with this one parser, so the two never disagree about what is emphasised.
 */

/** A link's address as written: a placeholder in it is filled in by whoever prints it. */
export interface TInlineLink {
  href: string;
}

export interface TInlineSpan {
  text: string;
  bold: boolean;
  italic: boolean;
  underline?: boolean;
  /** The same object for every span of one link. */
  link?: TInlineLink;
}

/** Links print in a blue that reads at 6.7:1 on white, and underlined; the builder shows them so. */
export const LINK_COLOR = '#1d4ed8';

/** The schemes a link may use: a document must never open a script or a local file. */
export const LINK_SCHEMES = ['http:', 'https:', 'mailto:'] as const;

const TAG = String.raw`\{\{[^{}]{1,100}\}\}`;
// `[words](address)`: the address is a placeholder, or http(s)/mailto with placeholders allowed in it.
const LINK_RE = new RegExp(String.raw`\[([^\[\]\n]+)\]\((${TAG}|(?:https?:\/\/|mailto:)(?:${TAG}|[^\s(){}])+)\)`, 'iy');

/** The address a link may print with, or null: only http, https and mailto, and nothing blank. */
export function safeLinkHref(href: string): string | null {
  const trimmed = href.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(trimmed);
    // The parsed form: non-ASCII percent-encoded, as a PDF's URI action must be.
    return (LINK_SCHEMES as readonly string[]).includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

export function parseInlineMarkup(text: string, { extended = false }: { extended?: boolean } = {}): TInlineSpan[] {
  if (!extended) return parseEmphasis(text);
  if (!/[*_[]/.test(text)) return [{ text, bold: false, italic: false }];
  const spans: TInlineSpan[] = [];
  parseExtended(text, { bold: false, italic: false, underline: false }, undefined, spans);
  return spans;
}

/**
 * `**bold**` and `*italic*`, as every format has printed them. A marker without a partner is
 * printed as typed, so a stray asterisk in prose never swallows the rest of the paragraph.
 */
function parseEmphasis(text: string): TInlineSpan[] {
  if (!text.includes('*')) return [{ text, bold: false, italic: false }];
  const spans: TInlineSpan[] = [];
  let bold = false;
  let italic = false;
  let buf = '';
  const flush = () => {
    if (buf.length > 0) spans.push({ text: buf, bold, italic });
    buf = '';
  };
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('**', i) && (bold || text.indexOf('**', i + 2) > i + 2)) {
      flush();
      bold = !bold;
      i += 2;
      continue;
    }
    if (text[i] === '*' && (italic || hasClosingSingle(text, i + 1))) {
      flush();
      italic = !italic;
      i += 1;
      continue;
    }
    buf += text[i];
    i++;
  }
  flush();
  return spans;
}

function hasClosingSingle(text: string, from: number): boolean {
  for (let j = from + 1; j < text.length; j++) {
    if (text[j] === '*') {
      if (text[j + 1] === '*') {
        j++;
        continue;
      }
      return true;
    }
  }
  return false;
}

type TEmphasis = { bold: boolean; italic: boolean; underline: boolean };

/** Where a placeholder tag starting at `i` ends, or -1: markers inside a tag are part of its name. */
function tagEnd(text: string, i: number): number {
  if (!text.startsWith('{{', i)) return -1;
  const end = text.indexOf('}}', i + 2);
  return end > i + 2 && end - i <= 102 && !text.slice(i + 2, end).includes('{') ? end + 2 : -1;
}

/** Whether `marker` occurs again after `from`, not inside a tag and not as part of a longer marker. */
function closes(text: string, marker: string, from: number): boolean {
  for (let j = from; j < text.length; j++) {
    const end = tagEnd(text, j);
    if (end > 0) {
      j = end - 1;
      continue;
    }
    if (marker === '*' && text.startsWith('**', j)) {
      j++;
      continue;
    }
    if (text.startsWith(marker, j)) return j > from;
  }
  return false;
}

function parseExtended(text: string, start: TEmphasis, link: TInlineLink | undefined, out: TInlineSpan[]): void {
  const state = { ...start };
  let buf = '';
  const flush = () => {
    if (buf.length === 0) return;
    out.push({ text: buf, bold: state.bold, italic: state.italic, ...(state.underline ? { underline: true } : {}), ...(link ? { link } : {}) });
    buf = '';
  };
  let i = 0;
  while (i < text.length) {
    const end = tagEnd(text, i);
    if (end > 0) {
      buf += text.slice(i, end);
      i = end;
      continue;
    }
    if (text[i] === '[' && !link) {
      LINK_RE.lastIndex = i;
      const m = LINK_RE.exec(text);
      if (m) {
        flush();
        parseExtended(m[1]!, state, { href: m[2]! }, out);
        i += m[0].length;
        continue;
      }
    }
    if (text.startsWith('**', i) && (state.bold || closes(text, '**', i + 2))) {
      flush();
      state.bold = !state.bold;
      i += 2;
      continue;
    }
    if (text.startsWith('__', i) && (state.underline || closes(text, '__', i + 2))) {
      flush();
      state.underline = !state.underline;
      i += 2;
      continue;
    }
    if (text[i] === '*' && (state.italic || closes(text, '*', i + 1))) {
      flush();
      state.italic = !state.italic;
      i += 1;
      continue;
    }
    buf += text[i];
    i++;
  }
  flush();
}

const ADDRESS_RE = new RegExp(String.raw`^(?:${TAG}|(?:https?:\/\/|mailto:)(?:${TAG}|[^\s(){}])+)$`, 'i');

/** Whether `address` can be a link's address in markup: http(s) or mailto, placeholders allowed in it, or one placeholder. */
export function isLinkAddress(address: string): boolean {
  if (!ADDRESS_RE.test(address)) return false;
  // A placeholder stands for something filled in later: what is around it must already be an address.
  return address.startsWith('{{') || safeLinkHref(address.replace(new RegExp(TAG, 'g'), 'x')) !== null;
}

/** Without the scheme, `www.` and a trailing slash, in lower case: how an address reads aloud. */
function spokenAddress(address: string): string {
  return address
    .trim()
    .toLowerCase()
    .replace(/^(?:https?:\/\/|mailto:)/, '')
    .replace(/^www\./, '')
    .replace(/\/$/, '');
}

/**
 * The words of each link in `text` that are only its address ("https://example.com/prices"), which
 * a screen reader spells out character by character and which says nothing of where it leads. An
 * email address as a mail link's words is the usual way to write one, and reads well.
 */
export function linksNamedByAddress(text: string): string[] {
  if (!text.includes('](')) return [];
  const words = new Map<TInlineLink, string>();
  for (const span of parseInlineMarkup(text, { extended: true })) {
    if (span.link) words.set(span.link, (words.get(span.link) ?? '') + span.text);
  }
  const found: string[] = [];
  for (const [link, shown] of words) {
    const mail = /^mailto:/i.test(link.href);
    const looksLikeAddress = /^(?:https?:\/\/|www\.)/i.test(shown.trim()) || (mail && /^mailto:/i.test(shown.trim()));
    if (looksLikeAddress || (!mail && spokenAddress(shown) === spokenAddress(link.href))) found.push(shown.trim());
  }
  return found;
}

/** The builder's link dialog (Ctrl/Cmd+K): the words and where they lead, written as `[words](address)`. */
export const ZLinkInput = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Enter the words that show the link.')
    .max(500, 'Keep the link’s words under 500 characters.')
    .refine((text) => !/[[\]\n]/.test(text), { message: 'A link’s words cannot hold [ ] or a line break.' }),
  address: z
    .string()
    .trim()
    .min(1, 'Enter the address the link opens.')
    .max(2_000, 'The address is too long.')
    // Spaces and brackets would end the markup early: written encoded, as a browser sends them.
    .transform((address) => address.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29'))
    .refine(isLinkAddress, { message: 'Use an address starting with https://, http:// or mailto:, or a {{placeholder}}.' }),
});
export type TLinkInput = z.input<typeof ZLinkInput>;

export function linkMarkup(link: z.output<typeof ZLinkInput>): string {
  return `[${link.text}](${link.address})`;
}

/** The link `[words](address)` that spans [start, end) of `text` exactly or contains it, if any. */
export function linkAt(text: string, start: number, end: number): { start: number; end: number; text: string; address: string } | null {
  const any = new RegExp(LINK_RE.source, 'gi');
  for (let m = any.exec(text); m; m = any.exec(text)) {
    const to = m.index + m[0].length;
    if (m.index <= start && end <= to) return { start: m.index, end: to, text: m[1]!, address: m[2]! };
  }
  return null;
}
