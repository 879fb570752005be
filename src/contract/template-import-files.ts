/*
 * The files Import Template takes (see template-import.ts for the call and its answer): kept apart
 * from the schemas so that the dashboard's file picker checks a file without loading them.
 */

/** The largest file the import accepts; bigger uploads answer 413. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_MB = MAX_IMPORT_BYTES / (1024 * 1024);

export const IMPORT_KINDS = ['docx', 'pdf', 'txt'] as const;
export type TImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_EXTENSIONS = ['.docx', '.pdf', '.txt'] as const;

/** The file picker's `accept`: the accepted extensions and their media types. */
export const IMPORT_ACCEPT = [
  ...IMPORT_EXTENSIONS,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/pdf',
  'text/plain',
].join(',');

/** The multipart field the file is sent in. */
export const IMPORT_FILE_FIELD = 'file';

/** `Offer Letter.DOCX` -> `docx`; undefined for anything the import does not take. */
export function importKindOfFileName(fileName: string): TImportKind | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  const ext = m?.[1]?.toLowerCase();
  return IMPORT_KINDS.find((k) => k === ext);
}
