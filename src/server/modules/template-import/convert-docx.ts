import mammoth from 'mammoth';
import { parseDocument } from 'htmlparser2';
import type { THeadingSize } from '../../../contract/format-content.ts';
import type { TBlock } from './blocks.ts';
import { badFile } from './file-check.ts';

/*
 * .docx through mammoth: the document becomes semantic HTML (headings from the Heading styles,
 * paragraphs with <strong>/<em>, lists from Word numbering, tables, images), which is walked
 * here into blocks. Formatting that has no place in the content model (fonts, colours, table
 * borders) is dropped, as mammoth does.
 */

/** A tiny view of htmlparser2's DOM: all this walker reads. */
interface TNode {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  children?: TNode[];
  data?: string;
}

export interface TDocxImage {
  contentType: string;
  bytes: Buffer;
}

export interface TDocxConversion {
  blocks: TBlock[];
  /** Embedded images; an image block's `src` is `import-image:<index>` until they are stored. */
  images: TDocxImage[];
  warnings: string[];
}

export const IMAGE_REF_PREFIX = 'import-image:';

const STYLE_MAP = [
  // Underline is dropped by default; keep it so a fully underlined paragraph stays underlined.
  'u => u',
  "p[style-name='Title'] => h1.title:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
];

type TPiece = { kind: 'text'; text: string; bold: boolean; italic: boolean; underline: boolean } | { kind: 'break' } | { kind: 'image'; ref: number };

interface TStyle {
  bold: boolean;
  italic: boolean;
  underline: boolean;
}

const isElement = (n: TNode): n is TNode & { name: string; children: TNode[] } =>
  (n.type === 'tag' || n.type === 'script' || n.type === 'style') && typeof n.name === 'string';

function imageRef(node: TNode): number | undefined {
  const src = node.attribs?.src ?? '';
  if (!src.startsWith(IMAGE_REF_PREFIX)) return undefined;
  const n = Number(src.slice(IMAGE_REF_PREFIX.length));
  return Number.isInteger(n) ? n : undefined;
}

