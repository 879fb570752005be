import { z } from 'zod';
import { ZShowIf } from './conditions.ts';
import { ZPlaceholder, ZPlaceholderName } from './placeholders.ts';

/*
 * The content model of a format: what the builder edits, the server stores and the renderer
 * prints. Beyond each element's basic fields, everything the builder offers (fonts, sizes,
 * colours, page setup, header and footer) is optional, with defaults, so that minimal or older
 * content still parses.
 *
 * Units: sizes, widths and heights are CSS pixels, as the builder shows them; the renderer
 * prints 1 px as 0.75 pt (96 px per inch, as browsers print). Page margins are millimetres.
 */

// Bounds so the API can reject absurd payloads before they reach the renderer.
export const MAX_ELEMENTS = 500;
export const MAX_TEXT_LENGTH = 20_000;
export const MAX_LIST_ITEMS = 500;
export const MAX_TABLE_ROWS = 1_000;
export const MAX_TABLE_COLUMNS = 20;
export const MAX_CELL_LENGTH = 2_000;
export const MAX_IMAGE_PX = 2_000;
export const MAX_HEADER_FOOTER_LENGTH = 500;

export const FONT_FAMILIES = ['Arial', 'Times New Roman', 'Helvetica', 'Inter'] as const;
export const ZFontFamily = z.enum(FONT_FAMILIES);
export type TFontFamily = z.infer<typeof ZFontFamily>;

export const FONT_SIZES_PX = [12, 14, 16, 18] as const;
export const ZFontSizePx = z.union([z.literal(12), z.literal(14), z.literal(16), z.literal(18)]);
export type TFontSizePx = z.infer<typeof ZFontSizePx>;

/** `#rrggbb`, as an `<input type="color">` gives it. */
export const ZColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #1a2b3c.');

/** Text style; on the format it is the default, on an element it overrides the format's. */
export const ZTextStyle = z.object({
  fontFamily: ZFontFamily.optional(),
  fontSize: ZFontSizePx.optional(),
  color: ZColor.optional(),
});
export type TTextStyle = z.infer<typeof ZTextStyle>;

export const DEFAULT_TEXT_STYLE = { fontFamily: 'Arial', fontSize: 16, color: '#000000' } as const satisfies Required<TTextStyle>;

export const HEADING_SIZES = ['text-xl', 'text-2xl', 'text-3xl', 'text-4xl'] as const;
export const ZHeadingSize = z.enum(HEADING_SIZES);
export type THeadingSize = z.infer<typeof ZHeadingSize>;
/** The Tailwind sizes the builder previews headings with, in px. */
export const HEADING_SIZE_PX: Record<THeadingSize, number> = {
  'text-xl': 20,
  'text-2xl': 24,
  'text-3xl': 30,
  'text-4xl': 36,
};

export const ZAlign = z.enum(['left', 'center', 'right', 'justify']);
export type TAlign = z.infer<typeof ZAlign>;
export const ZImageAlign = z.enum(['left', 'center', 'right']);

const ZElementId = z.string().max(64);

/** A BCP 47 tag, e.g. `en-US`, `de-DE`, `hi-IN`; used to format date and number values. */
export const ZLocale = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,4}$/)
  .max(35);

const elementBase = {
  /** A timestamp string in the builder; only needs to be unique within the format. */
  id: ZElementId,
  style: ZTextStyle.optional(),
  /** Printed only when this holds (conditions.ts); a hidden element leaves no gap. */
  showIf: ZShowIf.optional(),
  /**
   * The language its text is in when that is not the format's (a clause in Arabic in an English
   * contract); a section's applies to its elements that have none. A tagged document gives the
   * element this `/Lang`, so a screen reader reads it in that language's voice.
   */
  lang: ZLocale.optional(),
};

const ZText = z.string().max(MAX_TEXT_LENGTH);

export const ZHeadingElement = z.object({
  ...elementBase,
  type: z.literal('heading'),
  content: ZText.default(''),
  fontSize: ZHeadingSize.default('text-2xl'),
  align: ZAlign.default('left'),
  bold: z.boolean().default(true),
  italic: z.boolean().default(false),
  underline: z.boolean().default(false),
  /**
   * Its level in the document's outline, 1 to 6, as a screen reader announces it. Without one
   * (formats saved before headings had levels) the level follows the size (headingLevel).
   */
  level: z.number().int().min(1).max(6).optional(),
});
export type THeadingElement = z.infer<typeof ZHeadingElement>;
export type THeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** The level a heading of each size had before headings had levels of their own. */
export const HEADING_LEVEL_OF_SIZE: Record<THeadingSize, THeadingLevel> = { 'text-4xl': 1, 'text-3xl': 2, 'text-2xl': 3, 'text-xl': 4 };

