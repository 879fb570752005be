import type { z } from 'zod';
import { showIfHolds, type TShowIf } from '../contract/conditions.ts';
import { computeFormulas, type TFilledValues, type TListRow } from '../contract/filled-values.ts';
import { sameLanguage } from '../contract/languages.ts';
import {
  DEFAULT_TEXT_STYLE,
  ELEMENT_TYPES,
  ZCurrencyCode,
  ZElement,
  ZHeaderFooter,
  ZLocale,
  ZPageSetup,
  ZTextStyle,
  type TLeafElement,
  type TPageSetup,
} from '../contract/format-content.ts';
import {
  DEFAULT_CURRENCY,
  DEFAULT_LOCALE,
  MAX_LIST_ROWS,
  MAX_PLACEHOLDER_VALUE_LENGTH,
  ZPlaceholder,
  formatPlaceholderValue,
  normalizePlaceholderName,
  printValue,
  substituteTags,
  type TListColumn,
  type TPlaceholder,
  type TPlaceholderTag,
  type TPrintSettings,
  type TPrintable,
} from '../contract/placeholders.ts';
import type { PageBox, TListRows } from './flow-context.ts';
import type { PdfImage } from './images.ts';
import { Flow } from './layout.ts';
import type { DocumentCanvas, TLinkAnnotation } from './page-canvas.ts';
import { DEVICE_CMYK, writeArchivalParts, writeCmykColourSpace } from './pdfa.ts';
import { PdfWriter, compressContent, num, pdfDate, pdfString, writeFont, writeImage } from './pdf-writer.ts';
import { readSigners, SigningFields } from './signing-fields.ts';
import { writeStructure } from './structure-writer.ts';
import type { TRenderInput, TRenderResult, TRenderWarning } from './types.ts';
import { metadataText } from './xmp.ts';

/** Hard caps for input that bypassed the schema, so hostile content stays bounded. */
const HARD_MAX_ELEMENTS = 2_000;

const PAGE_SIZES = { A4: [595.28, 841.89], Letter: [612, 792] } as const;
const MM = 72 / 25.4;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseSetting<S extends z.ZodType>(schema: S, value: unknown, what: string, warnings: TRenderWarning[]): z.output<S> | undefined {
  if (value === undefined || value === null) return undefined;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  warnings.push({ code: 'invalid_setting', message: `The ${what} setting is invalid and was ignored.` });
  return undefined;
}

function pageBox(setup: TPageSetup | undefined): PageBox {
  const s = setup ?? ZPageSetup.parse({});
  const [w, h] = PAGE_SIZES[s.size];
  const landscape = s.orientation === 'landscape';
  return {
    width: landscape ? h : w,
    height: landscape ? w : h,
    top: s.margins.top * MM,
    right: s.margins.right * MM,
    bottom: s.margins.bottom * MM,
    left: s.margins.left * MM,
  };
}

/**
 * Renders a format filled with data to PDF bytes. Pure and deterministic: the same input gives
 * the same bytes (the file ID is a hash of the content and the dates come from `meta`). Never
 * throws on bad content: what cannot be drawn is skipped or boxed and listed in `warnings`.
 */
export function renderPdf(input: TRenderInput): TRenderResult {
  const { flow, warnings, lang } = layoutDocument(input);
  const { title, created } = documentMeta(input.meta);
  return { pdf: writeDocument(flow, { title, created, lang }), warnings };
}

/** Documents per merged PDF: its pages are held until the file is written. */
export const MAX_MERGED_DOCUMENTS = 5_000;

/**
 * Several documents of one format as one PDF, each starting on a new page with its own page
 * numbers, sharing one copy of every font and image. Same purity as renderPdf; the metadata
 * (title, date) comes from `meta`, not from the documents.
 */
