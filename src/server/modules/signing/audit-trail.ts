import { createHash } from 'node:crypto';

export type { TSignatureEventType } from '../../../contract/signature-requests.ts';

/** An event as it is recorded; `prevHash` and `hash` chain it to the one before. */
export type TAuditEvent = {
  requestId: string;
  seq: number;
  at: Date;
  type: string;
  signerId: string | null;
  ip: string | null;
  userAgent: string | null;
  documentSha256: string;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
};

/** The chain's start: the hash the first event points back to. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with keys in sorted order at every depth, so the same event always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash of an event: everything it records, and the hash of the event before it. */
export function eventHash(event: Omit<TAuditEvent, 'hash'>): string {
  const { at, ...rest } = event;
  return createHash('sha256')
    .update(canonical({ ...rest, at: at.toISOString() }))
    .digest('hex');
}

export type TChainCheck = { intact: true; head: string; count: number } | { intact: false; seq: number; reason: string };

/**
 * Whether a request's events are the ones recorded: in order with no gap, each hashing to what it
 * stores and pointing at the one before, and ending at the head and count the request keeps, so a
 * row changed, removed (the newest too) or slipped in is found.
 */
export function checkChain(events: readonly TAuditEvent[], expected: { head: string; count: number }): TChainCheck {
  let prev = GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    if (event.seq !== index + 1) return { intact: false, seq: index + 1, reason: `Event ${index + 1} is missing.` };
    if (event.prevHash !== prev) return { intact: false, seq: event.seq, reason: `Event ${event.seq} does not follow the one before it.` };
    const { hash, ...rest } = event;
    if (eventHash(rest) !== hash) return { intact: false, seq: event.seq, reason: `Event ${event.seq} was changed after it was recorded.` };
    prev = hash;
  }
  if (events.length !== expected.count || prev !== (expected.count === 0 ? GENESIS_HASH : expected.head)) {
    return { intact: false, seq: events.length + 1, reason: 'Events recorded after the last one shown are missing.' };
  }
  return { intact: true, head: prev, count: events.length };
}
