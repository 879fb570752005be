import type { TDelivery, TDeliveryWithDocument } from '../../../contract/delivery.ts';
import { notFound } from '../../http/app-error.ts';
import type { TDocumentScope } from '../documents/index.ts';
import type { TDeliveryBase } from './delivery-context.ts';
import { toDelivery } from './delivery-terms.ts';

/** A document's emails, newest first. */
export async function deliveriesOfDocument({ deps, r }: TDeliveryBase, ownerId: string, documentId: string): Promise<TDelivery[]> {
  if (!(await deps.documents.get(ownerId, documentId))) throw notFound('Document');
  return (await r.ofDocument(ownerId, documentId, 100)).map(toDelivery);
}

/** One delivery of the owner's (with a scope, only one of a document made in that mode). */
export async function getDelivery({ r }: TDeliveryBase, ownerId: string, id: string, scope?: TDocumentScope): Promise<TDelivery> {
  const row = await r.get(ownerId, id, scope);
  if (!row) throw notFound('Delivery');
  return toDelivery(row);
}

/** The owner's newest single emails, with their documents' names. */
export async function recentDeliveries({ r }: TDeliveryBase, ownerId: string, limit: number): Promise<TDeliveryWithDocument[]> {
  return (await r.recent(ownerId, limit)).map((row) => ({ ...toDelivery(row), documentName: row.documentName }));
}
