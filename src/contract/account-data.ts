import { z } from 'zod';

/** Deleting the account: the password, and the code of the second factor when the account has one. */
export const ZDeleteAccountBody = z.object({
  password: z.string().min(1, 'Enter your password.').max(1024),
  code: z
    .string()
    .trim()
    .max(64)
    .optional()
    .transform((code) => (code ? code : undefined)),
});

/** An export of the account's data, as the Profile shows it. */
export const ZAccountExport = z.object({
  id: z.string(),
  /** direct: downloaded at once; background: built while the owner waits, then downloaded. */
  kind: z.enum(['direct', 'background']),
  /** expired: the download link is past its date and the file is gone. */
  status: z.enum(['running', 'ready', 'failed', 'expired']),
  documentsTotal: z.number().int(),
  documentsDone: z.number().int(),
  bytes: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Where a finished background export is downloaded (the owner's session only). */
  downloadUrl: z.string().nullable(),
});
export type TAccountExport = z.infer<typeof ZAccountExport>;

/** The newest export, if any, and how many more may be started today. */
export const ZAccountExportStatus = z.object({
  latest: ZAccountExport.nullable(),
  /** Above this many documents an export is built in the background and emailed. */
  backgroundAbove: z.number().int(),
  perDay: z.number().int(),
  remainingToday: z.number().int(),
});
export type TAccountExportStatus = z.infer<typeof ZAccountExportStatus>;