/** Inline content in reading order; nested lists and tables are handled by the caller. */
function inline(nodes: readonly TNode[], style: TStyle, out: TPiece[], skip: (n: TNode) => boolean = () => false) {
  for (const node of nodes) {
    if (node.type === 'text') {
      if (node.data) out.push({ kind: 'text', text: node.data, ...style });
      continue;
    }
    if (!isElement(node) || skip(node)) continue;
    switch (node.name) {
      case 'br':
        out.push({ kind: 'break' });
        break;
      case 'img': {
        const ref = imageRef(node);
        if (ref !== undefined) out.push({ kind: 'image', ref });
        break;
      }
      case 'strong':
      case 'b':
        inline(node.children, { ...style, bold: true }, out, skip);
        break;
      case 'em':
      case 'i':
        inline(node.children, { ...style, italic: true }, out, skip);
        break;
      case 'u':
        inline(node.children, { ...style, underline: true }, out, skip);
        break;
      case 'a': {
        // Footnote back-links ("↑") are navigation, not text.
        const href = node.attribs?.href ?? '';
        if (/^#(?:footnote|endnote|comment)-ref/.test(href)) break;
        inline(node.children, style, out, skip);
        break;
      }
      case 'p':
      case 'div':
      case 'li':
        if (out.some((p) => p.kind !== 'break')) out.push({ kind: 'break' });
        inline(node.children, style, out, skip);
        break;
      default:
        inline(node.children, style, out, skip);
    }
  }
}

/** Wraps text in emphasis markers, keeping surrounding spaces outside them. */
function emphasise(text: string, bold: boolean, italic: boolean): string {
  if (!bold && !italic) return text;
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  const core = m[2]!;
  if (!core) return text;
  const marker = bold && italic ? '***' : bold ? '**' : '*';
  return `${m[1]}${marker}${core}${marker}${m[3]}`;
}

interface TSerialized {
  text: string;
  allBold: boolean;
  allItalic: boolean;
  allUnderline: boolean;
}

/** Text pieces as paragraph markup: `**bold**`, `*italic*`, `\n` for breaks. */
function serialize(pieces: readonly TPiece[], opts: { emphasis: boolean } = { emphasis: true }): TSerialized {
  const texts = pieces.filter((p): p is Extract<TPiece, { kind: 'text' }> => p.kind === 'text' && p.text.trim().length > 0);
  const allBold = texts.length > 0 && texts.every((t) => t.bold);
  const allItalic = texts.length > 0 && texts.every((t) => t.italic);
  const allUnderline = texts.length > 0 && texts.every((t) => t.underline);
  // Merge neighbours of one style first, so "**a** **b**" comes out as "**a b**".
  const merged: TPiece[] = [];
  for (const p of pieces) {
    const last = merged[merged.length - 1];
    if (p.kind === 'text' && last?.kind === 'text' && last.bold === p.bold && last.italic === p.italic) {
      last.text += p.text;
    } else if (p.kind === 'text' && last?.kind === 'text' && !p.text.trim()) {
      last.text += p.text;
    } else {
      merged.push(p.kind === 'text' ? { ...p } : p);
    }
  }
  let text = '';
  for (const p of merged) {
    if (p.kind === 'break') text += '\n';
    else if (p.kind === 'text') text += opts.emphasis ? emphasise(p.text, p.bold, p.italic) : p.text;
  }
  text = text
    .replace(/[\u00a0\t ]+/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text, allBold, allItalic, allUnderline };
}

function headingSizeOf(node: TNode): THeadingSize {
  if ((node.attribs?.class ?? '').split(/\s+/).includes('title')) return 'text-4xl';
  switch (node.name) {
    case 'h1':
      return 'text-3xl';
    case 'h2':
      return 'text-2xl';
    default:
      return 'text-xl';
  }
}

/** Splits inline pieces at images: text, image, text... */
function splitAtImages(pieces: readonly TPiece[]): (TPiece[] | number)[] {
  const parts: (TPiece[] | number)[] = [];
  let run: TPiece[] = [];
  for (const p of pieces) {
    if (p.kind === 'image') {
      if (run.length) parts.push(run);
      parts.push(p.ref);
      run = [];
    } else {
      run.push(p);
    }
  }
  if (run.length) parts.push(run);
  return parts;
}

const stripEmphasis = (text: string) => text.replace(/\*+/g, '');

interface TWalkState {
  blocks: TBlock[];
  droppedImages: number;
  flattenedLists: boolean;
}

function listItems(list: TNode & { children: TNode[] }, depth: number, state: TWalkState, out: string[]) {
  for (const li of list.children) {
    if (!isElement(li) || li.name !== 'li') continue;
    const pieces: TPiece[] = [];
    inline(li.children, { bold: false, italic: false, underline: false }, pieces, (n) => n.name === 'ul' || n.name === 'ol' || n.name === 'table');
    if (pieces.some((p) => p.kind === 'image')) state.droppedImages += pieces.filter((p) => p.kind === 'image').length;
    const text = serialize(pieces.filter((p) => p.kind !== 'image')).text.replace(/\n+/g, ' ');
    if (text) out.push(depth > 0 ? `– ${text}` : text);
    for (const child of li.children) {
      if (isElement(child) && (child.name === 'ul' || child.name === 'ol')) {
        state.flattenedLists = true;
        listItems(child, depth + 1, state, out);
      }
    }
  }
}

/** The rows of a table, with merged cells spread out and nested tables as text. */
function tableRows(table: TNode & { children: TNode[] }, state: TWalkState): { rows: string[][]; headerRow: boolean } {
  const rows: { cells: { text: string; bold: boolean; header: boolean }[] }[] = [];
  const visit = (nodes: readonly TNode[]) => {
    for (const n of nodes) {
      if (!isElement(n)) continue;
      if (n.name === 'tr') {
        const cells: { text: string; bold: boolean; header: boolean }[] = [];
        for (const c of n.children) {
          if (!isElement(c) || (c.name !== 'td' && c.name !== 'th')) continue;
          const pieces: TPiece[] = [];
          inline(c.children, { bold: false, italic: false, underline: false }, pieces);
          state.droppedImages += pieces.filter((p) => p.kind === 'image').length;
          const s = serialize(pieces.filter((p) => p.kind !== 'image'));
          cells.push({ text: s.text, bold: s.allBold, header: c.name === 'th' });
          const span = Math.min(20, Math.max(1, Number(c.attribs?.colspan ?? 1) || 1));
          for (let i = 1; i < span; i++) cells.push({ text: '', bold: false, header: c.name === 'th' });
        }
        rows.push({ cells });
      } else if (n.name === 'thead' || n.name === 'tbody' || n.name === 'tfoot') {
        visit(n.children);
      }
    }
  };
  visit(table.children);
  const first = rows[0];
  const firstFilled = first?.cells.filter((c) => c.text.length > 0) ?? [];
  const headerRow = !!first && (first.cells.some((c) => c.header) || (rows.length > 1 && firstFilled.length > 0 && firstFilled.every((c) => c.bold)));
  return {
    headerRow,
    // The header row prints bold anyway; its markers would only clutter the cells.
    rows: rows.map((r, i) => r.cells.map((c) => (i === 0 && headerRow ? stripEmphasis(c.text) : c.text))),
  };
}

/** A short line entirely in bold, without a full stop: Word users' usual hand-made heading. */
function looksLikeBoldHeading(s: TSerialized): boolean {
  const plain = stripEmphasis(s.text);
  return s.allBold && !plain.includes('\n') && plain.length > 0 && plain.length <= 80 && !/[.,;:]$/.test(plain) && !/^\{\{[^}]*\}\}$/.test(plain);
}

