import { expect } from 'vitest';
import type { TBuildAppOptions } from '../app.ts';
import { startSmtpStandIn, type TSmtpStandIn } from './smtp-stand-in.ts';
import { createTestApp, signUpVerified, TestClient, type TTestApp } from './test-app.ts';

/** The installation's mail server as an admin enters it in Settings, less the host and port of the stand-in. */
export type TSystemMail = { user: string; password: string; fromAddress: string; fromName?: string };

/** The account most tests' installations send their notices through. */
export const NOTICES_ACCOUNT = { user: 'notices', password: 'notices-password' };

/** Saves `smtp` as the installation's mail server, as an admin does in Settings. */
export async function saveSystemMail(admin: TestClient, smtp: Pick<TSmtpStandIn, 'host' | 'port'>, mail: TSystemMail): Promise<void> {
  const saved = await admin.request('PUT', '/api/admin/mail-settings', { host: smtp.host, port: smtp.port, ...mail });
  expect(saved.statusCode, saved.body).toBe(200);
}

/**
 * A test app whose admin (in ADMIN_EMAILS, signed up and verified) has set up an SMTP stand-in as
 * the installation's mail server, so new accounts verify their address and notices go out.
 * The stand-in accepts `mail`'s account and any `smtpAccounts`; `t.close()` stops it after the app.
 */
export async function createTestAppWithMail(options: {
  adminEmail: string;
  mail: TSystemMail;
  smtpAccounts?: Record<string, string>;
  env?: Record<string, string>;
  background?: TBuildAppOptions['background'];
  logStream?: TBuildAppOptions['logStream'];
}): Promise<{ t: TTestApp; smtp: TSmtpStandIn; admin: TestClient; adminId: string }> {
  const { adminEmail, mail } = options;
  const smtp = await startSmtpStandIn({ accounts: { [mail.user]: mail.password, ...options.smtpAccounts } });
  const t = await createTestApp(
    { ADMIN_EMAILS: adminEmail, ...options.env },
    { ...options.background, mailTrustedCa: [smtp.ca] },
    options.logStream ? { logStream: options.logStream } : {},
  );
  const closeApp = t.close;
  t.close = async () => {
    await closeApp();
    await smtp.close();
  };
  const admin = new TestClient(t.app);
  const { user } = await signUpVerified(t, admin, { email: adminEmail });
  await saveSystemMail(admin, smtp, mail);
  return { t, smtp, admin, adminId: user.id };
}
