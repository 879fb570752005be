import ExcelJS from 'exceljs';
import { columnLetter, columnPlaceholders } from '../../../contract/bulk.ts';
import { placeholderLabel, type TListColumn, type TPlaceholder } from '../../../contract/placeholders.ts';

export const TEMPLATE_DATA_SHEET = 'Data';
export const TEMPLATE_LISTS_SHEET = 'Lists';
export const TEMPLATE_HELP_SHEET = 'How to fill';
/** Row 1 holds labels for people; hidden row 2 holds the placeholder names for exact matching. */
export const TEMPLATE_NAME_ROW = 2;
export const TEMPLATE_FIRST_DATA_ROW = 3;
const VALIDATED_ROWS = 1_000;
/** Lines sheets allow more rows with a dropdown: a document may have many lines. */
const VALIDATED_LINE_ROWS = 5_000;

/** The document key joins a document's row to its lines (list-lines.ts reads it). */
export const TEMPLATE_KEY_NAME = 'document_key';
export const TEMPLATE_KEY_LABEL = 'Document key';

const HINTS: Record<TPlaceholder['type'], string> = {
  text: 'Text',
  textarea: 'Text (line breaks allowed)',
  email: 'An email address',
  number: 'A number, e.g. 1250.50',
  date: 'A date (YYYY-MM-DD or an Excel date)',
  tel: 'A phone number',
  select: 'One of the listed options',
  checkbox: 'Yes or no (TRUE or FALSE)',
  list: 'Rows on the lines sheet',
  formula: 'Computed',
  // Signing fields get no column (columnPlaceholders leaves them out); these only complete the record.
  signature: 'Filled in when signing',
  initials: 'Filled in when signing',
  signed_date: 'Filled in when signing',
  signer_name: 'Filled in when signing',
};

type TColumnSpec = { name: string; label: string; type: TPlaceholder['type']; required: boolean; options: string[]; hint?: string };

const specOf = (p: TPlaceholder | TListColumn): TColumnSpec => ({
  name: p.name,
  label: placeholderLabel(p),
  type: p.type,
  required: p.required,
  options: p.options,
});
const KEY_SPEC: TColumnSpec = {
  name: TEMPLATE_KEY_NAME,
  label: TEMPLATE_KEY_LABEL,
  type: 'text',
  required: false,
  options: [],
  hint: 'Any text that tells this document apart (an invoice number, 1, 2, 3…); its lines carry the same key.',
};

/** A sheet name Excel accepts (at most 31 characters, none of []:*?/\) and no other sheet has. */
function sheetName(label: string, taken: Set<string>): string {
  const base =
    label
      .replace(/[[\]:*?/\\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 31) || 'Lines';
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 27)} ${n}`;
  taken.add(name.toLowerCase());
  return name;
}

/**
 * Writes the header (labels, then the hidden row of names) and each column's note, width and
 * dropdown. Column i's options go in column `optionsAt + i` of the hidden Lists sheet.
 */
function writeColumns(sheet: ExcelJS.Worksheet, lists: ExcelJS.Worksheet, columns: readonly TColumnSpec[], optionsAt: number, validatedRows: number): void {
  columns.forEach((column, i) => {
    const col = i + 1;
    const letter = columnLetter(i);
    const header = sheet.getCell(1, col);
    header.value = column.required ? `${column.label} *` : column.label;
    header.font = { bold: true, color: { argb: column.required ? 'FFB91C1C' : 'FF111827' } };
    header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEEF2FF' } };
    header.note = `${column.hint ?? HINTS[column.type]}${column.required ? ' — required' : ''}`;
    sheet.getCell(TEMPLATE_NAME_ROW, col).value = column.name;
    sheet.getColumn(col).width = Math.min(40, Math.max(14, String(header.value).length + 4));
    if (column.type === 'date') sheet.getColumn(col).numFmt = 'yyyy-mm-dd';

    const range = `${letter}${TEMPLATE_FIRST_DATA_ROW}:${letter}${TEMPLATE_FIRST_DATA_ROW + validatedRows}`;
    const choices = column.type === 'select' ? column.options : column.type === 'checkbox' ? ['TRUE', 'FALSE'] : [];
    if (choices.length > 0) {
      const listLetter = columnLetter(optionsAt + i);
      choices.forEach((option, row) => {
        lists.getCell(row + 1, optionsAt + i + 1).value = option;
      });
      // Range-wide validation is in exceljs at runtime but missing from its typings.
      (sheet as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }).dataValidations.add(range, {
        type: 'list',
        allowBlank: !column.required,
        formulae: [`${TEMPLATE_LISTS_SHEET}!$${listLetter}$1:$${listLetter}$${choices.length}`],
        showErrorMessage: true,
        errorTitle: 'Not an option',
        error: `Choose one of: ${choices.join(', ')}`.slice(0, 255),
      });
    }
  });
  sheet.getRow(TEMPLATE_NAME_ROW).hidden = true;
}

/** The help sheet of a workbook with lines: both layouts, the workbook's and a CSV's. */
function writeHelp(sheet: ExcelJS.Worksheet, listSheets: { list: TPlaceholder; name: string }[], formulas: readonly string[]): void {
  const first = listSheets[0]!;
  const example = (first.list.columns ?? []).find((c) => c.type !== 'formula');
  const lines = [
    'How to fill this workbook',
    '',
    `1. On the "${TEMPLATE_DATA_SHEET}" sheet, write one row per document. Give each document a ${TEMPLATE_KEY_LABEL} of your own choosing (an invoice number, or 1, 2, 3…): it only joins the document to its lines.`,
    ...listSheets.map(
      ({ list, name }) =>
        `2. On the "${name}" sheet, write one row per line of ${placeholderLabel(list)}, with the ${TEMPLATE_KEY_LABEL} of its document in the first column. A document's lines print in the order of their rows.`,
    ),
    '3. Upload the workbook on the Bulk Upload tab of the form. Each row of the first sheet becomes one document, with its own lines.',
    '',
    'Prefer one CSV file?',
    `Put the list's columns beside the document's, headed as the list and the column, e.g. "${first.list.name}.${example?.name ?? 'description'}", and repeat the ${TEMPLATE_KEY_LABEL} on one row per line. The first row of a key fills the document's own fields; each of its rows adds one line.`,
    '',
    ...(formulas.length > 0 ? [`Computed values (${formulas.join(', ')}) have no column: Formwork computes them for each document.`] : []),
    'Columns marked * are required. Keep the hidden row under the headers: it names each column exactly.',
  ];
  sheet.getColumn(1).width = 110;
  lines.forEach((text, i) => {
    const cell = sheet.getCell(i + 1, 1);
    cell.value = text;
    cell.alignment = { wrapText: true, vertical: 'top' };
    if (i === 0 || text === 'Prefer one CSV file?') cell.font = { bold: true, size: i === 0 ? 14 : 12 };
  });
}

