import { z } from 'zod';
import { ZLocale } from './format-content.ts';
import { DEFAULT_LOCALE } from './placeholder-values.ts';
import { ZPlanCatalogue, ZPlanId } from './plans.ts';
import { DEFAULT_PUBLIC_PAGES, ZPublicPages } from './public-pages.ts';
import { DEFAULT_SIGN_UP_POLICY, ZSignUpConfig } from './sign-ups.ts';
import { PUBLIC_URL_TOKEN } from './site.ts';
import { ZRole } from './user.ts';

export const ZAdminUser = z.object({
  id: z.string(),
  /** When an admin suspended the account (ISO), or null: it may sign in. */
  suspendedAt: z.string().nullable(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: ZRole,
  emailVerified: z.boolean(),
  subscriptionPlan: ZPlanId,
  /** The monthly generation limit in force: the user's own override, else the plan's (null: plan unknown). */
  apiCallsLimit: z.number().int().nonnegative().nullable(),
  apiCallsUsed: z.number().int().nonnegative(),
  totalFormats: z.number().int().nonnegative(),
  totalDocuments: z.number().int().nonnegative(),
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;

export const ZRoleChange = z.object({ role: ZRole });

export const ZAdminUserUpdate = z
  .object({
    subscriptionPlan: ZPlanId.optional(),
    apiCallsLimit: z.number().int().min(0).max(100_000_000).nullable().optional(),
  })
  .refine((u) => u.subscriptionPlan !== undefined || u.apiCallsLimit !== undefined, {
    message: 'Change the plan or the limit.',
  });
export type TAdminUserUpdate = z.infer<typeof ZAdminUserUpdate>;

/** Settings the product reads; other keys may be stored but nothing uses them. */
export const KNOWN_SETTINGS = {
  'plans.catalogue': 'The plan catalogue as JSON (limits and prices shown on the landing page and billing).',
  'support.email': 'The address that support links write to.',
  'sales.email': 'The address that Contact Sales writes to (Enterprise plan and API access).',
  'billing.seller_name': 'The seller named on invoices (your company).',
  'billing.seller_address': 'The seller’s postal address on invoices (line breaks allowed).',
  'billing.seller_tax_id': 'The seller’s tax id (VAT, GSTIN, EIN) on invoices.',
  'security.admin_two_factor':
    'true: administrators must turn on two-factor sign-in before they can use the Admin Panel (accounts that sign in through single sign-on are left to their provider).',
  'documents.locale':
    'The language new formats are written in unless they choose their own, as a tag such as en-GB, de-DE or hi-IN: their PDFs name it for screen readers, and dates and numbers print in its style. A format keeps the language it was saved with.',
  'mail.daily_limit':
    'Emails a day users may send through the installation’s mail server (each recipient counts once); past it, sending waits for the next day (UTC).',
} as const;

export const DEFAULT_SELLER_NAME = 'Formwork';

export const ZSystemSetting = z.object({
  key: z.string(),
  value: z.string(),
  description: z.string().nullable(),
  updatedAt: z.string(),
});
export type TSystemSetting = z.infer<typeof ZSystemSetting>;

export const ZSystemSettingInput = z.object({
  key: z
    .string()
    .trim()
    .min(1, 'Enter a key.')
    .max(100)
    .regex(/^[a-z0-9_.-]+$/, 'Use lowercase letters, digits, dots, dashes and underscores.'),
  value: z.string().max(100_000),
  description: z.string().trim().max(500).nullish(),
});
export type TSystemSettingInput = z.infer<typeof ZSystemSettingInput>;

export const GATEWAY_NAMES = ['razorpay', 'stripe', 'paypal'] as const;
export const ZGatewayName = z.enum(GATEWAY_NAMES);
export type TGatewayName = z.infer<typeof ZGatewayName>;

/** A gateway as admins see it: secrets never leave the server, only whether they are set. */
export const ZPaymentGateway = z.object({
  id: z.string(),
  gatewayName: ZGatewayName,
  isActive: z.boolean(),
  keyId: z.string(),
  hasKeySecret: z.boolean(),
  hasWebhookSecret: z.boolean(),
  configuration: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TPaymentGateway = z.infer<typeof ZPaymentGateway>;

const ZHttpUrl = z.url({ protocol: /^https?$/, message: 'Enter an http(s) address.' });

/** Where each gateway is reached when its configuration does not say: the providers' own addresses. */
export const GATEWAY_DEFAULT_ADDRESSES = {
  razorpay: { apiBaseUrl: 'https://api.razorpay.com', checkoutScriptUrl: 'https://checkout.razorpay.com/v1/checkout.js' },
  stripe: { apiBaseUrl: 'https://api.stripe.com' },
  paypal: { apiBaseUrl: 'https://api-m.paypal.com' },
} as const satisfies Record<TGatewayName, { apiBaseUrl: string; checkoutScriptUrl?: string }>;

/** The webhook events Formwork acts on, to subscribe to when registering its address at the provider. */
export const GATEWAY_WEBHOOK_EVENTS: Record<TGatewayName, string[]> = {
  razorpay: ['payment.captured', 'payment.failed', 'refund.processed'],
  stripe: [
    'checkout.session.completed',
    'invoice.paid',
    'invoice.payment_failed',
    'customer.subscription.updated',
    'customer.subscription.deleted',
    'charge.refunded',
  ],
  paypal: ['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.DENIED', 'PAYMENT.CAPTURE.REFUNDED'],
};

/** Where a gateway posts its events: register this at the provider. */
export const gatewayWebhookUrl = (publicUrl: string, name: TGatewayName) => `${publicUrl.replace(/\/+$/, '')}/api/billing/webhooks/${name}`;

/**
 * A gateway's settings beyond its keys. The addresses default to the gateway's real ones; setting
 * them points Formwork at a stand-in (staging, tests). PayPal verifies webhooks against the id it
 * gave the registered webhook.
 */
export const ZGatewayConfiguration = z
  .object({
    apiBaseUrl: ZHttpUrl.optional(),
    checkoutScriptUrl: ZHttpUrl.optional(),
    webhookId: z.string().trim().max(200).optional(),
  })
  // Settings a gateway may gain later are kept as they are, but only as single values.
  .catchall(z.union([z.string().max(2000), z.number(), z.boolean(), z.null()], { error: 'Use a single value: text, a number, true or false.' }));
export type TGatewayConfiguration = z.infer<typeof ZGatewayConfiguration>;

export const ZPaymentGatewayInput = z.object({
  gatewayName: ZGatewayName,
  isActive: z.boolean().default(false),
  keyId: z.string().trim().min(1, 'Enter the key ID.').max(200),
  keySecret: z.string().max(500).optional(),
  webhookSecret: z.string().max(500).optional(),
  configuration: ZGatewayConfiguration.default({}),
});
export type TPaymentGatewayInput = z.input<typeof ZPaymentGatewayInput>;

export const ZPaymentGatewayUpdate = z.object({
  isActive: z.boolean().optional(),
  keyId: z.string().trim().min(1).max(200).optional(),
  /** A new secret replaces the stored one; leaving it out keeps it. */
  keySecret: z.string().max(500).optional(),
  webhookSecret: z.string().max(500).optional(),
  configuration: ZGatewayConfiguration.optional(),
});
export type TPaymentGatewayUpdate = z.infer<typeof ZPaymentGatewayUpdate>;

/** Where the seal's RFC 3161 timestamp server is stored (edited under Settings → Document seal). */
export const TIMESTAMP_URL_SETTING = 'signing.timestamp_url';

/** The certificate completed documents are sealed with, as admins see it. */
export const ZSealCertificate = z.object({
  subject: z.string(),
  issuer: z.string(),
  validUntil: z.string(),
  /** `generated`: the installation's own certificate; `uploaded`: one from a CA an admin uploaded. */
  source: z.enum(['generated', 'uploaded']),
});
export type TSealCertificate = z.infer<typeof ZSealCertificate>;

export const ZSealSettings = z.object({
  /** null until the first document is sealed (the installation then makes its own). */
  certificate: ZSealCertificate.nullable(),
  timestampUrl: z.string().nullable(),
});
export type TSealSettings = z.infer<typeof ZSealSettings>;

export const ZTimestampUrlInput = z.object({
  /** null (or blank) turns timestamps off. */
  timestampUrl: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : typeof value === 'string' ? value.trim() : value),
    z
      .url({ protocol: /^https?$/, message: 'Enter the timestamp server’s http(s) address, such as http://timestamp.digicert.com.' })
      .max(2_000)
      .nullable(),
  ),
});

/** A PKCS #12 file is a few kilobytes; 64 KB leaves room for a long chain. */
export const MAX_SEAL_FILE_BYTES = 64 * 1024;

export const ZSealUpload = z.object({
  /** The .p12 or .pfx file, base64. */
  file: z
    .string()
    .min(1, 'Choose a .p12 or .pfx file.')
    .max(Math.ceil((MAX_SEAL_FILE_BYTES * 4) / 3) + 4, 'That file is too large for a PKCS #12 file (64 KB at most).')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The file did not arrive whole; choose it again.'),
  password: z.string().max(1_000),
});
export type TSealUpload = z.infer<typeof ZSealUpload>;

/**
 * What the web app needs from system settings, readable without signing in. Support and sales
 * addresses are null until an admin sets them: the pages then hide their links rather than write
 * to someone else's address.
 */
export const ZAppConfig = z.object({
  supportEmail: z.string().nullable(),
  salesEmail: z.string().nullable(),
  /** The address this installation is reached at (webhook addresses to register start with it). */
  publicUrl: z.string(),
  /** Figures, testimonials and team on the landing and About pages. */
  publicPages: ZPublicPages,
  /** Who may create an account, so the sign-up page says so before anyone types. */
  signUps: ZSignUpConfig,
  /** The language a format is saved in when it names none (`documents.locale`). */
  documentLocale: z.string(),
});
export type TAppConfig = z.infer<typeof ZAppConfig>;

/**
 * The config the build draws the landing page with: a new installation's, which names no contact
 * address and claims nothing. The server sends that drawing only while the settings still say so.
 */
export const BUILD_APP_CONFIG: TAppConfig = {
  supportEmail: null,
  salesEmail: null,
  publicUrl: PUBLIC_URL_TOKEN,
  publicPages: DEFAULT_PUBLIC_PAGES,
  signUps: { mode: DEFAULT_SIGN_UP_POLICY.mode, singleSignOn: null },
  documentLocale: DEFAULT_LOCALE,
};

export const DOCUMENT_LOCALE_SETTING = 'documents.locale' satisfies keyof typeof KNOWN_SETTINGS;
export const DOCUMENT_LOCALE_HINT = 'Enter a language tag such as en-GB, de-DE or hi-IN.';

/**
 * A language tag in its canonical form (`de-de` reads `de-DE`), or null when it is not one or
 * names a language the runtime cannot print dates in: those would print in the host's own style,
 * so the same document could differ from one machine to another.
 */
export function canonicalLocale(raw: string | null | undefined): string | null {
  const tag = ZLocale.safeParse(raw?.trim()).data;
  if (!tag) return null;
  try {
    const canonical = Intl.getCanonicalLocales(tag)[0];
    return canonical && Intl.DateTimeFormat.supportedLocalesOf([canonical]).length > 0 ? canonical : null;
  } catch {
    return null;
  }
}

/** The `documents.locale` setting; the default when it is unset or not a language tag. */
export function documentLocaleSetting(raw: string | null | undefined): string {
  return canonicalLocale(raw) ?? DEFAULT_LOCALE;
}

/** One admin change: who did what to which gateway, plan or user, and when (secrets never shown). */
export const ZAuditEntry = z.object({
  id: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const ZAuditPage = z.object({ entries: z.array(ZAuditEntry), total: z.number().int() });
export const ZAuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

const PLAN_ORDER = ['free', 'basic', 'premium', 'enterprise'] as const;

/**
 * The catalogue as admins save it: every plan once, in order, with a price in both currencies
 * unless it is sold by the sales team (no price at all), and the free plan free.
 */
export const ZPlanCatalogueInput = ZPlanCatalogue.superRefine((plans, ctx) => {
  const ids = plans.map((p) => p.id);
  if (ids.length !== PLAN_ORDER.length || PLAN_ORDER.some((id, i) => ids[i] !== id)) {
    ctx.addIssue({ code: 'custom', message: 'List the four plans once each, in order: free, basic, premium, enterprise.', path: [] });
  }
  plans.forEach((plan, i) => {
    const prices = [plan.usdMonthly, plan.inrMonthly];
    if (prices.some((p) => p === null) && prices.some((p) => p !== null)) {
      ctx.addIssue({ code: 'custom', message: 'Give a price in both currencies, or in neither (sold by the sales team).', path: [i, 'usdMonthly'] });
    }
    if (plan.id === 'free' && (plan.usdMonthly !== 0 || plan.inrMonthly !== 0)) {
      ctx.addIssue({ code: 'custom', message: 'The free plan costs nothing.', path: [i, 'usdMonthly'] });
    }
    if (plan.id !== 'free' && (plan.usdMonthly === 0 || plan.inrMonthly === 0)) {
      ctx.addIssue({ code: 'custom', message: 'A paid plan needs a price above zero.', path: [i, 'usdMonthly'] });
    }
    for (const [annual, monthly, field] of [
      [plan.usdAnnualPerMonth, plan.usdMonthly, 'usdAnnualPerMonth'],
      [plan.inrAnnualPerMonth ?? null, plan.inrMonthly, 'inrAnnualPerMonth'],
    ] as const) {
      if (annual !== null && monthly !== null && annual > monthly) {
        ctx.addIssue({ code: 'custom', message: 'Billed annually, a month costs no more than monthly.', path: [i, field] });
      }
    }
  });
});