export function renderMergedPdf(inputs: readonly TRenderInput[], meta: TRenderInput['meta']): TRenderResult {
  const warnings: TRenderWarning[] = [];
  let flow: Flow | undefined;
  let lang = DEFAULT_LOCALE;
  for (const input of inputs.slice(0, MAX_MERGED_DOCUMENTS)) {
    const laid = layoutDocument(input, flow?.canvas);
    if (!flow) lang = laid.lang;
    flow = laid.flow;
    warnings.push(...laid.warnings);
  }
  if (inputs.length > MAX_MERGED_DOCUMENTS) {
    warnings.push({ code: 'page_limit', message: `Only the first ${MAX_MERGED_DOCUMENTS} documents were merged.` });
  }
  flow ??= layoutDocument({ format: { content: { elements: [] }, placeholders: [] }, data: {}, meta }).flow;
  const { title, created } = documentMeta(meta);
  return { pdf: writeDocument(flow, { title, created, lang }), warnings };
}

function documentMeta(raw: unknown): { title: string; created: Date } {
  const meta: Record<string, unknown> = isRecord(raw) ? raw : {};
  return {
    title: typeof meta.title === 'string' ? meta.title.slice(0, 500) : '',
    created: meta.creationDate instanceof Date ? meta.creationDate : new Date(0),
  };
}

