import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ZPlaceholder, type TPlaceholder, type TPlaceholderInput } from '../../../contract/placeholders.ts';
import { buildExcelTemplate, TEMPLATE_FIRST_DATA_ROW, TEMPLATE_NAME_ROW } from '../formats/index.ts';
import { columnKey } from '../../../contract/bulk.ts';
import { autoMapColumns, mapRow, recogniseHeaderRow, UNMAPPED_REQUIRED_MESSAGE, validateSheet, VALUE_TOO_LONG_MESSAGE } from './column-mapping.ts';
import { readSpreadsheet } from './spreadsheet/read-spreadsheet.ts';
import type { TSheet } from './spreadsheet/sheet-types.ts';
import { csvFrom, formatted, xlsxFrom } from './test/fixtures.ts';

const placeholders = (list: TPlaceholderInput[]): TPlaceholder[] => list.map((p) => ZPlaceholder.parse(p));

describe('autoMapColumns', () => {
  it('matches a header to a name or label ignoring case, spaces, underscores and hyphens', () => {
    expect(['Client Name', 'client_name', 'client-name', ' CLIENT   NAME ', 'ClientName', 'Client name *'].map(columnKey)).toEqual(Array(6).fill('clientname'));
    const ps = placeholders([{ name: 'client_name' }, { name: 'amount', label: 'Total Due' }, { name: 'email' }, { name: 'notes' }]);
    expect(autoMapColumns(['E-Mail', 'total-due', 'Client Name', 'Other'], ps)).toEqual({
      client_name: 2,
      amount: 1,
      email: 0,
      notes: null,
    });
    expect(autoMapColumns(['client-name'], ps).client_name).toBe(0);
  });

  it('maps each column to at most one placeholder, the closest match first', () => {
    // "name" is exactly one placeholder's name and loosely another's label.
    const ps = placeholders([{ name: 'full_name', label: 'Name' }, { name: 'name' }, { name: 'first' }, { name: 'second', label: 'First' }]);
    expect(autoMapColumns(['name', 'First'], ps)).toEqual({ full_name: null, name: 0, first: 1, second: null });
    expect(autoMapColumns(['name', 'First', 'first'], ps)).toEqual({ full_name: null, name: 0, first: 2, second: 1 });
    expect(autoMapColumns(['Name', 'Full Name'], ps)).toEqual({ full_name: 1, name: 0, first: null, second: null });
  });

  it('never matches an empty header, and gives every placeholder a key', () => {
    const ps = placeholders([{ name: 'a' }, { name: 'b' }]);
    expect(autoMapColumns(['', ' ', 'B'], ps)).toEqual({ a: null, b: 2 });
    expect(autoMapColumns([], ps)).toEqual({ a: null, b: null });
  });
});

describe('mapRow', () => {
  it('gives each placeholder the cell of its column, and empty text when unmapped or out of range', () => {
    expect(mapRow(['Ann', 'a@example.com'], { name: 0, email: 1, phone: null, gone: 7 })).toEqual({
      name: 'Ann',
      email: 'a@example.com',
      phone: '',
      gone: '',
    });
  });
});

