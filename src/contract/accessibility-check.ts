import { z } from 'zod';
import { linksNamedByAddress } from './inline-markup.ts';
import { DEFAULT_TEXT_STYLE, headingLevel, leafElements, type TFormatContent, type TLeafElement, type TTextStyle } from './format-content.ts';
import { foreignScript, languageName } from './languages.ts';
import { DEFAULT_LOCALE } from './placeholder-values.ts';

/*
 * What a format's documents lack for readers who use a screen reader or cannot tell low-contrast
 * text apart (docs/accessible-pdf.md). The builder shows it beside the preview; documents report
 * it as their `accessibility.warnings`. It reads the format, not a filled document, so that it
 * can point at the element to fix.
 */

export const ACCESSIBILITY_FINDING_CODES = [
  'image_alt_missing',
  'heading_level_skipped',
  'heading_empty',
  'table_header_missing',
  'text_contrast_low',
  'link_text_is_address',
  'language_mismatch',
] as const;
export const ZAccessibilityFindingCode = z.enum(ACCESSIBILITY_FINDING_CODES);
export type TAccessibilityFindingCode = z.infer<typeof ZAccessibilityFindingCode>;

// No `.meta({ id })` on these two: they sit inside named schemas (the v1 Document), and a named
// schema inside a named one makes the OpenAPI conversion fail when the web app's copy of the
// contract shares the schema registry with the server's (a test worker running both).
export const ZAccessibilityFinding = z.object({
  code: ZAccessibilityFindingCode,
  message: z.string(),
  /** The element to fix; absent for the header, the footer or the format's own text style. */
  elementId: z.string().optional(),
  /** Where it is when it is not an element. */
  part: z.enum(['header', 'footer', 'format']).optional(),
});
export type TAccessibilityFinding = z.infer<typeof ZAccessibilityFinding>;

/**
 * What a document says about its own accessibility: `pdfua` when it is tagged and nothing it
 * prints breaks a machine-checkable PDF/UA rule (an image without alternative text, a heading
 * that skips a level); `pdfa` when it is written as PDF/A-2. Warnings list every finding.
 */
export const ZDocumentAccessibility = z.object({
  pdfua: z.boolean(),
  pdfa: z.boolean(),
  warnings: z.array(ZAccessibilityFinding),
});
export type TDocumentAccessibility = z.infer<typeof ZDocumentAccessibility>;

/** WCAG 2.2 AA for body text. */
export const MIN_TEXT_CONTRAST = 4.5;
const PAGE_BACKGROUND = '#ffffff';

/** The findings that make a tagged document fall short of PDF/UA-1, not only of good practice. */
const BREAKS_PDF_UA: ReadonlySet<TAccessibilityFindingCode> = new Set(['image_alt_missing', 'heading_level_skipped']);

function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The WCAG contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function lowContrast(color: string): string | null {
  const ratio = contrastRatio(color, PAGE_BACKGROUND);
  return ratio < MIN_TEXT_CONTRAST ? `${ratio.toFixed(1)}:1` : null;
}

const RIGHT_TO_LEFT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

function elementLabel(element: TLeafElement): string {
  const text = element.type === 'heading' || element.type === 'paragraph' ? element.content.replace(/\s+/g, ' ').trim() : '';
  if (!text) return `This ${element.type}`;
  const shown = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  // Right-to-left words are isolated, so that the quotation marks and the sentence around them keep their places.
  return RIGHT_TO_LEFT.test(shown) ? `“\u2068${shown}\u2069”` : `“${shown}”`;
}

/** The texts of an element in which inline markup, and so links, are read. */
function elementTexts(element: TLeafElement): string[] {
  if (element.type === 'paragraph') return [element.content];
  if (element.type === 'list') return element.items;
  if (element.type === 'table') return element.rows.flat();
  return [];
}

/** The words of an element a reader hears, markup and all: what its language is told from. */
function spokenTexts(element: TLeafElement): string[] {
  if (element.type === 'heading') return [element.content];
  if (element.type === 'image') return element.alt && !element.decorative ? [element.alt] : [];
  return elementTexts(element);
}

type TCheckedContent = Pick<TFormatContent, 'elements' | 'style' | 'header' | 'footer' | 'locale'>;

