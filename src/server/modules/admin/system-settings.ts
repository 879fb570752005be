import { z } from 'zod';
import {
  canonicalLocale,
  DOCUMENT_LOCALE_HINT,
  DOCUMENT_LOCALE_SETTING,
  TIMESTAMP_URL_SETTING,
  type TSystemSetting,
  type TSystemSettingInput,
} from '../../../contract/admin.ts';
import { ZPlanCatalogue } from '../../../contract/plans.ts';
import { PUBLIC_PAGES_SETTING } from '../../../contract/public-pages.ts';
import { ADMIN_TWO_FACTOR_SETTING } from '../../../contract/two-factor.ts';
import { SIGN_UP_POLICY_SETTING } from '../../../contract/sign-ups.ts';
import { MAX_DAILY_LIMIT, parseDailyLimit, SYSTEM_MAIL_DAILY_LIMIT_SETTING, SYSTEM_MAIL_SETTING } from '../../../contract/mail.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TAdminContext } from './admin-context.ts';

/** Known settings are checked before they are stored, so a typo cannot break the product. */
const SETTING_VALIDATORS: Record<string, (value: string) => string | undefined> = {
  'plans.catalogue': (value) => {
    try {
      const parsed = ZPlanCatalogue.safeParse(JSON.parse(value));
      if (parsed.success) return undefined;
      const issue = parsed.error.issues[0]!;
      return `Not a valid plan catalogue: ${issue.path.join('.')} ${issue.message}`;
    } catch {
      return 'Not valid JSON.';
    }
  },
  'support.email': (value) => (z.email().safeParse(value).success ? undefined : 'Enter an email address.'),
  'sales.email': (value) => (z.email().safeParse(value).success ? undefined : 'Enter an email address.'),
  'signing.timestamp_url': (value) =>
    z.url({ protocol: /^https?$/ }).safeParse(value.trim()).success
      ? undefined
      : 'Enter the timestamp server’s http(s) address, such as http://timestamp.digicert.com.',
  [DOCUMENT_LOCALE_SETTING]: (value) => (canonicalLocale(value) ? undefined : DOCUMENT_LOCALE_HINT),
  [ADMIN_TWO_FACTOR_SETTING]: (value) => (value === 'true' || value === 'false' ? undefined : 'Enter true or false.'),
  [SYSTEM_MAIL_DAILY_LIMIT_SETTING]: (value) =>
    parseDailyLimit(value) === null ? `Enter a whole number of emails a day from 1 to ${MAX_DAILY_LIMIT.toLocaleString('en-US')}, such as 500.` : undefined,
};

/**
 * Settings with an editor of their own (a sealed password inside, or a structured value checked
 * as a whole): never listed or written as raw text.
 */
const OWN_EDITORS: Record<string, string> = {
  [SYSTEM_MAIL_SETTING]: 'Outgoing mail',
  [PUBLIC_PAGES_SETTING]: 'Public pages',
  [SIGN_UP_POLICY_SETTING]: 'Sign-ups',
  [TIMESTAMP_URL_SETTING]: 'Document seal',
};
const OWN_EDITOR_SETTINGS = new Set(Object.keys(OWN_EDITORS));
const ownEditor = (key: string) => new AppError('conflict', `${key} is edited under ${OWN_EDITORS[key]}, not as raw text.`);

function toSetting(row: { key: string; value: string; description: string | null; updatedAt: Date }): TSystemSetting {
  return { key: row.key, value: row.value, description: row.description, updatedAt: row.updatedAt.toISOString() };
}

/** The settings edited as raw text (not those with an editor of their own). */
export async function listSettings({ deps }: TAdminContext): Promise<TSystemSetting[]> {
  return (await deps.admin.listSettings()).filter((row) => !OWN_EDITOR_SETTINGS.has(row.key)).map(toSetting);
}

export async function saveSetting({ deps, audit }: TAdminContext, actorId: string, input: TSystemSettingInput): Promise<TSystemSetting> {
  if (OWN_EDITOR_SETTINGS.has(input.key)) throw ownEditor(input.key);
  const problem = SETTING_VALIDATORS[input.key]?.(input.value);
  if (problem) throw new AppError('validation_failed', problem, { value: problem });
  if (input.key === ADMIN_TWO_FACTOR_SETTING && input.value === 'true' && !(await deps.users.findById(actorId))?.twoFactorEnabled) {
    // Otherwise the admin turning it on would be shut out of this panel at once.
    throw new AppError('conflict', 'Turn on two-factor sign-in for your own account first (Settings → Profile).');
  }
  const saved = toSetting(await deps.admin.upsertSetting(input.key, input.value, input.description));
  deps.system.forgetPlanCatalogue();
  await audit(actorId, 'setting.save', 'setting', input.key, input.key === 'plans.catalogue' ? {} : { value: input.value });
  return saved;
}

export async function deleteSetting({ deps, audit }: TAdminContext, actorId: string, key: string): Promise<void> {
  if (OWN_EDITOR_SETTINGS.has(key)) throw ownEditor(key);
  if (!(await deps.admin.deleteSetting(key))) throw notFound('Setting');
  deps.system.forgetPlanCatalogue();
  await audit(actorId, 'setting.delete', 'setting', key, {});
}