describe('validateSheet', () => {
  const ps = placeholders([
    { name: 'client_name', required: true },
    { name: 'email', type: 'email' },
    { name: 'amount', type: 'number' },
    { name: 'due', type: 'date' },
    { name: 'team', type: 'select', options: ['Design', 'Ops'] },
    { name: 'phone', type: 'tel' },
  ]);
  const columns = ['Client Name', 'Email', 'Amount', 'Due', 'Team', 'Phone'];

  it('checks rows with the manual-input rules and counts valid and invalid rows', () => {
    const sheet: TSheet = {
      columns,
      rows: [
        { row: 2, cells: [' Ann ', 'ann@example.com', '1,250.50', '2025-03-05', 'Design', '+44 20 7946 0958'] },
        { row: 4, cells: ['', 'not-an-email', 'lots', '05/03/2025', 'Sales', 'call me'] },
        { row: 5, cells: ['Bob', '', '', '2025-02-30', '', ''] },
      ],
    };
    const mapping = autoMapColumns(columns, ps);
    expect(validateSheet(sheet, ps, mapping)).toEqual({
      valid: 1,
      invalid: 2,
      rows: [
        {
          row: 2,
          values: { client_name: 'Ann', email: 'ann@example.com', amount: '1250.50', due: '2025-03-05', team: 'Design', phone: '+44 20 7946 0958' },
          errors: {},
        },
        {
          row: 4,
          values: { email: 'not-an-email', amount: 'lots', due: '05/03/2025', team: 'Sales', phone: 'call me' },
          errors: {
            client_name: 'This field is required.',
            email: 'Enter a valid email address.',
            amount: 'Enter a number.',
            due: 'Enter a date as YYYY-MM-DD.',
            team: 'Choose one of: Design, Ops.',
            phone: 'Enter a phone number.',
          },
        },
        { row: 5, values: { client_name: 'Bob', due: '2025-02-30' }, errors: { due: 'Enter a date as YYYY-MM-DD.' } },
      ],
    });
  });

  it('says when a required placeholder has no column, and refuses values longer than manual input allows', () => {
    const sheet: TSheet = { columns: ['Email'], rows: [{ row: 2, cells: [`${'a'.repeat(10_000)}@example.com`] }] };
    const result = validateSheet(sheet, ps, autoMapColumns(sheet.columns, ps));
    expect(result.invalid).toBe(1);
    expect(result.rows[0]?.errors).toEqual({ client_name: UNMAPPED_REQUIRED_MESSAGE, email: VALUE_TOO_LONG_MESSAGE });
    expect(VALUE_TOO_LONG_MESSAGE).toBe('This value is longer than 10,000 characters.');
  });

  it('accepts a real spreadsheet date, with or without a time of day, for a date placeholder', async () => {
    const bytes = await xlsxFrom([
      ['Client Name', 'Due'],
      ['Ann', new Date(Date.UTC(2025, 2, 5))],
      ['Bob', new Date(Date.UTC(2025, 2, 5, 9, 30))],
      ['Cid', formatted(45721, 'dd/mm/yyyy')],
      ['Dee', 45721],
    ]);
    const sheet = await readSpreadsheet(bytes, 'dates.xlsx');
    const result = validateSheet(sheet, ps, autoMapColumns(sheet.columns, ps));
    expect(result.rows.map((r) => [r.values.due, r.errors.due])).toEqual([
      ['2025-03-05', undefined],
      ['2025-03-05', undefined],
      ['2025-03-05', undefined],
      // A bare number is not a date: it was not formatted as one in the sheet.
      ['45721', 'Enter a date as YYYY-MM-DD.'],
    ]);
  });
});

