import { z } from 'zod';
import type {
  TAdminUser,
  TAdminUserUpdate,
  TPaymentGateway,
  TSystemSetting,
  TSystemSettingInput,
} from '../../../contract/admin.ts';
import { ZPaymentGatewayInput, ZPaymentGatewayUpdate } from '../../../contract/admin.ts';
import { ZPlanCatalogue } from '../../../contract/plans.ts';
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
};

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
}) {
  async function listUsers(): Promise<TAdminUser[]> {
    const plans = await deps.system.planCatalogue();
    const rows = await deps.admin.listUsers(usagePeriod());
    return rows.map(({ user, totalFormats, totalDocuments, apiCallsUsed }) => ({
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      subscriptionPlan: user.subscriptionPlan,
      apiCallsLimit: user.apiCallsLimit ?? plans.find((p) => p.id === user.subscriptionPlan)?.generationsPerMonth ?? null,
      apiCallsUsed,
      totalFormats,
      totalDocuments,
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
      if (!(await deps.admin.updateUser(id, { role }))) throw notFound('User');
      return oneUser(id);
    },

    async updateUser(id: string, changes: TAdminUserUpdate): Promise<TAdminUser> {
      if (!(await deps.admin.updateUser(id, changes))) throw notFound('User');
      return oneUser(id);
    },

    async listSettings(): Promise<TSystemSetting[]> {
      return (await deps.admin.listSettings()).map(toSetting);
    },

    async saveSetting(input: TSystemSettingInput): Promise<TSystemSetting> {
      const problem = SETTING_VALIDATORS[input.key]?.(input.value);
      if (problem) throw new AppError('validation_failed', problem, { value: problem });
      const saved = toSetting(await deps.admin.upsertSetting(input.key, input.value, input.description));
      deps.system.forgetPlanCatalogue();
      return saved;
    },

    async deleteSetting(key: string): Promise<void> {
      if (!(await deps.admin.deleteSetting(key))) throw notFound('Setting');
      deps.system.forgetPlanCatalogue();
    },

    async listGateways(): Promise<TPaymentGateway[]> {
      return (await deps.admin.listGateways()).map(toGateway);
    },

    async createGateway(input: z.output<typeof ZPaymentGatewayInput>): Promise<TPaymentGateway> {
      const row = await deps.admin.saveGateway(undefined, {
        gatewayName: input.gatewayName,
        isActive: input.isActive,
        keyId: input.keyId,
        keySecretEnc: seal(input.keySecret),
        webhookSecretEnc: seal(input.webhookSecret),
        configuration: input.configuration,
      });
      return toGateway(row!);
    },

    async updateGateway(id: string, changes: z.output<typeof ZPaymentGatewayUpdate>): Promise<TPaymentGateway> {
      const { keySecret, webhookSecret, ...rest } = changes;
      const row = await deps.admin.saveGateway(id, {
        ...rest,
        ...(keySecret ? { keySecretEnc: seal(keySecret) } : {}),
        ...(webhookSecret ? { webhookSecretEnc: seal(webhookSecret) } : {}),
      });
      if (!row) throw notFound('Payment gateway');
      return toGateway(row);
    },
  };
}
export type TAdminService = ReturnType<typeof createAdminService>;
