import { z } from 'zod';
import type {
  TAdminUser,
  TAdminUserUpdate,
  TAuditEntry,
  TPaymentGateway,
  TSystemSetting,
  TSystemSettingInput,
} from '../../../contract/admin.ts';
import type { TPlanCatalogue, TPlanId } from '../../../contract/plans.ts';
import { KNOWN_SETTINGS, ZPaymentGatewayInput, ZPaymentGatewayUpdate } from '../../../contract/admin.ts';
import { ZPlanCatalogue } from '../../../contract/plans.ts';
import { PUBLIC_PAGES_SETTING, type TPublicPages } from '../../../contract/public-pages.ts';
import { ADMIN_TWO_FACTOR_SETTING } from '../../../contract/two-factor.ts';
import { SIGN_UP_POLICY_SETTING } from '../../../contract/sign-ups.ts';
import { MAX_DAILY_LIMIT, parseDailyLimit, SYSTEM_MAIL_DAILY_LIMIT_SETTING, SYSTEM_MAIL_SETTING } from '../../../contract/mail.ts';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import { AppError, forbidden, notFound, unauthorized } from '../../http/app-error.ts';
import type { TSystemService } from '../system/system.service.ts';
import { usagePeriod, type TUserRow, type TUsersRepository } from '../users/users.repository.ts';
import type { TAdminRepository, TGatewayRow } from './admin.repository.ts';

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
  'esign.url': (value) => (z.url({ protocol: /^https?$/ }).safeParse(value).success ? undefined : 'Enter an http(s) URL.'),
  'support.email': (value) => (z.email().safeParse(value).success ? undefined : 'Enter an email address.'),
  'sales.email': (value) => (z.email().safeParse(value).success ? undefined : 'Enter an email address.'),
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
};
const OWN_EDITOR_SETTINGS = new Set(Object.keys(OWN_EDITORS));
const ownEditor = (key: string) => new AppError('conflict', `${key} is edited under ${OWN_EDITORS[key]}, not as raw text.`);
const PUBLIC_PAGES_DESCRIPTION = 'Figures, testimonials and team shown on the landing and About pages.';

function toSetting(row: { key: string; value: string; description: string | null; updatedAt: Date }): TSystemSetting {
  return { key: row.key, value: row.value, description: row.description, updatedAt: row.updatedAt.toISOString() };
}