export function headingLevel(heading: Pick<THeadingElement, 'fontSize' | 'level'>): THeadingLevel {
  return (heading.level as THeadingLevel | undefined) ?? HEADING_LEVEL_OF_SIZE[heading.fontSize];
}

/**
 * Text with `**bold**`, `*italic*`, `__underline__`, links `[words](https://…)` (http, https,
 * mailto, or a placeholder as the address) and line breaks (`\n`): inline-markup.ts.
 */
export const ZParagraphElement = z.object({
  ...elementBase,
  type: z.literal('paragraph'),
  content: ZText.default(''),
  align: ZAlign.default('left'),
  bold: z.boolean().default(false),
  italic: z.boolean().default(false),
  underline: z.boolean().default(false),
});
export type TParagraphElement = z.infer<typeof ZParagraphElement>;

export const ZListStyle = z.enum(['bulleted', 'numbered']);

/** Items support the same inline markup as paragraphs: emphasis, underline and links. */
export const ZListElement = z.object({
  ...elementBase,
  type: z.literal('list'),
  items: z.array(z.string().max(MAX_CELL_LENGTH)).max(MAX_LIST_ITEMS).default([]),
  listStyle: ZListStyle.default('bulleted'),
  /**
   * The name of a list placeholder: its items are then templates, printed once per row of that
   * list, where `{{qty}}` (or `{{items.qty}}`) is the row's value.
   */
  repeat: ZPlaceholderName.optional(),
});
export type TListElement = z.infer<typeof ZListElement>;

/**
 * `rows[r][c]` is the text of a cell (inline markup as in paragraphs). Rows may have different
 * lengths; the widest row sets the column count. `headerRow` prints the first row bold and
 * repeats it at the top of every page the table continues on. `columnWidths` are relative
 * weights (e.g. `[1, 2, 1]` or percentages); missing or extra entries are ignored and missing
 * columns get weight 1.
 */
export const ZTableElement = z.object({
  ...elementBase,
  type: z.literal('table'),
  rows: z
    .array(z.array(z.string().max(MAX_CELL_LENGTH)).max(MAX_TABLE_COLUMNS))
    .max(MAX_TABLE_ROWS)
    .default([
      ['', ''],
      ['', ''],
    ]),
  headerRow: z.boolean().default(false),
  columnWidths: z.array(z.number().positive().max(10_000)).max(MAX_TABLE_COLUMNS).optional(),
  /** Each body row's first cell names the row (Name | Jane): read aloud with the row's other cells. */
  headerColumn: z.boolean().optional(),
  /**
   * Only places text side by side (an address beside invoice details): a screen reader reads its
   * cells as paragraphs, left to right and row by row, not as a grid of data.
   */
  layout: z.boolean().optional(),
  /**
   * One body row printed once per row of a list placeholder; inside it `{{qty}}` (or
   * `{{items.qty}}`) is that row's value. It splits across pages like any row.
   */
  repeat: z
    .object({
      /** Index in `rows` (never the header row). */
      row: z
        .number()
        .int()
        .min(0)
        .max(MAX_TABLE_ROWS - 1),
      list: ZPlaceholderName,
    })
    .optional(),
});
export type TTableElement = z.infer<typeof ZTableElement>;

/**
 * `src` is an `http(s)` URL or an uploaded asset path (`/api/assets/<id>`). The renderer never
 * fetches it: the caller passes the bytes keyed by this exact string.
 */
export const ZImageSrc = z
  .string()
  .max(2_048)
  .refine((s) => s === '' || /^https?:\/\//i.test(s) || /^\/api\/assets\/[A-Za-z0-9_-]+$/.test(s), {
    message: 'Use an http(s) URL or an uploaded image.',
  });

/** POST /api/assets/from-url: an image address to fetch once and keep as an uploaded image. */
export const ZImageFromUrlBody = z.object({
  url: z
    .string()
    .trim()
    .max(2_048, 'The image address is too long.')
    .regex(/^https?:\/\/\S+$/i, 'Enter an image address starting with http:// or https://'),
});
export type TImageFromUrlBody = z.infer<typeof ZImageFromUrlBody>;

