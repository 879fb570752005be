import { and, asc, count, desc, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { TSignatureRequestStatus, TSignerStatus } from '../../../contract/signature-requests.ts';
import type { TDb } from '../../db/client.ts';
import { ownerNotSuspended } from '../../db/owner-standing.ts';
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

/**
 * A change to one request, made only if the request (and the signer, when named) are still in one
 * of the states it expects: two answers racing (a signature and a cancel, two clicks on Sign) leave
 * exactly one mark. The events are chained in the same transaction.
 */
export type TRequestChange = {
  request?: { from?: readonly TSignatureRequestStatus[]; set?: Partial<typeof signatureRequests.$inferInsert> };
  signer?: { id: string; from: readonly TSignerStatus[]; set: Partial<typeof signatureSigners.$inferInsert> };
  events: TNewEvent[];
};

/** A request's status, its row locked until the transaction ends: changes to one request happen one at a time. */
async function lockedStatus(tx: TTx, requestId: string): Promise<{ status: TSignatureRequestStatus } | undefined> {
  const [request] = await tx.select({ status: signatureRequests.status }).from(signatureRequests).where(eq(signatureRequests.id, requestId)).for('update');
  return request;
}

const withoutRowId = ({ id: _id, ...event }: typeof signatureEvents.$inferSelect): TAuditEvent => event;

/** A request's events, oldest first, with the head and count the request keeps for them. */
export type TTrail = { head: string; count: number; events: TAuditEvent[] };

/**
 * The first request matching `where`, with its trail, read by one statement: the head and count
 * are those of the events read with them, even while another event is being added (a delivery
 * recorded after completion), so a trail is never judged broken for being read between two writes.
 */
async function requestWithTrail(db: TDb, where: SQL): Promise<{ request: TSignatureRequestRow; trail: TTrail } | undefined> {
  const rows = await db
    .select({ request: signatureRequests, event: signatureEvents })
    .from(signatureRequests)
    .leftJoin(signatureEvents, eq(signatureEvents.requestId, signatureRequests.id))
    .where(inArray(signatureRequests.id, db.select({ id: signatureRequests.id }).from(signatureRequests).where(where).limit(1)))
    .orderBy(asc(signatureEvents.seq));
  const request = rows[0]?.request;
  if (!request) return undefined;
  const events = rows.flatMap(({ event }) => (event ? [withoutRowId(event)] : []));
  return { request, trail: { head: request.eventsHead, count: request.eventCount, events } };
}

/** A request's signers, in signing order. */
const signersOf = (db: TDb, requestId: string): Promise<TSignerRow[]> =>
  db.select().from(signatureSigners).where(eq(signatureSigners.requestId, requestId)).orderBy(asc(signatureSigners.order), asc(signatureSigners.role));

/** What changes a request: creating it, its events and states, its queue row, completing it. */
function requestWrites(db: TDb) {
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

    async appendEvent(requestId: string, event: TNewEvent): Promise<TAuditEvent> {
      return db.transaction((tx) => appendTo(tx, requestId, event));
    },

    /** Applies `change` if its states still hold; false (and nothing written) when they do not. */
    async change(requestId: string, change: TRequestChange): Promise<boolean> {
      return db.transaction(async (tx) => {
        const request = await lockedStatus(tx, requestId);
        if (!request || (change.request?.from && !change.request.from.includes(request.status))) return false;
        if (change.signer) {
          const updated = await tx
            .update(signatureSigners)
            .set(change.signer.set)
            .where(
              and(
                eq(signatureSigners.id, change.signer.id),
                eq(signatureSigners.requestId, requestId),
                inArray(signatureSigners.status, [...change.signer.from]),
              ),
            )
            .returning({ id: signatureSigners.id });
          if (updated.length === 0) return false;
        }
        if (change.request?.set) await tx.update(signatureRequests).set(change.request.set).where(eq(signatureRequests.id, requestId));
        for (const event of change.events) await appendTo(tx, requestId, event);
        return true;
      });
    },

    /** Leases requests whose next check is due (see `leaseDueRows`), each moved past the lease. */
    async takeDue(now: Date, leaseUntil: Date, limit: number): Promise<string[]> {
      const taken = await db.execute(sql`
        update ${signatureRequests} set next_check_at = ${leaseUntil.toISOString()}::timestamptz
        where id in (
          select id from ${signatureRequests}
          where next_check_at <= ${now.toISOString()}::timestamptz
          order by next_check_at
          limit ${limit}
          for update skip locked
        )
        returning id`);
      const { rows } = taken as unknown as { rows?: { id: string }[] };
      return (Array.isArray(rows) ? rows : (taken as unknown as { id: string }[])).map((row) => row.id);
    },

    async setNextCheck(id: string, at: Date | null): Promise<void> {
      await db.update(signatureRequests).set({ nextCheckAt: at }).where(eq(signatureRequests.id, id));
    },

    /** Keeps the sealed PDF and completes the request, once: false when it was no longer open. */
    async complete(requestId: string, pdf: Uint8Array, sealedSha256: string, events: TNewEvent[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const request = await lockedStatus(tx, requestId);
        if (!request || (request.status !== 'sent' && request.status !== 'partly_signed')) return false;
        await tx.insert(signedDocuments).values({ requestId, pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength) });
        const completedAt = new Date();
        await tx
          .update(signatureRequests)
          .set({ status: 'completed', sealedSha256, completedAt, nextCheckAt: null })
          .where(eq(signatureRequests.id, requestId));
        for (const event of events) await appendTo(tx, requestId, { ...event, at: completedAt });
        return true;
      });
    },
  };
}

