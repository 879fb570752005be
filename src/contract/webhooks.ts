import { z } from 'zod';

/** What an endpoint can be told about. */
export const WEBHOOK_EVENTS = [
  'document.created',
  'batch.completed',
  'batch.failed',
  'signature_request.sent',
  'signature_request.viewed',
  'signature_request.signed',
  'signature_request.completed',
  'signature_request.declined',
  'signature_request.expired',
  'team.member_added',
  'team.member_removed',
] as const;
export const ZWebhookEvent = z.enum(WEBHOOK_EVENTS);
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;
/** The event "Send test event" sends; endpoints get it whatever they subscribe to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as Stripe signs. */
export const WEBHOOK_SIGNATURE_HEADER = 'Formwork-Signature';
export const MAX_WEBHOOK_ENDPOINTS = 10;

export const ZCreateWebhookBody = z.object({
  url: z.url({ protocol: /^https?$/, error: 'Enter the full address, starting with https://.' }).max(2000, 'Use an address of at most 2,000 characters.'),
  events: z.array(ZWebhookEvent).min(1, 'Choose at least one event.').max(WEBHOOK_EVENTS.length),
});
export type TCreateWebhookBody = z.infer<typeof ZCreateWebhookBody>;

export const ZWebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(ZWebhookEvent),
  createdAt: z.string(),
  /** Set when repeated failures turned the endpoint off; the user can turn it on again. */
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable(),
});
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** A new endpoint, with its signing secret: shown this once. */
export const ZCreatedWebhookEndpoint = ZWebhookEndpoint.extend({ secret: z.string() });
export type TCreatedWebhookEndpoint = z.infer<typeof ZCreatedWebhookEndpoint>;

export const ZWebhookDelivery = z.object({
  id: z.string(),
  endpointId: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** The receiver's HTTP status on the last attempt; null when it could not be reached. */
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
