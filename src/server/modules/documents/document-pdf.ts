import type { TDocument } from '../../../contract/documents.ts';
import { isSigningPlaceholder, placeholderLabel, type TSigningPlaceholderType } from '../../../contract/placeholders.ts';
import type { TSigningInput } from '../../../contract/signing.ts';
import type { TSnapshotRow } from '../formats/index.ts';
import type { TDocumentRow, TDocumentScope } from './documents.repository.ts';
import { documentNotFound, toDocument, type TDocumentsContext } from './documents-context.ts';
import { sha256Hex } from '../pdf/index.ts';

/** The document printed again from its snapshot and data; with `signing`, its signers' marks in their fields. */
async function printAgain(
  { deps }: TDocumentsContext,
  ownerId: string,
  { document, snapshot }: { document: TDocumentRow; snapshot: TSnapshotRow },
  signing?: TSigningInput,
): Promise<Uint8Array> {
  const { pdf } = await deps.pdf.render({
    ownerId,
    format: { content: snapshot.content, placeholders: snapshot.placeholders },
    // A snapshot never changes, so its id names this content for the render threads' caches.
    formatKey: snapshot.id,
    data: document.data,
    title: document.name,
    creationDate: document.createdAt,
    testMode: document.testMode,
    ...(signing ? { signing } : {}),
  });
  return pdf;
}

async function renderStored(ctx: TDocumentsContext, ownerId: string, document: TDocumentRow, snapshot: TSnapshotRow): Promise<Uint8Array> {
  const { deps } = ctx;
  const pdf = await printAgain(ctx, ownerId, { document, snapshot });
  const sha = sha256Hex(pdf);
  if (sha !== document.pdfSha256) {
    // A renderer change altered old output; the bytes are still the document's content.
    deps.log.error({ documentId: document.id, stored: document.pdfSha256, rendered: sha }, 'document PDF hash mismatch');
  } else {
    await deps.cache.put(document.id, pdf, sha);
  }
  return pdf;
}

/** The document's bytes: from the cache when it has them, else rendered again from the snapshot. */
export async function documentPdf(
  ctx: TDocumentsContext,
  ownerId: string,
  id: string,
  scope?: TDocumentScope,
): Promise<{ document: TDocument; bytes: Uint8Array }> {
  const { deps, rendering } = ctx;
  const found = await deps.documents.getWithSnapshot(ownerId, id, scope);
  if (!found) throw documentNotFound();
  const { document, snapshot } = found;
  const cached = await deps.cache.get(document.id, document.pdfSha256);
  if (cached) return { document: toDocument(document), bytes: cached };
  let pending = rendering.get(document.id);
  if (!pending) {
    pending = renderStored(ctx, ownerId, document, snapshot).finally(() => rendering.delete(document.id));
    rendering.set(document.id, pending);
  }
  return { document: toDocument(document), bytes: await pending };
}

/**
 * The document printed again from its snapshot and data with the signers' marks in its signing
 * fields: the same pages as the one sent, but for the filled boxes.
 */
export async function signedDocumentPdf(ctx: TDocumentsContext, ownerId: string, id: string, signing: TSigningInput): Promise<Uint8Array> {
  const found = await ctx.deps.documents.getWithSnapshot(ownerId, id);
  if (!found) throw documentNotFound();
  return printAgain(ctx, ownerId, found, signing);
}

/** The places the document's signers fill: its signing placeholders, with their roles. */
export async function signingFields(
  { deps }: TDocumentsContext,
  ownerId: string,
  id: string,
): Promise<{ name: string; label: string; type: TSigningPlaceholderType; signer: number }[]> {
  const found = await deps.documents.getWithSnapshot(ownerId, id);
  if (!found) throw documentNotFound();
  return found.snapshot.placeholders.filter(isSigningPlaceholder).map((p) => ({ name: p.name, label: placeholderLabel(p), type: p.type, signer: p.signer }));
}
