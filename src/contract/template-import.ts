import { z } from 'zod';
import { ZFormatContent } from './format-content.ts';
import { ZPlaceholderList } from './placeholders.ts';

/*
 * Import Template (Dashboard quick action): POST /api/formats/import takes one .docx, .pdf or
 * .txt file as multipart (field `file`) and answers with an unsaved draft that the builder opens.
 * Nothing is stored as a format until the user saves the draft in the builder.
 */

/** The largest file the import accepts; bigger uploads answer 413. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_MB = MAX_IMPORT_BYTES / (1024 * 1024);

export const IMPORT_KINDS = ['docx', 'pdf', 'txt'] as const;
export const ZImportKind = z.enum(IMPORT_KINDS);
export type TImportKind = z.infer<typeof ZImportKind>;

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

export const ZImportDraft = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).optional(),
  content: ZFormatContent,
  placeholders: ZPlaceholderList,
});

export const ZTemplateImportResponse = z.object({
  draft: ZImportDraft,
  /** Things the user should know about the conversion, e.g. an image that could not be read. */
  warnings: z.array(z.string()),
});
export type TTemplateImportResponse = z.infer<typeof ZTemplateImportResponse>;
