import type { TDocumentData } from './documents.ts';
import { computeFormulas, sampleRows, type TFilledValues, type TListRow } from './filled-values.ts';
import type { TElement, TFormatContent } from './format-content.ts';
import { CHECKED_MARK, checkboxValue, isSigningPlaceholder, placeholderLabel, UNCHECKED_MARK, type TPlaceholder } from './placeholders.ts';

/*
 * What a preview renders: the format filled with what was typed so far. A field left empty
 * prints as its [Label], an empty list as three sample rows, and formulas are computed from the
 * rest (an empty number counts as 0), then printed as the numbers they gave. Pure.
 */

function text(value: unknown): string {
  if (value === null || value === undefined || typeof value === 'object') return '';
  return String(value).trim();
}

function givenRows(list: TPlaceholder, value: unknown): TListRow[] {
  if (!Array.isArray(value)) return [];
  const columns = (list.columns ?? []).filter((c) => c.type !== 'formula');
  return value.flatMap((raw: unknown) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [];
    const source = raw as Record<string, unknown>;
    const row: TListRow = {};
    for (const c of columns) {
      const value = text(source[c.name]);
      row[c.name] = c.type === 'checkbox' ? (checkboxValue(value) ?? 'false') : c.type === 'number' ? value.replaceAll(',', '') : value;
    }
    return columns.some((c) => row[c.name] !== '' && !(c.type === 'checkbox' && row[c.name] === 'false')) ? [row] : [];
  });
}

/** A yes-or-no result printed as a checkbox would print it; anything else as it is. */
const shownResult = (value: string) => (value === 'true' ? CHECKED_MARK : value === 'false' ? UNCHECKED_MARK : value);

function withoutConditions(elements: readonly TElement[]): TElement[] {
  return elements.map((element) => {
    const { showIf: _ignored, ...rest } = element;
    return rest.type === 'section' ? { ...rest, elements: rest.elements.map(({ showIf: _child, ...child }) => child) } : rest;
  }) as TElement[];
}

export function previewInput(
  format: { content: TFormatContent; placeholders: readonly TPlaceholder[] },
  given: Readonly<TDocumentData>,
  showAll: boolean,
): { content: TFormatContent; placeholders: TPlaceholder[]; data: TFilledValues } {
  const values: TFilledValues = {};
  for (const p of format.placeholders) {
    if (p.type === 'formula' || isSigningPlaceholder(p)) continue;
    if (p.type === 'list') {
      const rows = givenRows(p, given[p.name]);
      values[p.name] = rows.length > 0 ? rows : sampleRows(p);
      continue;
    }
    const value = text(given[p.name]);
    values[p.name] = p.type === 'checkbox' ? (checkboxValue(value) ?? 'false') : p.type === 'number' ? value.replaceAll(',', '') : value;
  }
  const computed = computeFormulas(format.placeholders, values).values;

  const data: TFilledValues = {};
  const placeholders = format.placeholders.map((p): TPlaceholder => {
    const value = computed[p.name];
    // Left without a value, a signing tag prints as the empty box the document will have.
    if (isSigningPlaceholder(p)) return p;
    if (p.type === 'list') {
      data[p.name] = (Array.isArray(value) ? value : []).map((row) => {
        const out = { ...row };
        for (const c of p.columns ?? []) if (c.type === 'formula') out[c.name] = shownResult(out[c.name] ?? '');
        return out;
      });
      // Computed here, so the renderer prints the numbers rather than computing again.
      return { ...p, columns: (p.columns ?? []).map((c) => (c.type === 'formula' ? { ...c, type: 'number' as const } : c)) };
    }
    const textValue = typeof value === 'string' ? value : '';
    if (p.type === 'checkbox') {
      data[p.name] = textValue;
      return p;
    }
    if (textValue === '') {
      data[p.name] = `[${placeholderLabel(p)}]`;
      // A bracketed label goes in as text, so a date or number placeholder prints it as it is.
      return { ...p, type: 'text' };
    }
    if (p.type === 'formula') {
      data[p.name] = shownResult(textValue);
      return { ...p, type: 'number' };
    }
    data[p.name] = textValue;
    return p;
  });
  const content = showAll ? { ...format.content, elements: withoutConditions(format.content.elements) } : format.content;
  return { content, placeholders, data };
}