function layoutDocument(input: TRenderInput, canvas?: DocumentCanvas): { flow: Flow; warnings: TRenderWarning[]; lang: string } {
  const warnings: TRenderWarning[] = [];
  const format: Record<string, unknown> = isRecord(input.format) ? input.format : {};
  const content: Record<string, unknown> = isRecord(format.content) ? format.content : {};

  const style = parseSetting(ZTextStyle, content.style, 'text style', warnings);
  const page = parseSetting(ZPageSetup, content.page, 'page', warnings);
  const header = parseSetting(ZHeaderFooter, content.header, 'header', warnings);
  const footer = parseSetting(ZHeaderFooter, content.footer, 'footer', warnings);
  const locale =
    (ZLocale.safeParse(input.meta?.locale).data as string | undefined) ?? (ZLocale.safeParse(content.locale).data as string | undefined) ?? DEFAULT_LOCALE;

  const placeholders: TPlaceholder[] = [];
  if (Array.isArray(format.placeholders)) {
    for (const raw of format.placeholders.slice(0, 1_000)) {
      const p = ZPlaceholder.safeParse(raw);
      if (p.success) placeholders.push(p.data);
    }
  }
  const byName = new Map(placeholders.map((p) => [p.name, p]));
  const settings: TPrintSettings = {
    locale,
    currency: (ZCurrencyCode.safeParse(content.currency).data as string | undefined) ?? DEFAULT_CURRENCY,
  };
  const filled = filledValues(input.data, placeholders);
  // Values printed without a format are formatted once, here, as they always were.
  const printed = new Map<string, string>();
  for (const [name, value] of Object.entries(filled)) {
    if (typeof value !== 'string') continue;
    const p = byName.get(name);
    printed.set(name, p && isLogicType(p) ? printValue(value, p, settings) : formatPlaceholderValue(value, p?.type ?? 'text', locale));
  }
  // A checkbox nobody ticked prints as unticked, not as nothing.
  for (const p of placeholders) if (p.type === 'checkbox' && !printed.has(p.name)) printed.set(p.name, printValue('', p, settings));
  const print = (value: string, printable: TPrintable | undefined, tag: TPlaceholderTag) =>
    tag.format || (printable && isLogicType(printable))
      ? printValue(value, printable ?? { type: 'text' }, settings, tag.format)
      : formatPlaceholderValue(value, printable?.type ?? 'text', locale);
  // A format saved before value formats existed reads a bar in a tag as part of the name.
  const tagFormats = content.tagFormats === true;
  // Signing tags print from the signatures, never from data (the data checks refuse values for them).
  const signing = new SigningFields(placeholders, readSigners(input.signing), locale);
  const resolveTop = (tag: TPlaceholderTag): string | undefined => {
    if (signing.any && signing.names(tag)) return signing.inline(tag);
    if (tag.whole !== undefined && (printed.has(tag.whole) || !tagFormats)) return printed.get(tag.whole);
    if (!tag.format) return printed.get(tag.name);
    const value = filled[tag.name];
    const p = byName.get(tag.name);
    if (typeof value === 'string' || p?.type === 'checkbox') return print(typeof value === 'string' ? value : '', p, tag);
    return undefined;
  };
  const fill = (template: string) => substituteTags(template, resolveTop);
  // Inside a repeating row, `{{qty}}` and `{{items.qty}}` are the row's; other tags are the document's.
  // What a tag names in a list's rows is worked out once per tag, not once per row.
  const listRows = (listName: string): TListRows => {
    const list = byName.get(listName);
    const rows = list?.type === 'list' ? ((filled[listName] as TListRow[] | undefined) ?? []) : [];
    const columns = new Map((list?.columns ?? []).map((c) => [c.name, c]));
    const columnOf = new Map<TPlaceholderTag, TListColumn | null>();
    let current: TListRow = {};
    const resolve = (tag: TPlaceholderTag) => {
      let column = columnOf.get(tag);
      if (column === undefined) {
        column = columns.get(tag.name.startsWith(`${listName}.`) ? tag.name.slice(listName.length + 1) : tag.name) ?? null;
        columnOf.set(tag, column);
      }
      return column ? print(current[column.name] ?? '', column, tag) : resolveTop(tag);
    };
    return {
      count: rows.length,
      fill: (row, template) => {
        current = rows[row] ?? {};
        return substituteTags(template, resolve);
      },
    };
  };
  const types = new Map(placeholders.map((p) => [p.name, p.type]));
  const shown = (showIf: TShowIf | undefined) =>
    showIfHolds(
      showIf,
      (name) => filled[name],
      (name) => types.get(name),
    );

  const flow = new Flow({
    page: pageBox(page),
    baseStyle: {
      fontFamily: style?.fontFamily ?? DEFAULT_TEXT_STYLE.fontFamily,
      fontSize: style?.fontSize ?? DEFAULT_TEXT_STYLE.fontSize,
      color: style?.color ?? DEFAULT_TEXT_STYLE.color,
    },
    fill,
    listRows,
    ...(signing.any ? { signingBox: (template: string) => signing.block(template) } : {}),
    assets: isRecord(input.assets) ? (input.assets as Record<string, Uint8Array>) : {},
    warnings,
    ...(canvas ? { canvas } : {}),
    // Only a format version saved since documents are tagged is (docs/accessible-pdf.md): one made
    // earlier re-renders to the bytes it gave then.
    tagged: content.accessible === true,
  });

  let elements: unknown[] = Array.isArray(content.elements) ? content.elements : [];
  if (elements.length > HARD_MAX_ELEMENTS) {
    warnings.push({ code: 'too_many_elements', message: `Only the first ${HARD_MAX_ELEMENTS} elements were rendered.` });
    elements = elements.slice(0, HARD_MAX_ELEMENTS);
  }
  let drawn = 0;
  flow.run(elements, (raw) => {
    const type = isRecord(raw) ? raw.type : undefined;
    const id = isRecord(raw) && typeof raw.id === 'string' ? raw.id.slice(0, 64) : undefined;
    if (typeof type !== 'string' || !(ELEMENT_TYPES as readonly string[]).includes(type)) {
      warnings.push({
        code: 'unknown_element',
        message: `Skipped an element of unknown type ${JSON.stringify(String(type).slice(0, 40))}.`,
        ...(id !== undefined ? { elementId: id } : {}),
      });
      return;
    }
    const parsed = ZElement.safeParse(raw);
    if (!parsed.success) {
      warnings.push({
        code: 'invalid_element',
        message: `Skipped an invalid ${type} element.`,
        ...(id !== undefined ? { elementId: id } : {}),
      });
      return;
    }
    // A hidden element, or section, is left out whole: nothing is drawn, so no gap either.
    const element = parsed.data;
    if (!shown(element.showIf)) return;
    for (const leaf of element.type === 'section' ? element.elements : [element]) {
      if (drawn >= HARD_MAX_ELEMENTS) {
        if (drawn++ === HARD_MAX_ELEMENTS) warnings.push({ code: 'too_many_elements', message: `Only the first ${HARD_MAX_ELEMENTS} elements were rendered.` });
        continue;
      }
      if (leaf !== element && !shown(leaf.showIf)) continue;
      drawn++;
      const lang = leaf.lang ?? element.lang;
      flow.inLanguage(lang && !sameLanguage(lang, locale) ? lang : undefined, () => drawElement(flow, leaf));
    }
  });
  flow.decorate(header, footer);
  if (typeof input.meta?.watermark === 'string' && input.meta.watermark.length > 0) flow.watermark(input.meta.watermark.slice(0, 40));
  if (flow.missingGlyphs.size > 0) {
    warnings.push({ code: 'missing_glyphs', message: missingGlyphsMessage([...flow.missingGlyphs]) });
  }
  return { flow, warnings, lang: locale };
}

