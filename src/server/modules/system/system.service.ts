import { DEFAULT_PLAN_CATALOGUE, ZPlanCatalogue, type TPlanCatalogue } from '../../../contract/plans.ts';
import { DEFAULT_ESIGN_URL, DEFAULT_SUPPORT_EMAIL, type TAppConfig } from '../../../contract/admin.ts';
import type { TSystemRepository } from './system.repository.ts';

export const PLAN_CATALOGUE_SETTING = 'plans.catalogue';

export function createSystemService(deps: {
  system: TSystemRepository;
  activeGatewayName: () => Promise<string | undefined>;
  log: (message: string) => void;
}) {
  return {
    /** Admins may override the catalogue in system settings; a broken override falls back to the default. */
    async planCatalogue(): Promise<TPlanCatalogue> {
      const raw = await deps.system.get(PLAN_CATALOGUE_SETTING);
      if (!raw) return DEFAULT_PLAN_CATALOGUE;
      try {
        return ZPlanCatalogue.parse(JSON.parse(raw));
      } catch {
        deps.log(`system setting ${PLAN_CATALOGUE_SETTING} is not a valid plan catalogue; using the default`);
        return DEFAULT_PLAN_CATALOGUE;
      }
    },

    async appConfig(): Promise<TAppConfig> {
      const [esignUrl, supportEmail] = await Promise.all([deps.system.get('esign.url'), deps.system.get('support.email')]);
      return { esignUrl: esignUrl ?? DEFAULT_ESIGN_URL, supportEmail: supportEmail ?? DEFAULT_SUPPORT_EMAIL };
    },

    /** Prices follow the active payment gateway: INR for Razorpay, otherwise USD (DESIGN.md). */
    async priceCurrency(): Promise<'USD' | 'INR'> {
      return (await deps.activeGatewayName()) === 'razorpay' ? 'INR' : 'USD';
    },
  };
}
export type TSystemService = ReturnType<typeof createSystemService>;
