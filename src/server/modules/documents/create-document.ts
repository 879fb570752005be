import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  DEFAULT_CLIENT_NAME,
  requiredFieldsMessage,
  type TDocument,
  clientNameOf,
  documentNameFor,
  type ZCreateDocumentBody,
} from '../../../contract/documents.ts';
import { documentAccessibility } from '../../../contract/accessibility-check.ts';
import { AppError } from '../../http/app-error.ts';
import { FormatChangedError, QuotaExceededError } from './documents.repository.ts';
import { TEST_DOCUMENT_LIFETIME_MS, toDocument, type TDocumentsContext } from './documents-context.ts';

type TFound = NonNullable<Awaited<ReturnType<TDocumentsContext['deps']['formats']['currentSnapshot']>>>;
type TDataCheck = Awaited<ReturnType<TDocumentsContext['deps']['pdf']['checkData']>>;
/** A document checked and named, ready to render: what `prepare` answers. */
type TPrepared = Pick<TFound, 'format' | 'snapshot'> & { values: TDataCheck['values']; createdAt: Date; name: string; clientName: string };
type TProduceOptions = { testMode: boolean; createdBy: string | null };

/**
 * How many times a document is made, when each time its format turns out to have been saved (or
 * deleted) meanwhile: once more after another process's save is usual; more means the format is
 * being saved faster than documents can be made from it.
 */
const ATTEMPTS_WHILE_FORMAT_CHANGES = 3;

async function prepare(
  ctx: TDocumentsContext,
  ownerId: string,
  body: z.output<typeof ZCreateDocumentBody>,
  testMode: boolean,
  rechecking = false,
): Promise<TPrepared> {
  const { deps } = ctx;
  const found = await deps.formats.currentSnapshot(ownerId, body.formatId);
  if (!found) throw new AppError('not_found', 'Format not found.');
  const { format, snapshot, remembered } = found;
  // The cheap refusals come before any checking: a user with no quota left, or who keeps
  // sending data that fails, cannot make the server work.
  if (!testMode) await deps.quota.assertRoomForOne(ownerId);
  await deps.limits.assertMayCheck(ownerId);
  const check = await deps.pdf.checkData(ownerId, snapshot.placeholders, body.data, snapshot.content);
  const fits = check.missing.length === 0 && Object.keys(check.fields).length === 0;
  if (!fits && remembered && !rechecking) {
    // Refused by the version this process remembers: another process may have saved one the data
    // fits. Checked again only when the version read now is another one.
    deps.formats.forgetCurrent(ownerId, format.id);
    const now = await deps.formats.currentSnapshot(ownerId, body.formatId);
    if (now?.format.version !== format.version) return prepare(ctx, ownerId, body, testMode, true);
  }
  if (!fits) await deps.limits.recordFailedCheck(ownerId);
  if (check.missing.length > 0) {
    throw new AppError('validation_failed', requiredFieldsMessage(check.missing), check.fields);
  }
  if (Object.keys(check.fields).length > 0) {
    const [[key, first] = ['', '']] = Object.entries(check.fields);
    // A list's cell is named by its path (items[3].qty), so an API client knows which row to fix.
    const where = key.includes('[') ? `${key}: ` : '';
    throw new AppError('validation_failed', `Please correct the highlighted fields. ${where}${first}`, check.fields);
  }
  const createdAt = new Date();
  const name =
    body.name ||
    documentNameFor(
      { name: format.name, documentNamePattern: snapshot.content.documentNamePattern, placeholders: snapshot.placeholders },
      check.values,
      createdAt.toISOString().slice(0, 10),
    );
  const clientName = body.clientName || clientNameOf(check.values) || DEFAULT_CLIENT_NAME;
  return { format, snapshot, values: check.values, createdAt, name, clientName };
}