describe('the Excel template round trip', () => {
  const templatePlaceholders = placeholders([
    { name: 'client_name', required: true },
    { name: 'email', type: 'email', label: 'Contact' },
    // Crossing name and label, and two placeholders sharing a label.
    { name: 'contact', label: 'Email' },
    { name: 'amount', type: 'number', label: 'Amount (USD)', required: true },
    { name: 'start date', type: 'date' },
    { name: 'team', type: 'select', options: ['Design', 'Engineering'], required: true },
    { name: 'phone', type: 'tel', label: 'Phone' },
    { name: 'mobile', type: 'tel', label: 'Phone' },
    { name: 'notes', type: 'textarea' },
  ]);
  const names = templatePlaceholders.map((p) => p.name);

  /** The template exactly as GET /api/formats/:id/excel-template sends it, filled in by a user in Excel. */
  async function filledTemplate(edit?: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await buildExcelTemplate('Offer', templatePlaceholders)) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Data')!;
    const rows: unknown[][] = [
      ['Ann Lee', 'ann@example.com', 'Ann L.', 1250.5, new Date(Date.UTC(2025, 2, 5)), 'Design', '+1 555 0100', '+1 555 0101', 'Line one\nline two'],
      ['Bob Roy', 'bob@example.com', '', 99, new Date(Date.UTC(2025, 11, 31)), 'Engineering', '', '', ''],
    ];
    rows.forEach((cells, i) => {
      cells.forEach((value, c) => {
        if (value !== '') sheet.getCell(TEMPLATE_FIRST_DATA_ROW + i, c + 1).value = value as ExcelJS.CellValue;
      });
    });
    edit?.(sheet);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  const expectedValues = [
    {
      client_name: 'Ann Lee',
      email: 'ann@example.com',
      contact: 'Ann L.',
      amount: '1250.5',
      start_date: '2025-03-05',
      team: 'Design',
      phone: '+1 555 0100',
      mobile: '+1 555 0101',
      notes: 'Line one\nline two',
    },
    { client_name: 'Bob Roy', email: 'bob@example.com', amount: '99', start_date: '2025-12-31', team: 'Engineering' },
  ];

  it('maps every column with no manual mapping, and its rows validate', async () => {
    const sheet = await readSpreadsheet(await filledTemplate(), 'Offer - data template.xlsx');
    // The hidden row of names is recognised: not a data row, and the exact names become the columns.
    expect(sheet.columns).toEqual(names);
    expect(sheet.rows.map((r) => r.row)).toEqual([3, 4]);
    const mapping = autoMapColumns(sheet.columns, templatePlaceholders);
    expect(mapping).toEqual(Object.fromEntries(names.map((n, i) => [n, i])));
    const result = validateSheet(sheet, templatePlaceholders, mapping);
    expect(result).toMatchObject({ valid: 2, invalid: 0 });
    expect(result.rows.map((r) => r.values)).toEqual(expectedValues);
  });

  it('still maps fully by labels (required marks ignored) when the name row was deleted, if the labels are distinct', async () => {
    const distinct = templatePlaceholders.filter((p) => p.name !== 'mobile' && p.name !== 'contact');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await buildExcelTemplate('Offer', distinct)) as unknown as ArrayBuffer);
    const data = workbook.getWorksheet('Data')!;
    data.spliceRows(TEMPLATE_NAME_ROW, 1);
    data.getRow(2).values = ['Ann', 'ann@example.com', 10, new Date(Date.UTC(2025, 2, 5)), 'Design', '555 0100', 'hi'];
    const sheet = await readSpreadsheet(Buffer.from(await workbook.xlsx.writeBuffer()), 'template.xlsx');
    expect(sheet.columns).toEqual(['Client name *', 'Contact', 'Amount (USD) *', 'Start date', 'Team *', 'Phone', 'Notes']);
    const mapping = autoMapColumns(sheet.columns, distinct);
    expect(Object.values(mapping)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(validateSheet(sheet, distinct, mapping)).toMatchObject({ valid: 1, invalid: 0 });
  });

  it('recognises the name row when the template was saved as CSV (the row is then visible)', async () => {
    const distinct = placeholders([
      { name: 'client_name', required: true },
      { name: 'start date', type: 'date' },
    ]);
    const csv = csvFrom([
      ['Client name *', 'Start date'],
      ['client_name', 'start_date'],
      ['Ann', '2025-03-05'],
    ]);
    const sheet = await readSpreadsheet(csv, 'template.csv');
    expect(sheet).toEqual({ columns: ['client_name', 'start_date'], rows: [{ row: 3, cells: ['Ann', '2025-03-05'] }] });
    expect(autoMapColumns(sheet.columns, distinct)).toEqual({ client_name: 0, start_date: 1 });
  });

  it('keeps a visible row 2 that merely looks like names as data', async () => {
    const sheet = await readSpreadsheet(
      csvFrom([
        ['Code', 'Label'],
        ['abc', 'xyz'],
      ]),
      'codes.csv',
    );
    expect(sheet).toEqual({ columns: ['Code', 'Label'], rows: [{ row: 2, cells: ['abc', 'xyz'] }] });
    // Hidden, but under a header that is not on row 1: not the template's name row either.
    const hidden = await readSpreadsheet(await xlsxFrom([[], ['Code'], ['abc'], ['def']], { hiddenRows: [3] }), 'codes.xlsx');
    expect(hidden.rows.map((r) => r.cells[0])).toEqual(['abc', 'def']);
  });
});

describe('recogniseHeaderRow', () => {
  const ps = placeholders([
    { name: 'manager_name', label: 'Hiring manager', required: true },
    { name: 'salary', type: 'number' },
    { name: 'team', type: 'select', options: ['Sales', 'Support'] },
  ]);
  const sheetOf = (columns: string[], ...rows: string[][]): TSheet => ({ columns, rows: rows.map((cells, i) => ({ row: i + 2, cells })) });

  it('skips a second row that names the columns, and takes its names for them', () => {
    const read = recogniseHeaderRow(sheetOf(['Hiring manager *', 'Pay', 'Team'], ['manager_name', 'salary', 'team'], ['Ada', '100', 'Sales']), ps);
    expect(read.columns).toEqual(['manager_name', 'salary', 'team']);
    expect(read.rows.map((r) => r.row)).toEqual([3]);
    expect(autoMapColumns(read.columns, ps)).toEqual({ manager_name: 0, salary: 1, team: 2 });
  });

  it('takes labels too, and keeps the header where the row is blank', () => {
    const read = recogniseHeaderRow(sheetOf(['A', 'B', 'Team'], ['Hiring manager', 'Salary', ''], ['Ada', '100', 'Sales']), ps);
    expect(read.columns).toEqual(['Hiring manager', 'Salary', 'Team']);
  });

  it('never takes a row of data for a header', () => {
    const sheet = sheetOf(['Hiring manager', 'Salary', 'Team'], ['Ada', '100', 'Sales'], ['Team', '', '']);
    expect(recogniseHeaderRow(sheet, ps)).toBe(sheet);
    // A row naming one column of three is data that happens to look like a name.
    const sparse = sheetOf(['Hiring manager', 'Salary', 'Team'], ['salary', '', '']);
    expect(recogniseHeaderRow(sparse, ps)).toBe(sparse);
  });
});
