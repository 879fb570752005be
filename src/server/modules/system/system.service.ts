import { DEFAULT_PLAN_CATALOGUE, ZPlanCatalogue, type TPlanCatalogue } from '../../../contract/plans.ts';
import { DEFAULT_ESIGN_URL, DEFAULT_SALES_EMAIL, DEFAULT_SELLER_NAME, DEFAULT_SUPPORT_EMAIL, type TAppConfig } from '../../../contract/admin.ts';
import type { TSystemRepository } from './system.repository.ts';

export const PLAN_CATALOGUE_SETTING = 'plans.catalogue';
const PLAN_CATALOGUE_TTL_MS = 5_000;

export function createSystemService(deps: {
  system: TSystemRepository;
  activeGatewayName: () => Promise<string | undefined>;
  log: (message: string) => void;
  publicUrl: string;
}) {
  // Every generation checks its quota against the catalogue; an admin's change reaches every
  // process within a few seconds, and this one at once (forgetPlanCatalogue).
  let catalogue: { value: Promise<TPlanCatalogue>; readAt: number } | undefined;
  async function readCatalogue(): Promise<TPlanCatalogue> {
    const raw = await deps.system.get(PLAN_CATALOGUE_SETTING);
    if (!raw) return DEFAULT_PLAN_CATALOGUE;
    try {
      return ZPlanCatalogue.parse(JSON.parse(raw));
    } catch {
      deps.log(`system setting ${PLAN_CATALOGUE_SETTING} is not a valid plan catalogue; using the default`);
      return DEFAULT_PLAN_CATALOGUE;
    }
  }

  return {
    /** Admins may override the catalogue in system settings; a broken override falls back to the default. */
    planCatalogue(): Promise<TPlanCatalogue> {
      if (!catalogue || Date.now() - catalogue.readAt > PLAN_CATALOGUE_TTL_MS) {
        const value = readCatalogue();
        catalogue = { value, readAt: Date.now() };
        value.catch(() => (catalogue = undefined));
      }
      return catalogue.value;
    },

    /** After an admin saves or deletes a setting: the next read goes to the database. */
    forgetPlanCatalogue() {
      catalogue = undefined;
    },

    async appConfig(): Promise<TAppConfig> {
      const [esignUrl, supportEmail, salesEmail] = await Promise.all([
        deps.system.get('esign.url'),
        deps.system.get('support.email'),
        deps.system.get('sales.email'),
      ]);
      return {
        esignUrl: esignUrl ?? DEFAULT_ESIGN_URL,
        supportEmail: supportEmail ?? DEFAULT_SUPPORT_EMAIL,
        salesEmail: salesEmail ?? DEFAULT_SALES_EMAIL,
        publicUrl: deps.publicUrl,
      };
    },

    /** Who invoices are from: the seller settings, and the support address for questions. */
    async seller(): Promise<{ name: string; address: string; taxId: string; email: string }> {
      const [name, address, taxId, email] = await Promise.all([
        deps.system.get('billing.seller_name'),
        deps.system.get('billing.seller_address'),
        deps.system.get('billing.seller_tax_id'),
        deps.system.get('support.email'),
      ]);
      return { name: name ?? DEFAULT_SELLER_NAME, address: address ?? '', taxId: taxId ?? '', email: email ?? DEFAULT_SUPPORT_EMAIL };
    },

    /** The gateway that takes payments now, if an admin turned one on; it decides the currency (docs/decisions.md). */
    activeGateway(): Promise<string | undefined> {
      return deps.activeGatewayName();
    },
  };
}
export type TSystemService = ReturnType<typeof createSystemService>;
