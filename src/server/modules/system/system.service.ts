import { ZPlanCatalogue, type TPlanCatalogue } from '../../../contract/plans.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { DEFAULT_SELLER_NAME, DOCUMENT_LOCALE_SETTING, documentLocaleSetting, TIMESTAMP_URL_SETTING, type TAppConfig } from '../../../contract/admin.ts';
import { DEFAULT_PUBLIC_PAGES, PUBLIC_PAGES_SETTING, ZPublicPages, type TPublicPages } from '../../../contract/public-pages.ts';
import { ADMIN_TWO_FACTOR_SETTING } from '../../../contract/two-factor.ts';
import { DEFAULT_SIGN_UP_POLICY, SIGN_UP_POLICY_SETTING, ZSignUpPolicy, type TSignUpPolicy } from '../../../contract/sign-ups.ts';
import type { TSystemRepository } from './system.repository.ts';

export const PLAN_CATALOGUE_SETTING = 'plans.catalogue';
const SETTINGS_TTL_MS = 5_000;

/** A value read again after a few seconds, or at once after forget(). */
function cached<T>(read: () => Promise<T>) {
  let entry: { value: Promise<T>; readAt: number } | undefined;
  return {
    get(): Promise<T> {
      if (!entry || Date.now() - entry.readAt > SETTINGS_TTL_MS) {
        const value = read();
        entry = { value, readAt: Date.now() };
        value.catch(() => (entry = undefined));
      }
      return entry.value;
    },
    forget() {
      entry = undefined;
    },
  };
}

export function createSystemService(deps: {
  system: TSystemRepository;
  activeGatewayName: () => Promise<string | undefined>;
  log: (message: string) => void;
  publicUrl: string;
  /** The single sign-on provider's name, when one is set up. */
  singleSignOn?: string | null;
}) {
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

  async function readPublicPages(): Promise<TPublicPages> {
    const raw = await deps.system.get(PUBLIC_PAGES_SETTING);
    if (!raw) return DEFAULT_PUBLIC_PAGES;
    try {
      return ZPublicPages.parse(JSON.parse(raw));
    } catch {
      deps.log(`system setting ${PUBLIC_PAGES_SETTING} is not valid; the public pages show no figures, testimonials or team`);
      return DEFAULT_PUBLIC_PAGES;
    }
  }

  async function readSignUpPolicy(): Promise<TSignUpPolicy> {
    const raw = await deps.system.get(SIGN_UP_POLICY_SETTING);
    if (!raw) return DEFAULT_SIGN_UP_POLICY;
    try {
      return ZSignUpPolicy.parse(JSON.parse(raw));
    } catch {
      // Open would let in whoever the admin meant to keep out: a broken policy lets nobody sign up.
      deps.log(`system setting ${SIGN_UP_POLICY_SETTING} is not valid; sign-ups are by invitation only until it is saved again`);
      return { mode: 'invitation', allowedDomains: [] };
    }
  }

  async function readAppConfig(): Promise<TAppConfig> {
    const [supportEmail, salesEmail, publicPages, signUpPolicy, documentLocale] = await Promise.all([
      deps.system.get('support.email'),
      deps.system.get('sales.email'),
      readPublicPages(),
      signUps.get(),
      deps.system.get(DOCUMENT_LOCALE_SETTING),
    ]);
    return {
      supportEmail: supportEmail || null,
      salesEmail: salesEmail || null,
      publicUrl: deps.publicUrl,
      publicPages,
      signUps: { mode: signUpPolicy.mode, singleSignOn: deps.singleSignOn ?? null },
      documentLocale: documentLocaleSetting(documentLocale),
    };
  }

  // Every generation checks its quota against the catalogue, and every page sent carries the app
  // config: an admin's change reaches every process within a few seconds, and this one at once.
  const catalogue = cached(readCatalogue);
  const signUps = cached(readSignUpPolicy);
  const appConfig = cached(readAppConfig);
  // Every admin request asks it.
  const adminTwoFactor = cached(async () => (await deps.system.get(ADMIN_TWO_FACTOR_SETTING))?.trim() === 'true');

  return {
    /** Admins may override the catalogue in system settings; a broken override falls back to the default. */
    planCatalogue(): Promise<TPlanCatalogue> {
      return catalogue.get();
    },

    /** After an admin saves or deletes a setting: the next reads go to the database. */
    forgetPlanCatalogue() {
      catalogue.forget();
      signUps.forget();
      appConfig.forget();
      adminTwoFactor.forget();
    },

    /** Whether admins must have two-factor on (`security.admin_two_factor`), see modules/auth/two-factor.ts. */
    adminTwoFactorRequired(): Promise<boolean> {
      return adminTwoFactor.get();
    },

    appConfig(): Promise<TAppConfig> {
      return appConfig.get();
    },

    /** The language a format is saved in when it names none (`documents.locale`). */
    async documentLocale(): Promise<string> {
      return (await appConfig.get()).documentLocale;
    },

    /** Who may create an account; read again within seconds of an admin's change, at once in this process. */
    signUpPolicy(): Promise<TSignUpPolicy> {
      return signUps.get();
    },

    publicPages(): Promise<TPublicPages> {
      return readPublicPages();
    },

    /** The RFC 3161 server seals are timestamped by (PAdES B-T), or null: seals are B-B. */
    async timestampUrl(): Promise<string | null> {
      return (await deps.system.get(TIMESTAMP_URL_SETTING))?.trim() || null;
    },

    /** Who invoices are from: the seller settings, and the support address for questions (none when unset). */
    async seller(): Promise<{ name: string; address: string; taxId: string; email: string }> {
      const [name, address, taxId, email] = await Promise.all([
        deps.system.get('billing.seller_name'),
        deps.system.get('billing.seller_address'),
        deps.system.get('billing.seller_tax_id'),
        deps.system.get('support.email'),
      ]);
      return { name: name ?? DEFAULT_SELLER_NAME, address: address ?? '', taxId: taxId ?? '', email: email ?? '' };
    },

    /** The gateway that takes payments now, if an admin turned one on; it decides the currency (docs/decisions.md). */
    activeGateway(): Promise<string | undefined> {
      return deps.activeGatewayName();
    },
  };
}
export type TSystemService = ReturnType<typeof createSystemService>;
