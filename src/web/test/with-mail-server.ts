/** A web test file whose installation sends mail: an SMTP stand-in, and the server set up to use it. */
import { afterAll, beforeAll } from 'vitest';
import { api } from '../lib/api';
import { signUp, withServer, type TWebServer } from './render-app';
import { startSmtpStandIn, type TSmtpStandIn } from './stand-ins';

export type TMailTest = { server: TWebServer; smtp: TSmtpStandIn };

/**
 * Starts the stand-in and a server for this file, then sets the installation's mail server up as
 * an administrator (`adminEmail`) does. `smtp` is there once the file's hooks have run.
 */
export function withMailServer(adminEmail: string, settings: { fromName?: string } = {}): TMailTest {
  const test = {} as TMailTest;
  beforeAll(async () => {
    test.smtp = await startSmtpStandIn({ accounts: { relay: 'relay-pass' } });
  });
  test.server = withServer(() => ({
    env: { ADMIN_EMAILS: adminEmail },
    background: { mailTrustedCa: [test.smtp.ca], emailRetryDelaysMs: [100, 100] },
  }));
  beforeAll(async () => {
    await signUp(test.server, { email: adminEmail });
    await api.put('/api/admin/mail-settings', {
      host: test.smtp.host,
      port: test.smtp.port,
      user: 'relay',
      password: 'relay-pass',
      fromAddress: 'documents@formwork.test',
      ...settings,
    });
  });
  afterAll(async () => {
    await test.smtp.close();
  });
  return test;
}
