import type { TTestEmailResult } from '../../../contract/mail.ts';
import { AppError } from '../../http/app-error.ts';
import type { TMailOutcome } from './mail-transport.ts';
import { TEST_EMAILS_PER_10_MINUTES, type TMailContext, type TSender } from './mail-context.ts';

/** Refuses a sixth test message in ten minutes from one user or admin. */
export async function throttleTests({ testLimiter }: TMailContext, key: string): Promise<void> {
  try {
    await testLimiter.consume(key);
  } catch {
    throw new AppError('rate_limited', `You can send ${TEST_EMAILS_PER_10_MINUTES} test emails in ten minutes. Try again in a few minutes.`, undefined, {
      'retry-after': '600',
    });
  }
}

/** A test message through `sender` to `to`; the server's answer on success, its words on failure. */
export async function sendTest({ deps }: TMailContext, sender: TSender, to: string, log: object): Promise<TTestEmailResult> {
  const where = `${sender.smtp.host}:${sender.smtp.port}`;
  const outcome: TMailOutcome = await deps.mailer.send(
    sender.smtp,
    {
      from: sender.from,
      ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
      to,
      subject: 'Formwork test email',
      text: `This message went through ${where} to check the mail settings. Documents you email from Formwork go out the same way.\n`,
    },
    { checkAddress: sender.checkAddress },
  );
  if (outcome.ok) return { to, response: outcome.response };
  deps.log.warn(
    { ...log, route: sender.route, smtpHost: sender.smtp.host, smtpPort: sender.smtp.port, smtpResponse: outcome.response },
    `test email failed: ${outcome.message}`,
  );
  throw new AppError('unprocessable', outcome.message);
}
