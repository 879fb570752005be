import type { TBuildAppOptions } from '../../../app.ts';
import { createTestAppWithMail, NOTICES_ACCOUNT } from '../../../test/mail-test-app.ts';

/**
 * The app the sign-in throttle and account recovery are tested on: TRUST_PROXY off, so each
 * request's own address is the client's; the throttle on `clock`, which tests move instead of
 * waiting; and a mail server for the security notices.
 */
export function createThrottledTestApp(adminEmail: string, clock: () => Date, background: TBuildAppOptions['background'] = {}) {
  return createTestAppWithMail({
    adminEmail,
    mail: { ...NOTICES_ACCOUNT, fromAddress: 'security@formwork.test', fromName: 'Formwork' },
    env: { TRUST_PROXY: 'false' },
    background: { signInClock: clock, ...background },
  });
}
