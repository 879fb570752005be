import { z } from 'zod';
import { imageSources, isImageAddress, MAX_IMAGE_ADDRESSES, ZFormatContent } from './format-content.ts';
import { formatLogicIssues } from './format-logic.ts';
import { ZPlaceholderList } from './placeholders.ts';

export const FORMAT_NAME_REQUIRED = 'Please enter a format name.';

export const ZFormatInput = z
  .object({
    name: z.string().trim().min(1, FORMAT_NAME_REQUIRED).max(200, 'Use at most 200 characters for the name.'),
    description: z
      .string()
      .trim()
      .max(2000)
      .nullish()
      .transform((d) => (d ? d : null)),
    content: ZFormatContent.refine((content) => imageSources(content).filter(isImageAddress).length <= MAX_IMAGE_ADDRESSES, {
      message: `A format may show at most ${MAX_IMAGE_ADDRESSES} different images by address. Upload the others instead.`,
    }).transform((content) => ({ ...content, tagFormats: true, accessible: true })),
    placeholders: ZPlaceholderList.default([]),
  })
  .superRefine((format, ctx) => {
    // Lists, formulas, conditions and repeating rows are checked together: each reads the others.
    for (const issue of formatLogicIssues(format.content, format.placeholders)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
export type TFormatInput = z.input<typeof ZFormatInput>;
export type TFormatInputParsed = z.output<typeof ZFormatInput>;

export const ZFormat = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  content: ZFormatContent,
  placeholders: ZPlaceholderList,
  version: z.number().int().positive(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The person who made it (in a team, any editor); null once their account is deleted. */
  createdBy: z.string().nullable().default(null),
  /** Beyond the plan's allowance of formats (after a downgrade): kept and usable, not editable. */
  readOnly: z.boolean().default(false),
});
export type TFormat = z.infer<typeof ZFormat>;

export const ZIdParams = z.object({ id: z.string().min(1).max(64) });
