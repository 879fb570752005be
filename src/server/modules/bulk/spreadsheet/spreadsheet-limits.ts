import { BULK_MAX_FILE_BYTES } from '../../../../contract/bulk.ts';
import { AppError } from '../../../http/app-error.ts';

// The bounds a spreadsheet upload is read within, and the words it is refused with.

/** Most sheets read beside the first. */
export const BULK_MAX_OTHER_SHEETS = 20;

/** Most columns a sheet may have (BIFF8 .xls has 256 too); bounds memory at maxRows x columns. */
export const BULK_MAX_COLUMNS = 256;
/** Most bytes an .xlsx may unpack to, all parts together. */
export const BULK_MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;
/** Most parts (ZIP entries) an .xlsx may have. */
export const BULK_MAX_ZIP_ENTRIES = 10_000;
/** Deflate cannot compress better than about 1032:1, so a larger declared ratio is a lie. */
export const MAX_DEFLATE_RATIO = 1100;

export const ACCEPTED = 'Upload an .xlsx, .xls or .csv file.';
export const MESSAGES = {
  tooLarge: `The file is larger than ${BULK_MAX_FILE_BYTES / (1024 * 1024)} MB. Split it into smaller files.`,
  empty: 'The file is empty.',
  noRows: 'The file has no rows: it needs a header row and at least one data row.',
  headerOnly: 'The file has a header row but no data rows.',
  corrupt: 'The workbook could not be read: it is damaged or not a complete Excel file. Open it in Excel, save it again and upload the new file.',
  passwordProtected:
    'This workbook is password-protected, so it cannot be read. Remove the password in Excel (File > Info > Protect Workbook > Encrypt with Password), save it and upload it again.',
  sizeMismatch:
    'The workbook could not be read: its contents unpack to more data than it declares, which is how "zip bombs" are made. Open it in Excel, save it again and upload the new file.',
  tooManyParts: `The workbook has more than ${BULK_MAX_ZIP_ENTRIES.toLocaleString('en-US')} parts, which is not a normal spreadsheet. Save the data in a new workbook and upload that.`,
} as const;

export const bad = (message: string) => new AppError('bad_request', message);
export const unsupported = (message: string) => new AppError('unsupported_media_type', message);
export const fmt = (n: number) => n.toLocaleString('en-US');