const MISSING_GLYPHS_LISTED = 20;

/** Names each character: itself when it can be read, its code point when it is invisible or private. */
function missingGlyphsMessage(codePoints: number[]): string {
  const names = codePoints.slice(0, MISSING_GLYPHS_LISTED).map((cp) => {
    const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    const char = String.fromCodePoint(cp);
    return /[\p{L}\p{N}\p{P}\p{S}]/u.test(char) && !/\p{Co}/u.test(char) ? `"${char}" (${code})` : code;
  });
  const more = codePoints.length > MISSING_GLYPHS_LISTED ? ` and ${codePoints.length - MISSING_GLYPHS_LISTED} more` : '';
  return `No bundled font can draw ${codePoints.length === 1 ? 'this character' : 'these characters'}, so ${codePoints.length === 1 ? 'it prints' : 'they print'} as empty boxes: ${names.join(', ')}${more}.`;
}

const LOGIC_TYPES = new Set<string>(['checkbox', 'formula', 'list']);
/**
 * What prints through printValue: the types that came with value formats, and a number with a
 * display. A number without one prints as it always has, so documents made before re-render alike.
 */
const isLogicType = (p: TPrintable) => LOGIC_TYPES.has(p.type) || p.display !== undefined;

function cell(v: unknown): string | undefined {
  if (typeof v === 'string' || typeof v === 'number') return String(v).slice(0, MAX_PLACEHOLDER_VALUE_LENGTH);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return undefined;
}

/**
 * The document's values as the renderer reads them: text by placeholder name (names normalised,
 * as in tags), a list's rows keyed by column name, and every formula computed from the rest.
 */
function filledValues(data: unknown, placeholders: readonly TPlaceholder[]): TFilledValues {
  const values: TFilledValues = {};
  if (!isRecord(data)) return values;
  for (const [k, v] of Object.entries(data)) {
    const name = normalizePlaceholderName(k);
    if (Array.isArray(v)) {
      values[name] = v.slice(0, MAX_LIST_ROWS).map((row): TListRow => {
        const out: TListRow = {};
        if (isRecord(row))
          for (const [ck, cv] of Object.entries(row)) {
            const text = cell(cv);
            if (text !== undefined) out[normalizePlaceholderName(ck)] = text;
          }
        return out;
      });
      continue;
    }
    const text = cell(v);
    if (text !== undefined) values[name] = text;
  }
  const hasFormulas = placeholders.some((p) => p.type === 'formula' || (p.columns ?? []).some((c) => c.type === 'formula'));
  return hasFormulas ? computeFormulas(placeholders, values).values : values;
}

function drawElement(flow: Flow, el: TLeafElement): void {
  switch (el.type) {
    case 'heading':
      return flow.heading(el);
    case 'paragraph':
      return flow.paragraph(el);
    case 'list':
      return flow.list(el);
    case 'table':
      return flow.table(el);
    case 'image':
      return flow.image(el);
  }
}

/** The Info dictionary's /Creator and /Producer, and XMP's CreatorTool and Producer. */
const MADE_BY = 'Formwork';

