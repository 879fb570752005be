import { z } from 'zod';

/*
 * Outgoing mail: the SMTP server an installation sends through (set by admins), a user's own
 * server (plans with API access), and the checks every address and header line passes. Shared by
 * the server, the forms and the OpenAPI document.
 */

export const DEFAULT_SMTP_PORT = 587;
/** The system setting that holds the installation's SMTP server; edited in its own card, never as raw text. */
export const SYSTEM_MAIL_SETTING = 'mail.smtp';
/**
 * The system setting that caps what users send through the installation's server in one UTC day
 * (each recipient counts once, as mail providers count); unset, there is no cap.
 */
export const SYSTEM_MAIL_DAILY_LIMIT_SETTING = 'mail.daily_limit';
export const MAX_DAILY_LIMIT = 10_000_000;
/** The cap a setting's value names, or null when it is not a whole number from 1 to MAX_DAILY_LIMIT. */
export function parseDailyLimit(value: string): number | null {
  const text = value.trim();
  if (!/^\d{1,8}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= MAX_DAILY_LIMIT ? n : null;
}
/** The port where TLS starts at once (SMTPS); on any other port `secure` means STARTTLS is required. */
export const IMPLICIT_TLS_PORT = 465;
/** To and Cc together: one message may go to at most this many people. */
export const MAX_RECIPIENTS = 10;
export const MAX_SUBJECT_LENGTH = 200;
export const MAX_MESSAGE_LENGTH = 10_000;

/** Line breaks and other control characters would let a value start a header of its own. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
export const hasControlChars = (text: string) => CONTROL_CHARS.test(text);

/** One header line: a subject, a name. */
export const ZHeaderText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `Keep the ${what} under ${max} characters.`)
    .refine((text) => !hasControlChars(text), { message: `The ${what} cannot contain line breaks or control characters.` });

/** One address, nothing around it: no display name, no comments, no second address. */
export const ZEmailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'An email address has at most 254 characters.')
  .pipe(z.email({ message: 'Enter a valid email address.' }));

const HOST_RE = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/;
export const ZSmtpHost = z
  .string()
  .trim()
  .min(1, 'Enter the SMTP server’s host name.')
  .max(253, 'A host name has at most 253 characters.')
  .regex(HOST_RE, 'Enter a host name such as smtp.example.com, without http:// or a port.');
export const ZSmtpPort = z.coerce
  .number({ message: 'Enter the port as a whole number.' })
  .int('Enter the port as a whole number.')
  .min(1, 'Ports go from 1 to 65535.')
  .max(65535, 'Ports go from 1 to 65535.');

/** A password as typed; empty means "keep the one saved". Never sent back. */
const ZPasswordInput = z.string().max(500, 'That password is too long.').optional();

/** `PUT /api/user/email-settings`: a user's own SMTP server. */
export const ZEmailSettingsInput = z.object({
  enterpriseEmail: ZEmailAddress,
  enterpriseEmailPassword: ZPasswordInput,
  smtpHost: ZSmtpHost,
  smtpPort: ZSmtpPort.default(DEFAULT_SMTP_PORT),
  smtpSecure: z.boolean().default(true),
});
export type TEmailSettingsInput = z.input<typeof ZEmailSettingsInput>;

/** Which server sends a user's mail: their own, the installation's, or none is set up. */
export const ZMailRoute = z.enum(['own', 'system', 'none']);
export type TMailRoute = z.infer<typeof ZMailRoute>;

/** What Settings → Email shows: the saved fields, whether a password is set, and who sends. */
export const ZEmailSettings = z.object({
  enterpriseEmail: z.string().nullable(),
  smtpHost: z.string().nullable(),
  smtpPort: z.number().int(),
  smtpSecure: z.boolean(),
  passwordSet: z.boolean(),
  /** The plan includes an own SMTP server (plans with API access). */
  ownServerAllowed: z.boolean(),
  /** Which server sends this user's mail now. */
  sendsWith: ZMailRoute,
  /** Recipients this user may email per hour (the plan's send rate). */
  emailsPerHour: z.number().int(),
  /**
   * Whether this user's emails may carry their own subject and message. When not (the Free plan,
   * through the installation's server), they carry the standard ones (`standardEmail`).
   */
  ownWords: z.boolean(),
  /** Why not, in words with the way out; null when they may. */
  ownWordsNote: z.string().nullable(),
  /** The name this user's emails go out under: the account's first and last name. */
  senderName: z.string(),
});
export type TEmailSettings = z.infer<typeof ZEmailSettings>;

/** The installation's SMTP server, as admins set it. */
export const ZSystemMailSettingsInput = z.object({
  host: ZSmtpHost,
  port: ZSmtpPort.default(DEFAULT_SMTP_PORT),
  secure: z.boolean().default(true),
  /** Empty when the server takes mail without signing in (a relay that trusts our address). */
  user: z.string().trim().max(254).default(''),
  password: ZPasswordInput,
  fromAddress: ZEmailAddress,
  fromName: ZHeaderText(100, 'sender name').default('Formwork'),
});
export type TSystemMailSettingsInput = z.input<typeof ZSystemMailSettingsInput>;
export type TSystemMailSettingsParsed = z.output<typeof ZSystemMailSettingsInput>;

export const ZSystemMailSettings = z.object({
  configured: z.boolean(),
  host: z.string().nullable(),
  port: z.number().int(),
  secure: z.boolean(),
  user: z.string(),
  passwordSet: z.boolean(),
  fromAddress: z.string().nullable(),
  fromName: z.string(),
  /** The cap on users' emails a UTC day (`mail.daily_limit`), null when there is none. */
  dailyLimit: z.number().int().nullable(),
  /** Users' emails sent through it this UTC day, each recipient counted. */
  sentToday: z.number().int(),
});
export type TSystemMailSettings = z.infer<typeof ZSystemMailSettings>;

/** "Send test email": where to (the caller's own address when left out). */
export const ZTestEmailBody = z.object({ to: ZEmailAddress.optional() });

/** A test message went through: to whom, and the server's own answer. */
export const ZTestEmailResult = z.object({ to: z.string(), response: z.string() });
export type TTestEmailResult = z.infer<typeof ZTestEmailResult>;
