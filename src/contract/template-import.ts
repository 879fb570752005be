import { z } from 'zod';
import { ZFormatContent } from './format-content.ts';
import { ZPlaceholderList } from './placeholders.ts';

/*
 * Import Template (Dashboard quick action): POST /api/formats/import takes one .docx, .pdf or
 * .txt file as multipart (field `file`) and answers with an unsaved draft that the builder opens.
 * Nothing is stored as a format until the user saves the draft in the builder. The files it takes
 * are described in template-import-files.ts.
 */

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
