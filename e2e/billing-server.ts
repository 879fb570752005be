import { request } from 'playwright-core';
import { startRazorpayStandIn, type TRazorpayStandIn } from '../src/server/test/gateway-stand-ins/razorpay-stand-in.ts';
import { startStripeStandIn, type TStripeStandIn } from '../src/server/test/gateway-stand-ins/stripe-stand-in.ts';
import { startOwnServer, type TOwnServer } from './own-server.ts';

/*
 * A server that takes payments: its own database and admin, Razorpay and Stripe set up and
 * pointed at their stand-ins (which also post their webhooks to the server), one of them turned
 * on, and the seller's details for invoices. Used by the billing journeys and screenshots.
 */

const ADMIN = { firstName: 'Bill', lastName: 'Ing', email: 'billing-admin@e2e.formwork.test', password: 'admin-password-123' };

export type TBillingServer = { server: TOwnServer; razorpay: TRazorpayStandIn; stripe: TStripeStandIn; stop(): Promise<void> };

export async function startBillingServer(label: string, options: { active?: 'razorpay' | 'stripe' } = {}): Promise<TBillingServer> {
  const active = options.active ?? 'razorpay';
  const server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email }, label);
  const razorpay = await startRazorpayStandIn();
  const stripe = await startStripeStandIn();
  razorpay.setWebhookUrl(`${server.base}/api/billing/webhooks/razorpay`);
  stripe.setWebhookUrl(`${server.base}/api/billing/webhooks/stripe`);
  const admin = await request.newContext({ baseURL: server.base, extraHTTPHeaders: { origin: server.base } });
  try {
    const signedUp = await admin.post('/api/auth/sign-up', { data: ADMIN });
    if (!signedUp.ok()) throw new Error(`admin sign-up: ${await signedUp.text()}`);
    // ADMIN_EMAILS counts once the address is verified: with no mail server, its link is in the log.
    const link = new URL(await server.verificationLink(ADMIN.email), server.base);
    const verified = await admin.post('/api/auth/verify-email', { data: { token: link.searchParams.get('token') } });
    if (!verified.ok()) throw new Error(`admin verification: ${await verified.text()}`);
    const gateways = [
      {
        gatewayName: 'razorpay',
        keyId: razorpay.keyId,
        keySecret: razorpay.keySecret,
        webhookSecret: razorpay.webhookSecret,
        configuration: { apiBaseUrl: razorpay.url, checkoutScriptUrl: razorpay.checkoutScriptUrl },
      },
      {
        gatewayName: 'stripe',
        keyId: 'pk_test_standin',
        keySecret: stripe.secretKey,
        webhookSecret: stripe.webhookSecret,
        configuration: { apiBaseUrl: stripe.url },
      },
    ];
    // The active one last: turning a gateway on turns the others off.
    for (const gateway of [...gateways.filter((g) => g.gatewayName !== active), ...gateways.filter((g) => g.gatewayName === active)]) {
      const created = await admin.post('/api/admin/payment-gateways', { data: { ...gateway, isActive: gateway.gatewayName === active } });
      if (created.status() !== 201) throw new Error(`gateway: ${await created.text()}`);
    }
    for (const [key, value] of [
      ['billing.seller_name', 'Formwork Labs Pvt Ltd'],
      ['billing.seller_address', '12 MG Road\nBengaluru 560001\nIndia'],
      ['billing.seller_tax_id', '29ABCDE1234F1Z5'],
    ] as const) {
      await admin.post('/api/admin/settings', { data: { key, value } });
    }
  } finally {
    await admin.dispose();
  }
  return {
    server,
    razorpay,
    stripe,
    async stop() {
      server.stop();
      await razorpay.close();
      await stripe.close();
    },
  };
}