export function accessibilityFindings(content: TCheckedContent): TAccessibilityFinding[] {
  const findings: TAccessibilityFinding[] = [];
  const formatLanguage = content.locale ?? DEFAULT_LOCALE;
  // A section's language is its elements' own unless they have one.
  const sectionLanguage = new Map<string, string>();
  for (const element of content.elements) {
    if (element.type !== 'section' || !element.lang) continue;
    for (const inner of element.elements) sectionLanguage.set(inner.id, element.lang);
  }
  const formatColor = content.style?.color ?? DEFAULT_TEXT_STYLE.color;
  const formatRatio = lowContrast(formatColor);
  if (formatRatio) {
    findings.push({
      code: 'text_contrast_low',
      part: 'format',
      message: `The format’s text colour ${formatColor} has a contrast of ${formatRatio} on white; use at least ${MIN_TEXT_CONTRAST}:1.`,
    });
  }
  const colorOf = (style: TTextStyle | undefined) => style?.color ?? formatColor;

  let previousLevel = 0;
  for (const element of leafElements(content.elements)) {
    const ownLanguage = element.lang ?? sectionLanguage.get(element.id);
    const script = foreignScript(spokenTexts(element), ownLanguage ?? formatLanguage);
    if (script) {
      const whose = ownLanguage ? `its language is set to ${languageName(ownLanguage)}` : `the format’s language is ${languageName(formatLanguage)}`;
      findings.push({
        code: 'language_mismatch',
        elementId: element.id,
        message: `${elementLabel(element)} is written in ${script} script, but ${whose}. Set the language it is in, so that screen readers read it in the right voice.`,
      });
    }
    if (element.type === 'image') {
      if (element.src && !element.decorative && !element.alt) {
        findings.push({
          code: 'image_alt_missing',
          elementId: element.id,
          message: 'An image has no alternative text. Describe what it shows, or mark it decorative.',
        });
      }
      continue;
    }
    if (element.type === 'heading') {
      const level = headingLevel(element);
      if (!element.content.trim()) {
        findings.push({ code: 'heading_empty', elementId: element.id, message: 'A heading is empty: screen readers announce it with nothing to say.' });
      } else if (level > previousLevel + 1) {
        findings.push({
          code: 'heading_level_skipped',
          elementId: element.id,
          message:
            previousLevel === 0
              ? `${elementLabel(element)} is the first heading but is level ${level}; start with level 1.`
              : `${elementLabel(element)} is level ${level} after a level ${previousLevel} heading; use level ${previousLevel + 1}.`,
        });
      }
      if (element.content.trim()) previousLevel = level;
    }
    if (element.type === 'table' && !element.headerRow && !element.headerColumn && !element.layout && element.rows.length > 0) {
      findings.push({
        code: 'table_header_missing',
        elementId: element.id,
        message:
          'A table has no header row or column: readers hear its cells without knowing what they are. Turn one on, or mark it a layout table if it only places text side by side.',
      });
    }
    const named = elementTexts(element).flatMap(linksNamedByAddress);
    if (named.length > 0) {
      findings.push({
        code: 'link_text_is_address',
        elementId: element.id,
        message: `The link “${named[0]}” shows its address: screen readers spell it out. Use words that say where it leads, such as “Our price list”.`,
      });
    }
    const color = colorOf(element.style);
    const ratio = color === formatColor ? null : lowContrast(color);
    if (ratio) {
      findings.push({
        code: 'text_contrast_low',
        elementId: element.id,
        message: `${elementLabel(element)} is in ${color}, a contrast of ${ratio} on white; use at least ${MIN_TEXT_CONTRAST}:1.`,
      });
    }
  }
  for (const part of ['header', 'footer'] as const) {
    const line = content[part];
    if (!line?.text.trim()) continue;
    const color = colorOf(line.style);
    const ratio = color === formatColor ? null : lowContrast(color);
    if (ratio) {
      findings.push({
        code: 'text_contrast_low',
        part,
        message: `The ${part} is in ${color}, a contrast of ${ratio} on white; use at least ${MIN_TEXT_CONTRAST}:1.`,
      });
    }
  }
  return findings;
}

/**
 * What a document made from `content` reports: tagged formats only are PDF/UA and PDF/A. A
 * character no bundled font has (the renderer's `missing_glyphs` warning) prints as `.notdef`,
 * which both forbid, so that document is neither.
 */
export function documentAccessibility(
  content: TCheckedContent & Pick<TFormatContent, 'accessible'>,
  renderWarnings: readonly { code: string }[] = [],
): TDocumentAccessibility {
  const tagged = content.accessible === true;
  const warnings = accessibilityFindings(content);
  const drawsNotdef = renderWarnings.some((warning) => warning.code === 'missing_glyphs');
  return {
    pdfua: tagged && !drawsNotdef && !warnings.some((finding) => BREAKS_PDF_UA.has(finding.code)),
    pdfa: tagged && !drawsNotdef,
    warnings,
  };
}
