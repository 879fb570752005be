import ExcelJS from 'exceljs';
import { columnLetter } from '../../../contract/bulk.ts';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders.ts';

export const TEMPLATE_DATA_SHEET = 'Data';
export const TEMPLATE_LISTS_SHEET = 'Lists';
/** Row 1 holds labels for people; hidden row 2 holds the placeholder names for exact matching. */
export const TEMPLATE_NAME_ROW = 2;
export const TEMPLATE_FIRST_DATA_ROW = 3;
const VALIDATED_ROWS = 1_000;

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
};

/**
 * The spreadsheet a user fills to make many documents: one column per placeholder, required ones
 * marked with *, select columns with a dropdown. Option lists live on a hidden sheet, because an
 * inline list is capped at 255 characters.
 */
export async function buildExcelTemplate(formatName: string, placeholders: readonly TPlaceholder[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Formwork';
  workbook.title = `${formatName} data`;
  const sheet = workbook.addWorksheet(TEMPLATE_DATA_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  const lists = workbook.addWorksheet(TEMPLATE_LISTS_SHEET, { state: 'hidden' });

  if (placeholders.length === 0) {
    sheet.getCell('A1').value = 'This format has no placeholders: every document made from it is the same.';
    sheet.getColumn(1).width = 80;
  }

  placeholders.forEach((placeholder, i) => {
    const col = i + 1;
    const letter = columnLetter(i);
    const header = sheet.getCell(1, col);
    header.value = placeholder.required ? `${placeholderLabel(placeholder)} *` : placeholderLabel(placeholder);
    header.font = { bold: true, color: { argb: placeholder.required ? 'FFB91C1C' : 'FF111827' } };
    header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEEF2FF' } };
    header.note = `${HINTS[placeholder.type]}${placeholder.required ? ' — required' : ''}`;
    sheet.getCell(TEMPLATE_NAME_ROW, col).value = placeholder.name;
    sheet.getColumn(col).width = Math.min(40, Math.max(14, String(header.value).length + 4));
    if (placeholder.type === 'date') sheet.getColumn(col).numFmt = 'yyyy-mm-dd';

    const range = `${letter}${TEMPLATE_FIRST_DATA_ROW}:${letter}${TEMPLATE_FIRST_DATA_ROW + VALIDATED_ROWS}`;
    if (placeholder.type === 'select' && placeholder.options.length > 0) {
      placeholder.options.forEach((option, row) => {
        lists.getCell(row + 1, col).value = option;
      });
      // Range-wide validation is in exceljs at runtime but missing from its typings.
      (sheet as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }).dataValidations.add(range, {
        type: 'list',
        allowBlank: !placeholder.required,
        formulae: [`${TEMPLATE_LISTS_SHEET}!$${letter}$1:$${letter}$${placeholder.options.length}`],
        showErrorMessage: true,
        errorTitle: 'Not an option',
        error: `Choose one of: ${placeholder.options.join(', ')}`.slice(0, 255),
      });
    }
  });
  sheet.getRow(TEMPLATE_NAME_ROW).hidden = true;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
