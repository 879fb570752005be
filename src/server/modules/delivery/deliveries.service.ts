import { createDeliveryBase, type TDeliveriesDeps, type TDeliveryContext } from './delivery-context.ts';
import { deliveriesOfDocument, getDelivery, recentDeliveries } from './delivery-history.ts';
import { emailDocument, queueSigningEmail } from './email-document.ts';
import { createDeliveryWorker } from './send-attempt.ts';
import { useCasesOf } from '../use-cases.ts';

export type { TDeliveriesDeps, TSigningEmailContent, TSigningEmailRow, TSigningMail } from './delivery-context.ts';
export { IN_DOUBT_MESSAGE } from './delivery-terms.ts';

/**
 * Emailing documents: each email is a row in the delivery queue, sent by a worker in any process
 * (one SMTP transaction at a time per row), retried with backoff after temporary failures, held to
 * the owner's send rate, and logged with the server's own answer.
 */
export function createDeliveriesService(deps: TDeliveriesDeps) {
  const base = createDeliveryBase(deps);
  const worker = createDeliveryWorker(base);
  const ctx: TDeliveryContext = { ...base, worker };
  const use = useCasesOf(ctx);
  return {
    worker,
    email: use(emailDocument),
    queueSigningEmail: use(queueSigningEmail),
    ofDocument: use(deliveriesOfDocument),
    get: use(getDelivery),
    recent: use(recentDeliveries),
    start: () => worker.start(),
    stop: () => worker.stop(),
  };
}
export type TDeliveriesService = ReturnType<typeof createDeliveriesService>;