const imageBlock = (ref: number): TBlock => ({ kind: 'image', src: `${IMAGE_REF_PREFIX}${ref}`, width: 0, height: 0 });

/** Walks the inline content of a block element: its images become image blocks in place, and each stretch of text between them goes to `text`. */
function eachTextRun(node: TNode & { children: TNode[] }, state: TWalkState, text: (run: TPiece[]) => void) {
  const pieces: TPiece[] = [];
  inline(node.children, { bold: false, italic: false, underline: false }, pieces);
  for (const part of splitAtImages(pieces)) {
    if (typeof part === 'number') state.blocks.push(imageBlock(part));
    else text(part);
  }
}

function walk(nodes: readonly TNode[], state: TWalkState) {
  for (const node of nodes) {
    if (node.type === 'text') {
      const text = (node.data ?? '').trim();
      if (text) state.blocks.push({ kind: 'paragraph', text });
      continue;
    }
    if (!isElement(node)) continue;
    switch (node.name) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        eachTextRun(node, state, (run) => {
          const s = serialize(run, { emphasis: false });
          if (s.text) {
            state.blocks.push({ kind: 'heading', text: s.text, size: headingSizeOf(node), italic: s.allItalic, underline: s.allUnderline });
          }
        });
        break;
      }
      case 'ul':
      case 'ol': {
        const items: string[] = [];
        listItems(node, 0, state, items);
        if (items.length) state.blocks.push({ kind: 'list', ordered: node.name === 'ol', items });
        break;
      }
      case 'table': {
        const { rows, headerRow } = tableRows(node, state);
        if (rows.length) state.blocks.push({ kind: 'table', rows, headerRow });
        break;
      }
      case 'img': {
        const ref = imageRef(node);
        if (ref !== undefined) state.blocks.push(imageBlock(ref));
        break;
      }
      default: {
        if (node.children.some((c) => isElement(c) && ['p', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'div'].includes(c.name))) {
          walk(node.children, state);
          break;
        }
        eachTextRun(node, state, (run) => {
          const s = serialize(run);
          if (!s.text) return;
          if (looksLikeBoldHeading(s)) {
            state.blocks.push({ kind: 'heading', text: stripEmphasis(s.text), size: 'text-xl', italic: s.allItalic, underline: s.allUnderline });
          } else {
            state.blocks.push({ kind: 'paragraph', text: s.text, underline: s.allUnderline });
          }
        });
      }
    }
  }
}

export async function convertDocx(bytes: Buffer): Promise<TDocxConversion> {
  const images: TDocxImage[] = [];
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      {
        styleMap: STYLE_MAP,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) => {
          const data = await image.readAsBuffer();
          images.push({ contentType: image.contentType, bytes: data });
          return { src: `${IMAGE_REF_PREFIX}${images.length - 1}` };
        }),
      },
    );
    html = result.value;
  } catch {
    throw badFile('This Word document is damaged or could not be read.');
  }
  const dom = parseDocument(html) as unknown as TNode;
  const state: TWalkState = { blocks: [], droppedImages: 0, flattenedLists: false };
  walk(dom.children ?? [], state);
  const warnings: string[] = [];
  if (state.droppedImages > 0) {
    warnings.push(
      `${state.droppedImages} image${state.droppedImages === 1 ? '' : 's'} inside a list or table ${state.droppedImages === 1 ? 'was' : 'were'} left out: add ${state.droppedImages === 1 ? 'it' : 'them'} as an image element.`,
    );
  }
  if (state.flattenedLists) warnings.push('Nested list levels were flattened; sub-items start with a dash.');
  return { blocks: state.blocks, images, warnings };
}
