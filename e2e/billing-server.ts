import { request } from 'playwright-core';
import { startRazorpayStandIn, type TRazorpayStandIn } from '../src/server/test/gateway-stand-ins/razorpay-stand-in.ts';
import { startOwnServer, type TOwnServer } from './own-server.ts';

/*
 * A server that takes payments: its own database and admin, Razorpay turned on and pointed at
 * the stand-in (which also posts its webhooks to the server), and the seller's details for
 * invoices. Used by the billing journey and the billing screenshots.
 */

const ADMIN = { firstName: 'Bill', lastName: 'Ing', email: 'billing-admin@e2e.formwork.test', password: 'admin-password-123' };

export async function startBillingServer(label: string): Promise<{ server: TOwnServer; razorpay: TRazorpayStandIn; stop(): Promise<void> }> {
  const server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email }, label);
  const razorpay = await startRazorpayStandIn();
  razorpay.setWebhookUrl(`${server.base}/api/billing/webhooks/razorpay`);
  const admin = await request.newContext({ baseURL: server.base, extraHTTPHeaders: { origin: server.base } });
  try {
    const signedUp = await admin.post('/api/auth/sign-up', { data: ADMIN });
    if (!signedUp.ok()) throw new Error(`admin sign-up: ${await signedUp.text()}`);
    const gateway = await admin.post('/api/admin/payment-gateways', {
      data: {
        gatewayName: 'razorpay',
        isActive: true,
        keyId: razorpay.keyId,
        keySecret: razorpay.keySecret,
        webhookSecret: razorpay.webhookSecret,
        configuration: { apiBaseUrl: razorpay.url, checkoutScriptUrl: razorpay.checkoutScriptUrl },
      },
    });
    if (gateway.status() !== 201) throw new Error(`gateway: ${await gateway.text()}`);
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
    async stop() {
      server.stop();
      await razorpay.close();
    },
  };
}
