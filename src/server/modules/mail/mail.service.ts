import { createMailContext, type TMailDeps } from './mail-context.ts';
import { assertDailyRoom, hasSystemServer, sendNotice, sendNoticeTo, systemDailyLimit } from './system-mail.ts';
import { deleteSystemSettings, saveSystemSettings, systemSettings, testSystemSettings } from './system-mail-settings.ts';
import { emailSettings, saveEmailSettings, testEmailSettings } from './user-mail-settings.ts';
import { useCasesOf } from '../use-cases.ts';

export { type TMailDeps, type TSender } from './mail-context.ts';
export { nextUtcDay, utcDay } from './system-mail.ts';

/**
 * Outgoing mail settings and the choice of server: a user's own SMTP server when their plan has
 * API access and they set one up, else the installation's, else none (then the app offers a
 * mail draft with a share link instead).
 */
export function createMailService(deps: TMailDeps) {
  const ctx = createMailContext(deps);
  const use = useCasesOf(ctx);
  return {
    senderFor: async (userId: string) => ctx.senderOf(await ctx.userOf(userId)),
    hasSystemServer: use(hasSystemServer),
    systemDailyLimit: use(systemDailyLimit),
    assertDailyRoom: use(assertDailyRoom),
    sendNotice: use(sendNotice),
    sendNoticeTo: use(sendNoticeTo),
    emailSettings: use(emailSettings),
    saveEmailSettings: use(saveEmailSettings),
    testEmailSettings: use(testEmailSettings),
    systemSettings: use(systemSettings),
    saveSystemSettings: use(saveSystemSettings),
    deleteSystemSettings: use(deleteSystemSettings),
    testSystemSettings: use(testSystemSettings),
  };
}
export type TMailService = ReturnType<typeof createMailService>;
