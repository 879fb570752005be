import { z } from 'zod';

/** The usage chart covers this many days, today included. */
export const API_USAGE_DAYS = 30;
/** Overall latency percentiles are taken over the request log, which keeps this many days. */
export const API_LATENCY_DAYS = 7;

export const ZApiUsageQuery = z.object({ keyId: z.string().min(1).max(64).optional() });

export const ZApiUsageDay = z.object({
  /** YYYY-MM-DD, UTC. */
  day: z.string(),
  ok: z.number().int(),
  clientErrors: z.number().int(),
  serverErrors: z.number().int(),
  documents: z.number().int(),
  /** Null on a day without requests. */
  p50Ms: z.number().int().nullable(),
  p95Ms: z.number().int().nullable(),
});
export type TApiUsageDay = z.infer<typeof ZApiUsageDay>;

export const ZApiUsage = z.object({
  keyId: z.string().nullable(),
  /** Every day of the period, oldest first, days without requests included. */
  days: z.array(ZApiUsageDay),
  totals: z.object({
    requests: z.number().int(),
    ok: z.number().int(),
    clientErrors: z.number().int(),
    serverErrors: z.number().int(),
    documents: z.number().int(),
  }),
  latency: z.object({ p50Ms: z.number().int().nullable(), p95Ms: z.number().int().nullable() }),
  /** The keys to filter by, revoked ones too: their history stays. */
  keys: z.array(z.object({ id: z.string(), name: z.string(), last4: z.string(), revoked: z.boolean() })),
});
export type TApiUsage = z.infer<typeof ZApiUsage>;

export const API_USAGE_CSV_HEADER = ['Date', '2xx/3xx requests', '4xx requests', '5xx requests', 'Documents generated', 'p50 latency (ms)', 'p95 latency (ms)'];
