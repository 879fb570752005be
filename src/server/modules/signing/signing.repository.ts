import { and, asc, count, eq, gte, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { sealKeys, signatureEvents, signatureRequests, signatureSigners, signedDocuments } from '../../db/schema.ts';
import { eventHash, GENESIS_HASH, type TAuditEvent, type TSignatureEventType } from './audit-trail.ts';

export type TSignatureRequestRow = typeof signatureRequests.$inferSelect;
export type TSignerRow = typeof signatureSigners.$inferSelect;
export type TSealKeyRow = typeof sealKeys.$inferSelect;
export type TNewEvent = { type: TSignatureEventType } & Partial<Pick<TAuditEvent, 'signerId' | 'ip' | 'userAgent' | 'details'>> & { at?: Date };

type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];

/**
 * Adds an event to a request's trail. The request row is locked first, so two events of one
 * request are chained one after the other, never both onto the same predecessor.
 */
async function appendTo(tx: TTx, requestId: string, event: TNewEvent): Promise<TAuditEvent> {
  const [request] = await tx
    .select({ head: signatureRequests.eventsHead, count: signatureRequests.eventCount, documentSha256: signatureRequests.documentSha256 })
    .from(signatureRequests)
    .where(eq(signatureRequests.id, requestId))
    .for('update');
  if (!request) throw new Error(`signature request ${requestId} not found`);
  const unhashed = {
    requestId,
    seq: request.count + 1,
    at: event.at ?? new Date(),
    type: event.type,
    signerId: event.signerId ?? null,
    ip: event.ip ?? null,
    userAgent: event.userAgent ?? null,
    documentSha256: request.documentSha256,
    details: event.details ?? {},
    prevHash: request.count === 0 ? GENESIS_HASH : request.head,
  };
  const recorded: TAuditEvent = { ...unhashed, hash: eventHash(unhashed) };
  await tx.insert(signatureEvents).values(recorded);
  await tx.update(signatureRequests).set({ eventsHead: recorded.hash, eventCount: recorded.seq }).where(eq(signatureRequests.id, requestId));
  return recorded;
}

/** Requests are read by their owner; a signer's link finds its signer by the token's hash alone. */
export function createSigningRepository(db: TDb) {
  return {
    /** A request, its signers and its first event, in one transaction. */
    async createRequest(
      request: typeof signatureRequests.$inferInsert,
      signers: (typeof signatureSigners.$inferInsert)[],
      created: TNewEvent,
    ): Promise<{ request: TSignatureRequestRow; signers: TSignerRow[] }> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(signatureRequests).values(request).returning();
        const signerRows = signers.length > 0 ? await tx.insert(signatureSigners).values(signers).returning() : [];
        await appendTo(tx, row!.id, created);
        const [fresh] = await tx.select().from(signatureRequests).where(eq(signatureRequests.id, row!.id));
        return { request: fresh!, signers: signerRows };
      });
    },

    async getRequest(ownerId: string, id: string): Promise<{ request: TSignatureRequestRow; signers: TSignerRow[] } | undefined> {
      const [request] = await db
        .select()
        .from(signatureRequests)
        .where(and(eq(signatureRequests.ownerId, ownerId), eq(signatureRequests.id, id)));
      if (!request) return undefined;
      const signers = await db
        .select()
        .from(signatureSigners)
        .where(eq(signatureSigners.requestId, id))
        .orderBy(asc(signatureSigners.order), asc(signatureSigners.role));
      return { request, signers };
    },

    async appendEvent(requestId: string, event: TNewEvent): Promise<TAuditEvent> {
      return db.transaction((tx) => appendTo(tx, requestId, event));
    },

    /** The seal in use, if the installation has made or been given one. */
    async sealInUse(): Promise<TSealKeyRow | undefined> {
      const [row] = await db.select().from(sealKeys).where(isNull(sealKeys.retiredAt));
      return row;
    },

    /** Adds a seal unless one is already in use (another process made it first); false then. */
    async addSealIfNone(row: typeof sealKeys.$inferInsert): Promise<boolean> {
      const added = await db.insert(sealKeys).values(row).onConflictDoNothing().returning({ id: sealKeys.id });
      return added.length > 0;
    },

    /** Every seal the installation has used, so that what an older one sealed still verifies. */
    async allSeals(): Promise<TSealKeyRow[]> {
      return db.select().from(sealKeys).orderBy(asc(sealKeys.createdAt));
    },

    /** Requests an owner has made since a time: what the plan's monthly allowance counts. */
    async countCreatedSince(ownerId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(signatureRequests)
        .where(and(eq(signatureRequests.ownerId, ownerId), gte(signatureRequests.createdAt, since)));
      return row?.n ?? 0;
    },

    /**
     * The request whose sealed PDF has this SHA-256, with its signers and trail: what /verify shows
     * of a file anyone may hold, so it is found by the file alone, not by an owner.
     */
    async findSealed(sealedSha256: string): Promise<{ request: TSignatureRequestRow; signers: TSignerRow[]; events: TAuditEvent[] } | undefined> {
      const [request] = await db.select().from(signatureRequests).where(eq(signatureRequests.sealedSha256, sealedSha256)).limit(1);
      if (!request) return undefined;
      const signers = await db
        .select()
        .from(signatureSigners)
        .where(eq(signatureSigners.requestId, request.id))
        .orderBy(asc(signatureSigners.order), asc(signatureSigners.role));
      const events = await db.select().from(signatureEvents).where(eq(signatureEvents.requestId, request.id)).orderBy(asc(signatureEvents.seq));
      return { request, signers, events: events.map(({ id: _id, ...event }) => event) };
    },

    /** The sealed PDF of a completed request. */
    async sealedPdf(requestId: string): Promise<Uint8Array | undefined> {
      const [row] = await db.select({ pdf: signedDocuments.pdf }).from(signedDocuments).where(eq(signedDocuments.requestId, requestId));
      return row?.pdf;
    },

    /** The trail of a request its owner may read. */
    async events(ownerId: string, requestId: string): Promise<TAuditEvent[]> {
      const rows = await db
        .select({ event: signatureEvents })
        .from(signatureEvents)
        .innerJoin(signatureRequests, eq(signatureRequests.id, signatureEvents.requestId))
        .where(and(eq(signatureRequests.ownerId, ownerId), eq(signatureEvents.requestId, requestId)))
        .orderBy(asc(signatureEvents.seq));
      return rows.map(({ event: { id: _id, ...event } }) => event);
    },

    /** Retires the seal in use and puts `row` in its place, in one transaction, so there is never none or two. */
    async replaceSeal(row: typeof sealKeys.$inferInsert): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.update(sealKeys).set({ retiredAt: new Date() }).where(isNull(sealKeys.retiredAt));
        await tx.insert(sealKeys).values(row);
      });
    },
  };
}
export type TSigningRepository = ReturnType<typeof createSigningRepository>;