function toGateway(row: TGatewayRow): TPaymentGateway {
  return {
    id: row.id,
    gatewayName: row.gatewayName,
    isActive: row.isActive,
    keyId: row.keyId,
    hasKeySecret: Boolean(row.keySecretEnc),
    hasWebhookSecret: Boolean(row.webhookSecretEnc),
    configuration: row.configuration,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createAdminService(deps: {
  admin: TAdminRepository;
  users: TUsersRepository;
  system: TSystemService;
  secrets: TSecretBox;
  /** An admin set a user's plan by hand: gateway billing stops deciding it. */
  planSetByAdmin: (userId: string, planId: TPlanId) => Promise<void>;
  /** A gateway was added or changed (the pages' allowed checkout origins follow). */
  gatewaysChanged?: () => void;
  /** Marks an address verified as its link would (ADMIN_EMAILS then applies). */
  markEmailVerified?: (userId: string) => Promise<void>;
}) {
  /** Records who changed what; never a secret's value, only that it was replaced. */
  async function audit(actorId: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>) {
    const actor = await deps.users.findById(actorId);
    await deps.admin.audit({ actorId, actorEmail: actor?.email ?? actorId, action, targetType, targetId, details });
  }

  async function listUsers(): Promise<TAdminUser[]> {
    const plans = await deps.system.planCatalogue();
    const rows = await deps.admin.listUsers(usagePeriod());
    return rows.map(({ user, totalFormats, totalDocuments, apiCallsUsed }) => ({
      id: user.id,
      suspendedAt: user.suspendedAt?.toISOString() ?? null,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      emailVerified: user.emailVerified,
      subscriptionPlan: user.subscriptionPlan,
      apiCallsLimit: user.apiCallsLimit ?? plans.find((p) => p.id === user.subscriptionPlan)?.generationsPerMonth ?? null,
      apiCallsUsed,
      totalFormats,
      totalDocuments,
      twoFactorEnabled: user.twoFactorEnabled,
      createdAt: user.createdAt.toISOString(),
    }));
  }

  async function oneUser(id: string): Promise<TAdminUser> {
    const user = (await listUsers()).find((u) => u.id === id);
    if (!user) throw notFound('User');
    return user;
  }

  const seal = (secret: string | undefined) => (secret ? deps.secrets.seal(secret) : undefined);

  return {
    audit,

    /** Admin routes answer 401 signed out and 403 to signed-in users who are not admins. */
    async requireAdmin(userId: string | undefined): Promise<TUserRow> {
      if (!userId) throw unauthorized();
      const user = await deps.users.findById(userId);
      if (!user) throw unauthorized();
      if (user.role !== 'admin') throw forbidden('Access Denied: the Admin Panel is for administrators.');
      return user;
    },

    listUsers,

    async setRole(actorId: string, id: string, role: 'user' | 'admin'): Promise<TAdminUser> {
      if (actorId === id && role !== 'admin') {
        throw new AppError('conflict', 'You cannot remove your own admin role. Ask another admin to do it.');
      }
      const before = await deps.users.findById(id);
      if (!before || !(await deps.admin.updateUser(id, { role }))) throw notFound('User');
      await audit(actorId, 'user.role', 'user', id, { email: before.email, from: before.role, to: role });
      return oneUser(id);
    },

    /** An admin vouches for a user's address (they know the person), as the verification link would. */
    async markEmailVerified(actorId: string, id: string): Promise<TAdminUser> {
      const before = await deps.users.findById(id);
      if (!before || !deps.markEmailVerified) throw notFound('User');
      if (!before.emailVerified) {
        await deps.markEmailVerified(id);
        await audit(actorId, 'user.email_verified', 'user', id, { email: before.email });
      }
      return oneUser(id);
    },

    async updateUser(actorId: string, id: string, changes: TAdminUserUpdate): Promise<TAdminUser> {
      const before = await deps.users.findById(id);
      if (!before) throw notFound('User');
      if (changes.subscriptionPlan !== undefined && changes.subscriptionPlan !== before.subscriptionPlan) {
        await deps.planSetByAdmin(id, changes.subscriptionPlan);
      }
      if (!(await deps.admin.updateUser(id, changes))) throw notFound('User');
      const details: Record<string, unknown> = { email: before.email };
      if (changes.subscriptionPlan !== undefined) details.plan = { from: before.subscriptionPlan, to: changes.subscriptionPlan };
      if (changes.apiCallsLimit !== undefined) details.limit = { from: before.apiCallsLimit, to: changes.apiCallsLimit };
      await audit(actorId, 'user.plan', 'user', id, details);
      return oneUser(id);
    },

    async planCatalogue(): Promise<TPlanCatalogue> {
      return deps.system.planCatalogue();
    },

    async savePlanCatalogue(actorId: string, catalogue: TPlanCatalogue): Promise<TPlanCatalogue> {
      const before = await deps.system.planCatalogue();
      await deps.admin.upsertSetting('plans.catalogue', JSON.stringify(catalogue), KNOWN_SETTINGS['plans.catalogue']);
      deps.system.forgetPlanCatalogue();
      const changed = catalogue.filter((plan) => JSON.stringify(plan) !== JSON.stringify(before.find((p) => p.id === plan.id))).map((p) => p.id);
      await audit(actorId, 'plans.update', 'plans', 'catalogue', { changed });
      return deps.system.planCatalogue();
    },

    publicPages(): Promise<TPublicPages> {
      return deps.system.publicPages();
    },

    /** Replaces the whole content (the editor sends every list); an empty list hides its section. */
    async savePublicPages(actorId: string, pages: TPublicPages): Promise<TPublicPages> {
      await deps.admin.upsertSetting(PUBLIC_PAGES_SETTING, JSON.stringify(pages), PUBLIC_PAGES_DESCRIPTION);
      deps.system.forgetPlanCatalogue();
      await audit(actorId, 'public-pages.update', 'setting', PUBLIC_PAGES_SETTING, {
        figures: pages.figures.length,
        testimonials: pages.testimonials.length,
        team: pages.team.length,
      });
      return deps.system.publicPages();
    },

    async auditEntries(limit: number, offset: number): Promise<{ entries: TAuditEntry[]; total: number }> {
      const { rows, total } = await deps.admin.auditEntries(limit, offset);
      return {
        total,
        entries: rows.map((row) => ({
          id: row.id,
          actorEmail: row.actorEmail,
          action: row.action,
          targetType: row.targetType,
          targetId: row.targetId,
          details: row.details,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },

    async listSettings(): Promise<TSystemSetting[]> {
      return (await deps.admin.listSettings()).filter((row) => !OWN_EDITOR_SETTINGS.has(row.key)).map(toSetting);
    },

    async saveSetting(actorId: string, input: TSystemSettingInput): Promise<TSystemSetting> {
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
    },

    async deleteSetting(actorId: string, key: string): Promise<void> {
      if (OWN_EDITOR_SETTINGS.has(key)) throw ownEditor(key);
      if (!(await deps.admin.deleteSetting(key))) throw notFound('Setting');
      deps.system.forgetPlanCatalogue();
      await audit(actorId, 'setting.delete', 'setting', key, {});
    },

    async listGateways(): Promise<TPaymentGateway[]> {
      return (await deps.admin.listGateways()).map(toGateway);
    },

    async createGateway(actorId: string, input: z.output<typeof ZPaymentGatewayInput>): Promise<TPaymentGateway> {
      const row = await deps.admin.saveGateway(undefined, {
        gatewayName: input.gatewayName,
        isActive: input.isActive,
        keyId: input.keyId,
        keySecretEnc: seal(input.keySecret),
        webhookSecretEnc: seal(input.webhookSecret),
        configuration: input.configuration,
      });
      deps.gatewaysChanged?.();
      await audit(actorId, 'gateway.create', 'gateway', row!.id, {
        gatewayName: input.gatewayName,
        isActive: input.isActive,
        keyId: input.keyId,
        keySecret: input.keySecret ? 'set' : 'not set',
        webhookSecret: input.webhookSecret ? 'set' : 'not set',
        configuration: input.configuration,
      });
      return toGateway(row!);
    },

    async updateGateway(actorId: string, id: string, changes: z.output<typeof ZPaymentGatewayUpdate>): Promise<TPaymentGateway> {
      const { keySecret, webhookSecret, ...rest } = changes;
      const row = await deps.admin.saveGateway(id, {
        ...rest,
        ...(keySecret ? { keySecretEnc: seal(keySecret) } : {}),
        ...(webhookSecret ? { webhookSecretEnc: seal(webhookSecret) } : {}),
      });
      if (!row) throw notFound('Payment gateway');
      deps.gatewaysChanged?.();
      await audit(actorId, 'gateway.update', 'gateway', id, {
        gatewayName: row.gatewayName,
        ...rest,
        ...(keySecret ? { keySecret: 'replaced' } : {}),
        ...(webhookSecret ? { webhookSecret: 'replaced' } : {}),
      });
      return toGateway(row);
    },
  };
}
export type TAdminService = ReturnType<typeof createAdminService>;