export const ZImageElement = z.object({
  ...elementBase,
  type: z.literal('image'),
  src: ZImageSrc.default(''),
  width: z.number().positive().max(MAX_IMAGE_PX).default(300),
  height: z.number().positive().max(MAX_IMAGE_PX).default(200),
  align: ZImageAlign.default('left'),
  /**
   * What the image shows, for readers who cannot see it; placeholders are filled in. A tagged
   * document gives it to the image's Figure as its alternative text.
   */
  alt: z.string().trim().max(1_000, 'Keep the alternative text under 1,000 characters.').optional(),
  /** Adds nothing a reader needs (a rule, a flourish): tagged documents leave it out of the structure. */
  decorative: z.boolean().optional(),
});
export type TImageElement = z.infer<typeof ZImageElement>;

/** The elements that print something themselves. */
export const ZLeafElement = z
  .discriminatedUnion('type', [ZHeadingElement, ZParagraphElement, ZListElement, ZTableElement, ZImageElement])
  .meta({ id: 'LeafElement' });
export type TLeafElement = z.infer<typeof ZLeafElement>;

/**
 * Several elements under one condition: the section prints its elements when its `showIf`
 * holds and nothing at all (no gap) when it does not. Its title names it in the builder only.
 */
export const ZSectionElement = z.object({
  ...elementBase,
  type: z.literal('section'),
  title: z.string().max(200).default(''),
  elements: z.array(ZLeafElement).max(MAX_ELEMENTS).default([]),
});
export type TSectionElement = z.infer<typeof ZSectionElement>;

export const ZElement = z.discriminatedUnion('type', [ZHeadingElement, ZParagraphElement, ZListElement, ZTableElement, ZImageElement, ZSectionElement]);
export type TElement = z.infer<typeof ZElement>;
export type TElementInput = z.input<typeof ZElement>;
export type TElementType = TElement['type'];
export const ELEMENT_TYPES = ['heading', 'paragraph', 'list', 'table', 'image', 'section'] as const satisfies readonly TElementType[];

/** Every element that prints something, sections opened up, in document order. */
export function leafElements(elements: readonly TElement[]): TLeafElement[] {
  const out: TLeafElement[] = [];
  for (const element of elements) {
    if (element.type === 'section') out.push(...element.elements);
    else out.push(element);
  }
  return out;
}

/** Elements in a format, sections and what they hold counted alike. */
export function countElements(elements: readonly TElement[]): number {
  let n = 0;
  for (const element of elements) n += element.type === 'section' ? 1 + element.elements.length : 1;
  return n;
}

export const ZPageSize = z.enum(['A4', 'Letter']);
export const ZOrientation = z.enum(['portrait', 'landscape']);

const ZMarginMm = z.number().min(0).max(60);
export const ZPageSetup = z.object({
  size: ZPageSize.default('A4'),
  orientation: ZOrientation.default('portrait'),
  /** Millimetres. */
  margins: z
    .object({
      top: ZMarginMm.default(20),
      right: ZMarginMm.default(20),
      bottom: ZMarginMm.default(20),
      left: ZMarginMm.default(20),
    })
    .default({ top: 20, right: 20, bottom: 20, left: 20 }),
});
export type TPageSetup = z.infer<typeof ZPageSetup>;

/** Reserved tokens in header and footer text; they win over placeholders of the same name there. */
export const PAGE_NUMBER_TOKEN = '{{page}}';
export const PAGE_COUNT_TOKEN = '{{pages}}';

/**
 * A line printed in the top or bottom margin of every page. `text` may contain placeholders and
 * the page tokens, e.g. `"Page {{page}} of {{pages}}"` -> "Page 2 of 5".
 */
export const ZHeaderFooter = z.object({
  text: z.string().max(MAX_HEADER_FOOTER_LENGTH).default(''),
  align: ZImageAlign.default('center'),
  style: ZTextStyle.optional(),
});
export type THeaderFooter = z.infer<typeof ZHeaderFooter>;

/** A document-name pattern: one line, at most 200 characters; empty means none. */
export const ZDocumentNamePattern = z
  .string()
  .trim()
  .max(200, 'Keep the document name pattern under 200 characters.')
  .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), { message: 'A document name is one line.' });