async function produce(
  { deps }: TDocumentsContext,
  ownerId: string,
  prepared: TPrepared,
  id: string,
  { testMode, createdBy }: TProduceOptions,
): Promise<TDocument> {
  const { format, snapshot, values, createdAt, name, clientName } = prepared;
  // Kept in the cache under the new document's id; a document that is then refused leaves no entry.
  const { sha256, warnings } = await deps.pdf.renderToCache(
    {
      ownerId,
      format: { content: snapshot.content, placeholders: snapshot.placeholders },
      // A snapshot never changes, so its id names this content for the render threads' caches.
      formatKey: snapshot.id,
      data: values,
      title: name,
      creationDate: createdAt,
      testMode,
    },
    deps.cache,
    id,
  );
  try {
    const row = await deps.documents.createCounted(ownerId, await deps.quota.generationLimits(), {
      id,
      formatId: format.id,
      formatName: format.name,
      formatVersion: format.version,
      snapshotId: snapshot.id,
      name,
      clientName,
      data: values,
      status: 'generated',
      pdfSha256: sha256,
      renderWarnings: warnings,
      testMode,
      expiresAt: testMode ? new Date(createdAt.getTime() + TEST_DOCUMENT_LIFETIME_MS) : null,
      createdAt,
      createdBy,
    });
    if (!testMode) deps.quota.countedOne(ownerId);
    const document = { ...toDocument(row), accessibility: documentAccessibility(snapshot.content, warnings) };
    await deps.events?.documentCreated(ownerId, document);
    return document;
  } catch (error) {
    await deps.cache.delete(id);
    if (error instanceof QuotaExceededError) {
      deps.quota.forgetRoom(ownerId);
      throw deps.quota.generationsExceeded((await deps.quota.generations(ownerId)).limit, 0);
    }
    throw error;
  }
}

/**
 * Produces the document from the format's current version. The version this process remembered
 * may have been saved over by another process; then nothing was stored, and the document is
 * checked and made again from the version now current (or refused, if its data no longer fits it).
 */
async function produceFromCurrent(
  ctx: TDocumentsContext,
  ownerId: string,
  body: z.output<typeof ZCreateDocumentBody>,
  prepared: TPrepared,
  id: string,
  options: TProduceOptions,
): Promise<TDocument> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await produce(ctx, ownerId, prepared, id, options);
    } catch (error) {
      if (!(error instanceof FormatChangedError)) throw error;
      ctx.deps.formats.forgetCurrent(ownerId, prepared.format.id);
      if (attempt >= ATTEMPTS_WHILE_FORMAT_CHANGES) {
        throw new AppError('conflict', 'The format kept changing while the document was being made. Please try again.');
      }
      prepared = await prepare(ctx, ownerId, body, options.testMode);
    }
  }
}

/**
 * Admits a request to make a document before its body is read: refused when the user keeps
 * sending data that fails, or has too many in progress. Call the answer when it is done.
 */
export async function admit({ deps }: TDocumentsContext, ownerId: string, bodyBytes: number | undefined): Promise<() => void> {
  await deps.limits.assertMayCheck(ownerId);
  return deps.limits.enter('document', ownerId, bodyBytes);
}

/**
 * Checks, renders and stores one document. `id` lets an asynchronous request name the document
 * before it exists; a test key's document (`testMode`) is watermarked, free, and kept 7 days.
 */
export async function createDocument(
  ctx: TDocumentsContext,
  ownerId: string,
  body: z.output<typeof ZCreateDocumentBody>,
  options: { id?: string; testMode?: boolean; createdBy?: string | null } = {},
): Promise<TDocument> {
  const testMode = options.testMode ?? false;
  const prepared = await prepare(ctx, ownerId, body, testMode);
  return produceFromCurrent(ctx, ownerId, body, prepared, options.id ?? randomUUID(), { testMode, createdBy: options.createdBy ?? null });
}

/**
 * Checks now and renders in the background: the id is known at once, and `settled` hears how
 * the document ended. Bad data and an exhausted quota are still refused here, before any work.
 */
export async function createDocumentLater(
  ctx: TDocumentsContext,
  ownerId: string,
  body: z.output<typeof ZCreateDocumentBody>,
  options: { testMode?: boolean; createdBy?: string | null },
  settled: (outcome: { document: TDocument } | { error: unknown }) => Promise<void>,
): Promise<{ id: string }> {
  const testMode = options.testMode ?? false;
  const prepared = await prepare(ctx, ownerId, body, testMode);
  const id = randomUUID();
  setImmediate(() => {
    produceFromCurrent(ctx, ownerId, body, prepared, id, { testMode, createdBy: options.createdBy ?? null })
      .then(
        (document) => settled({ document }),
        (error: unknown) => settled({ error }),
      )
      .catch((error: unknown) => ctx.deps.log.error({ err: error, documentId: id }, 'could not record how a background document ended'));
  });
  return { id };
}