/**
 * The spreadsheet a user fills to make many documents: one column per placeholder, required ones
 * marked with *, select columns with a dropdown. Option lists live on a hidden sheet, because an
 * inline list is capped at 255 characters. A format with lists gets a Document key column, one
 * lines sheet per list keyed by it, and a sheet that explains both (and the CSV layout).
 */
export async function buildExcelTemplate(formatName: string, placeholders: readonly TPlaceholder[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Formwork';
  workbook.title = `${formatName} data`;
  const sheet = workbook.addWorksheet(TEMPLATE_DATA_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  const listsWithLines = placeholders.filter((p) => p.type === 'list');
  const fields = columnPlaceholders(placeholders);
  const taken = new Set([TEMPLATE_DATA_SHEET, TEMPLATE_LISTS_SHEET, TEMPLATE_HELP_SHEET].map((n) => n.toLowerCase()));
  const lineSheets = listsWithLines.map((list) => ({
    list,
    name: sheetName(placeholderLabel(list), taken),
    sheet: undefined as ExcelJS.Worksheet | undefined,
  }));
  for (const entry of lineSheets) entry.sheet = workbook.addWorksheet(entry.name, { views: [{ state: 'frozen', ySplit: 1 }] });
  const help = lineSheets.length > 0 ? workbook.addWorksheet(TEMPLATE_HELP_SHEET) : undefined;
  const lists = workbook.addWorksheet(TEMPLATE_LISTS_SHEET, { state: 'hidden' });

  if (placeholders.length === 0) {
    sheet.getCell('A1').value = 'This format has no placeholders: every document made from it is the same.';
    sheet.getColumn(1).width = 80;
  }

  const mainColumns = [...(lineSheets.length > 0 ? [KEY_SPEC] : []), ...fields.map(specOf)];
  writeColumns(sheet, lists, mainColumns, 0, VALIDATED_ROWS);
  let optionsAt = mainColumns.length;
  for (const { list, sheet: lineSheet } of lineSheets) {
    const columns = [KEY_SPEC, ...(list.columns ?? []).filter((c) => c.type !== 'formula').map(specOf)];
    writeColumns(lineSheet!, lists, columns, optionsAt, VALIDATED_LINE_ROWS);
    optionsAt += columns.length;
  }
  if (help) {
    const formulas = placeholders.flatMap((p) =>
      p.type === 'formula' ? [placeholderLabel(p)] : (p.columns ?? []).filter((c) => c.type === 'formula').map((c) => placeholderLabel(c)),
    );
    writeHelp(help, lineSheets, formulas);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