/** An ISO 4217 code, e.g. `USD`, `EUR`, `INR`. */
export const ZCurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'Use a three-letter currency code such as USD.');

export const ZFormatContent = z.object({
  elements: z
    .array(ZElement)
    .max(MAX_ELEMENTS)
    .default([])
    .refine((elements) => countElements(elements) <= MAX_ELEMENTS, {
      message: `A format may hold at most ${MAX_ELEMENTS} elements, those in sections included.`,
    }),
  style: ZTextStyle.optional(),
  page: ZPageSetup.optional(),
  /**
   * How its documents are named, e.g. `Offer Letter – {{candidate_name}}`: placeholders and
   * `{{date}}` filled in (documentNameFor). Without it, "Format - Client - date".
   */
  documentNamePattern: ZDocumentNamePattern.optional(),
  header: ZHeaderFooter.optional(),
  footer: ZHeaderFooter.optional(),
  locale: ZLocale.optional(),
  /** What `{{x | currency}}` prints in; USD when not set. */
  currency: ZCurrencyCode.optional(),
  /**
   * Tags may carry a value format (`{{total | currency}}`). Every save sets it (formats.ts); a
   * format saved before value formats existed has none, so its documents print exactly as they
   * did, a bar in a tag being part of the name.
   */
  tagFormats: z.boolean().optional(),
  /**
   * Its documents are tagged PDF/UA and PDF/A-2 (docs/accessible-pdf.md). Every save sets it
   * (formats.ts); documents made from a format version saved before print the bytes they had.
   */
  accessible: z.boolean().optional(),
});
export type TFormatContent = z.infer<typeof ZFormatContent>;
export type TFormatContentInput = z.input<typeof ZFormatContent>;

/** What the renderer needs of a format (or of the format version a document was made from). */
export const ZRenderableFormat = z.object({
  content: ZFormatContent,
  placeholders: z.array(ZPlaceholder).max(200).default([]),
});
export type TRenderableFormat = z.infer<typeof ZRenderableFormat>;
export type TRenderableFormatInput = z.input<typeof ZRenderableFormat>;

/** Distinct images given by address one format may show; each is fetched once, when it is saved. */
export const MAX_IMAGE_ADDRESSES = 50;

/** Every distinct image source a format shows, in order of first use. */
export function imageSources(content: Pick<TFormatContent, 'elements'>): string[] {
  const sources = new Set<string>();
  for (const element of leafElements(content.elements)) {
    if (element.type === 'image' && element.src) sources.add(element.src);
  }
  return [...sources];
}

export const isImageAddress = (src: string) => /^https?:\/\//i.test(src);

function mapOne(element: TElement, fn: (text: string) => string): TElement {
  switch (element.type) {
    case 'heading':
    case 'paragraph':
      return { ...element, content: fn(element.content) };
    case 'list':
      return { ...element, items: element.items.map(fn) };
    case 'table':
      return { ...element, rows: element.rows.map((row) => row.map(fn)) };
    case 'image':
      return element;
    case 'section':
      return { ...element, elements: element.elements.map((child) => mapOne(child, fn) as TLeafElement) };
  }
}

/** `content` with `fn` applied to every text `contentTexts` lists (a rename of a placeholder's tags). */
export function mapContentTexts<T extends Pick<TFormatContent, 'elements' | 'header' | 'footer'>>(content: T, fn: (text: string) => string): T {
  const elements = content.elements.map((element): TElement => mapOne(element, fn));
  return {
    ...content,
    elements,
    ...(content.header ? { header: { ...content.header, text: fn(content.header.text) } } : {}),
    ...(content.footer ? { footer: { ...content.footer, text: fn(content.footer.text) } } : {}),
  };
}

/** The texts of one element, a section's elements included. */
export function elementTexts(element: TElement): string[] {
  switch (element.type) {
    case 'heading':
    case 'paragraph':
      return [element.content];
    case 'list':
      return element.items;
    case 'table':
      return element.rows.flat();
    case 'image':
      return [];
    case 'section':
      return element.elements.flatMap(elementTexts);
  }
}

/** Every piece of text in a format that placeholders can appear in. */
export function contentTexts(content: Pick<TFormatContent, 'elements' | 'header' | 'footer'>): string[] {
  const texts: string[] = [];
  for (const element of content.elements) texts.push(...elementTexts(element));
  if (content.header) texts.push(content.header.text);
  if (content.footer) texts.push(content.footer.text);
  return texts;
}