/** Reading requests: by their owner, or (the server's own work, a link, /verify) by what finds them. */
function requestReads(db: TDb) {
  return {
    async getRequest(ownerId: string, id: string): Promise<{ request: TSignatureRequestRow; signers: TSignerRow[] } | undefined> {
      const [request] = await db
        .select()
        .from(signatureRequests)
        .where(and(eq(signatureRequests.ownerId, ownerId), eq(signatureRequests.id, id)));
      if (!request) return undefined;
      return { request, signers: await signersOf(db, id) };
    },

    /** A request and its signers by id alone: for the server's own work (reminders, sealing), never an answer to a caller. */
    async load(id: string): Promise<{ request: TSignatureRequestRow; signers: TSignerRow[] } | undefined> {
      const [request] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, id));
      if (!request) return undefined;
      return { request, signers: await signersOf(db, id) };
    },

    /** The signer a link's token belongs to, with their request; none while the request's owner is suspended. */
    async signerByTokenHash(tokenHash: string): Promise<{ signer: TSignerRow; request: TSignatureRequestRow } | undefined> {
      const [row] = await db
        .select({ signer: signatureSigners, request: signatureRequests })
        .from(signatureSigners)
        .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
        .where(and(eq(signatureSigners.tokenHash, tokenHash), ownerNotSuspended(signatureRequests.ownerId)));
      return row;
    },

    /** A document's requests, newest first, with their signers. */
    async ofDocument(ownerId: string, documentId: string): Promise<{ request: TSignatureRequestRow; signers: TSignerRow[] }[]> {
      const requests = await db
        .select()
        .from(signatureRequests)
        .where(and(eq(signatureRequests.ownerId, ownerId), eq(signatureRequests.documentId, documentId)))
        .orderBy(desc(signatureRequests.createdAt))
        .limit(50);
      if (requests.length === 0) return [];
      const signers = await db
        .select()
        .from(signatureSigners)
        .where(
          inArray(
            signatureSigners.requestId,
            requests.map((request) => request.id),
          ),
        )
        .orderBy(asc(signatureSigners.order), asc(signatureSigners.role));
      return requests.map((request) => ({ request, signers: signers.filter((signer) => signer.requestId === request.id) }));
    },

    /** The rows of a batch already sent for signature, and how many requests are in each status. */
    async ofBatch(ownerId: string, batchId: string): Promise<{ rows: Set<number>; byStatus: Partial<Record<TSignatureRequestStatus, number>> }> {
      const found = await db
        .select({ row: signatureRequests.batchRow, status: signatureRequests.status })
        .from(signatureRequests)
        .where(and(eq(signatureRequests.ownerId, ownerId), eq(signatureRequests.batchId, batchId)));
      const byStatus: Partial<Record<TSignatureRequestStatus, number>> = {};
      for (const { status } of found) byStatus[status] = (byStatus[status] ?? 0) + 1;
      return { rows: new Set(found.map((request) => request.row!)), byStatus };
    },

    /** Whether the document has a request still waiting for signatures. */
    async openRequestFor(ownerId: string, documentId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: signatureRequests.id })
        .from(signatureRequests)
        .where(
          and(
            eq(signatureRequests.ownerId, ownerId),
            eq(signatureRequests.documentId, documentId),
            inArray(signatureRequests.status, ['sent', 'partly_signed']),
          ),
        )
        .limit(1);
      return row !== undefined;
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
    async findSealed(sealedSha256: string): Promise<{ request: TSignatureRequestRow; signers: TSignerRow[]; trail: TTrail } | undefined> {
      const found = await requestWithTrail(db, eq(signatureRequests.sealedSha256, sealedSha256));
      return found && { ...found, signers: await signersOf(db, found.request.id) };
    },

    /** The sealed PDF of a completed request. */
    async sealedPdf(requestId: string): Promise<Uint8Array | undefined> {
      const [row] = await db.select({ pdf: signedDocuments.pdf }).from(signedDocuments).where(eq(signedDocuments.requestId, requestId));
      return row?.pdf;
    },

    /** The trail of a request its owner may read, with the head and count it must end at. */
    async trail(ownerId: string, requestId: string): Promise<TTrail | undefined> {
      return (await requestWithTrail(db, and(eq(signatureRequests.ownerId, ownerId), eq(signatureRequests.id, requestId))!))?.trail;
    },
  };
}

/** The installation's seal certificates. */
function sealRows(db: TDb) {
  return {
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

    /** Retires the seal in use and puts `row` in its place, in one transaction, so there is never none or two. */
    async replaceSeal(row: typeof sealKeys.$inferInsert): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.update(sealKeys).set({ retiredAt: new Date() }).where(isNull(sealKeys.retiredAt));
        await tx.insert(sealKeys).values(row);
      });
    },
  };
}

/** Requests are read by their owner; a signer's link finds its signer by the token's hash alone. */
export function createSigningRepository(db: TDb) {
  return { ...requestWrites(db), ...requestReads(db), ...sealRows(db) };
}
export type TSigningRepository = ReturnType<typeof createSigningRepository>;