function writeDocument(flow: Flow, { title, created, lang }: { title: string; created: Date; lang: string }): Uint8Array {
  const { canvas } = flow;
  const w = new PdfWriter(canvas.structure !== null);
  const catalog = w.alloc();
  const pagesId = w.alloc();
  const info = w.alloc();
  const resources = w.alloc();
  const pageIds = canvas.pages.map(() => w.alloc());
  const contentIds = canvas.pages.map(() => w.alloc());

  let fonts = '';
  for (const use of canvas.fonts.values()) fonts += `/${use.resource} ${writeFont(w, use)} 0 R `;
  let xobjects = '';
  // Under PDF/A's sRGB output intent a CMYK image needs a profile of its own (one per document).
  let cmyk: string | undefined;
  const colourSpaceOf = (img: PdfImage) => (canvas.structure !== null && img.dict.includes(DEVICE_CMYK) ? (cmyk ??= writeCmykColourSpace(w)) : undefined);
  for (const use of canvas.images.values()) xobjects += `/${use.resource} ${writeImage(w, use.img, colourSpaceOf(use.img))} 0 R `;
  w.object(
    resources,
    `<< /ProcSet [/PDF /Text /ImageB /ImageC /ImageI]${fonts ? ` /Font << ${fonts}>>` : ''}${xobjects ? ` /XObject << ${xobjects}>>` : ''} >>`,
  );

  const box = `[0 0 ${num(flow.pageWidth)} ${num(canvas.pageHeight)}]`;
  const tagged = canvas.structure !== null;
  const annotations = writeLinkAnnotations(w, canvas.links, pageIds);
  canvas.pages.forEach((parts, i) => {
    w.stream(contentIds[i]!, '/Filter /FlateDecode', compressContent(parts.join('')));
    const structParents = tagged ? ` /StructParents ${i}` : '';
    const onPage = annotations.filter((a) => a.page === i);
    // With annotations, PDF/UA asks that Tab moves through them in structure order.
    const annots = onPage.length > 0 ? ` /Annots [${onPage.map((a) => `${a.id} 0 R`).join(' ')}] /Tabs /S` : '';
    w.object(
      pageIds[i]!,
      `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox ${box} /Resources ${resources} 0 R /Contents ${contentIds[i]} 0 R${structParents}${annots} >>`,
    );
  });
  w.object(pagesId, `<< /Type /Pages /Kids [${pageIds.map((p) => `${p} 0 R`).join(' ')}] /Count ${pageIds.length} >>`);
  // A tagged document is PDF/A-2a too, whose XMP must say what the Info dictionary says.
  const infoTitle = tagged ? metadataText(title) : title;
  if (canvas.structure) {
    const structTreeRoot = writeStructure(w, canvas.structure, pageIds, annotations);
    const archival = writeArchivalParts(w, { title: infoTitle, creatorTool: MADE_BY, producer: MADE_BY, created });
    w.object(
      catalog,
      `<< /Type /Catalog /Pages ${pagesId} 0 R /StructTreeRoot ${structTreeRoot} 0 R /MarkInfo << /Marked true >> /Lang ${pdfString(lang)} /ViewerPreferences << /DisplayDocTitle true >>${archival} >>`,
    );
  } else w.object(catalog, `<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
  const date = pdfString(pdfDate(created));
  const madeBy = pdfString(MADE_BY);
  w.object(info, `<< /Title ${pdfString(infoTitle)} /Producer ${madeBy} /Creator ${madeBy} /CreationDate ${date} /ModDate ${date} >>`);
  return w.finish(catalog, info);
}

/**
 * A link annotation per clickable area: printable (PDF/A), borderless, opening its address, with
 * its words as its description and its place in the structure (`/StructParent`, after the pages).
 */
function writeLinkAnnotations(w: PdfWriter, links: readonly TLinkAnnotation[], pageIds: readonly number[]): { id: number; page: number }[] {
  return links.map((link, k) => {
    const id = w.alloc();
    const rect = link.rect.map(num).join(' ');
    w.object(
      id,
      `<< /Type /Annot /Subtype /Link /Rect [${rect}] /Border [0 0 0] /F 4 /Contents ${pdfString(link.text)} /A << /S /URI /URI ${pdfString(link.uri)} >> /StructParent ${pageIds.length + k} >>`,
    );
    return { id, page: link.page };
  });
}
