import { createHash } from 'node:crypto';
import { checkDocumentData, type TDataCheck } from '../../../contract/documents.ts';
import { expansionMeter, expansionProblem, measureExpansion, type TExpansion } from '../../../contract/expansion.ts';
import type { TFilledValues } from '../../../contract/filled-values.ts';
import type { TRenderableFormat } from '../../../contract/format-content.ts';
import type { TPlaceholder } from '../../../contract/placeholders.ts';
import type { TSigningInput } from '../../../contract/signing.ts';
import { previewInput } from '../../../contract/preview-input.ts';
import type { TRenderWarning } from '../../../render/index.ts';
import { AppError } from '../../http/app-error.ts';
import { createBoundedLru } from '../../jobs/bounded-lru.ts';
import type { TPdfCache } from '../../jobs/pdf-cache.ts';
import type { TRenderPool } from '../../jobs/render-pool.ts';
import { createRenderTurns, RenderOverBudgetError, RenderWaitedTooLongError, TooManyWaitingError } from '../../jobs/render-turns.ts';
import { assetKeysOf, createFormatShare } from '../../jobs/shared-render-inputs.ts';
import type { TAssetsService } from '../assets/index.ts';

export type TPdfRequest = {
  ownerId: string;
  format: TRenderableFormat;
  /**
   * An identity of `format` that never names other content, such as its snapshot's id (snapshots
   * never change), so the format is known again without being serialized and hashed (see
   * shared-render-inputs.ts). A key that stayed the same while the content changed would print
   * the old content.
   */
  formatKey?: string;
  data: TFilledValues;
  title: string;
  creationDate: Date;
  /** A test key's document: printed with a TEST watermark. */
  testMode?: boolean;
  /** The signatures a signed copy prints in its signing fields. */
  signing?: TSigningInput;
};

export const TEST_WATERMARK = 'TEST';

export type TRenderedPdf = { sha256: string; warnings: TRenderWarning[] };
export type TRenderOptions = {
  /** Have the render thread keep the PDF at this file of the cache when it was costly to make again. */
  cacheFile?: string;
};

/** How long one document may take to render before its thread is stopped. */
export const RENDER_BUDGET_MS = 5_000;
/** Renders one user may have waiting for a thread; an integrator's burst fits, a flood does not. */
const MAX_WAITING_PER_USER = 500;
/** How long a render sent to a thread may wait for it to start (one replacing a stopped thread) before it is given up. */
const MAX_WAIT_FOR_THREAD_MS = 30_000;

/**
 * Data with more cells than this is checked on a render thread: checking costs about 2 µs a cell
 * (formulas included), so up to here it holds the event loop for a few milliseconds at most,
 * less than sending it to a thread and back would.
 */
export const INLINE_CHECK_CELLS = 2_000;

/** How many values a document's data holds, counting each cell of each list row. */
export function cellsIn(placeholders: readonly TPlaceholder[], data: Readonly<Record<string, unknown>>): number {
  let cells = 0;
  for (const placeholder of placeholders) {
    const value = data[placeholder.name];
    cells += placeholder.type === 'list' && Array.isArray(value) ? value.length * Math.max(1, placeholder.columns?.length ?? 1) : 1;
  }
  return cells;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Why a document of `format` filled with a row's data would be too large, for many rows of one format. */
export function expansionChecker(format: Pick<TRenderableFormat, 'content'>): (data: TFilledValues) => string | undefined {
  const meter = expansionMeter(format.content);
  return (data) => expansionProblem(meter(data));
}

/** The refusal for a document whose data makes it hold more text than a document may, if it does. */
function refuseExpansion(expansion: TExpansion): void {
  const problem = expansionProblem(expansion);
  if (problem) {
    throw new AppError('document_too_large', problem, expansion.largest ? { [expansion.largest.name]: problem } : undefined);
  }
}

const tooManyAtOnce = () => new AppError('rate_limited', 'Too many documents are being rendered for you at once. Wait for them to finish, then try again.');

/**
 * The one place the server turns a format and data into PDF bytes for a single document. The
 * render runs on a render thread, never on the event loop, within a time budget, and users take
 * the threads in turn, so one user's flood cannot keep another user waiting.
 */
export function createPdfService(deps: {
  assets: TAssetsService;
  pool: () => Promise<TRenderPool>;
  /** The pool's threads: tasks handed to it at once, taken by users in turn (render-turns.ts). */
  threads: number;
  budgetMs?: number;
  /** How long a group of documents may render for together (render-turns.ts GROUP_MS unless given). */
  groupMs?: number;
}) {
  const budgetMs = deps.budgetMs ?? RENDER_BUDGET_MS;
  const turns = createRenderTurns({
    pool: deps.pool,
    threads: deps.threads,
    budgetMs,
    maxWaitMs: MAX_WAIT_FOR_THREAD_MS,
    maxWaitingPerOwner: MAX_WAITING_PER_USER,
    ...(deps.groupMs !== undefined ? { groupMs: deps.groupMs } : {}),
  });
  const shareFormat = createFormatShare();
  // Reading a format's text for its placeholders cost the event loop more per document than
  // posting the format did, so it is kept by the key the format is shared under.
  const meters = createBoundedLru<string, (data: TFilledValues) => TExpansion>({ maxEntries: 256, maxSize: 256 });
  const expansionOf = (request: TPdfRequest, key: string | undefined): TExpansion => {
    if (!key) return measureExpansion(request.format.content, request.data);
    let meter = meters.get(key);
    if (!meter) {
      meter = expansionMeter(request.format.content);
      meters.set(key, meter, 1);
    }
    return meter(request.data);
  };
  return {
    /** The PDF's bytes, with its hash and warnings. */
    async render(request: TPdfRequest, options: TRenderOptions = {}): Promise<TRenderedPdf & { pdf: Uint8Array }> {
      return renderOnThread(request, options);
    },

    /**
     * The PDF of a document being made, kept in the cache under its id: in this process's memory,
     * and on disk by the render thread when it was costly to make again. Answers its hash and warnings.
     */
    async renderToCache(request: TPdfRequest, cache: Pick<TPdfCache, 'fileOf' | 'remember'>, documentId: string): Promise<TRenderedPdf> {
      const { pdf, sha256, warnings } = await renderOnThread(request, { cacheFile: cache.fileOf(documentId) });
      cache.remember(documentId, pdf, sha256);
      return { sha256, warnings };
    },

    /** `checkDocumentData`, on a render thread (in the owner's turn) when the data is large. */
    async checkData(ownerId: string, ...args: Parameters<typeof checkDocumentData>): Promise<TDataCheck> {
      if (cellsIn(args[0], args[1]) <= INLINE_CHECK_CELLS) return checkDocumentData(...args);
      return onThread(ownerId, (pool) => pool.prepareData({ kind: 'check', args }));
    },

    /** `previewInput` (what a preview prints), on a render thread when the values given are many. */
    async previewData(ownerId: string, ...args: Parameters<typeof previewInput>): Promise<ReturnType<typeof previewInput>> {
      if (cellsIn(args[0].placeholders, args[1]) <= INLINE_CHECK_CELLS) return previewInput(...args);
      return onThread(ownerId, (pool) => pool.prepareData({ kind: 'preview', args }));
    },
  };

  async function onThread<T>(ownerId: string, work: (pool: TRenderPool) => Promise<T>): Promise<T> {
    try {
      return await turns.onThread(ownerId, work);
    } catch (error) {
      throw error instanceof TooManyWaitingError ? tooManyAtOnce() : error;
    }
  }

  async function renderOnThread(request: TPdfRequest, options: TRenderOptions): Promise<TRenderedPdf & { pdf: Uint8Array }> {
    const shared = shareFormat(request.format, request.ownerId, request.formatKey);
    refuseExpansion(expansionOf(request, shared.key));
    const assets = await deps.assets.forRender(request.ownerId, request.format.content);
    const assetKeys = assetKeysOf(assets);
    try {
      return await turns.render(request.ownerId, {
        // Documents share a task only when one task's inputs are theirs: the same format kept on
        // the threads (its key names the owner and the content) and only images held in shared
        // memory, known by their numbers.
        group:
          shared.key !== undefined && Object.keys(assets).length === Object.keys(assetKeys ?? {}).length
            ? `${shared.key}\n${JSON.stringify(assetKeys ?? {})}`
            : undefined,
        format: shared.sent,
        assets,
        ...(assetKeys ? { assetKeys } : {}),
        item: {
          data: request.data,
          title: request.title,
          creationDate: request.creationDate.getTime(),
          ...(request.testMode ? { watermark: TEST_WATERMARK } : {}),
          ...(request.signing ? { signing: request.signing } : {}),
        },
        ...(options.cacheFile ? { cacheFile: options.cacheFile } : {}),
      });
    } catch (error) {
      if (error instanceof TooManyWaitingError) throw tooManyAtOnce();
      if (error instanceof RenderOverBudgetError) {
        throw new AppError(
          'render_timeout',
          `This document took longer than ${budgetMs / 1000} seconds to render and was stopped. Shorten long values, or split the format into smaller documents.`,
        );
      }
      if (error instanceof RenderWaitedTooLongError) {
        throw new AppError('unavailable', 'The server is too busy to render this document now. Please try again in a minute.');
      }
      throw error;
    }
  }
}
export type TPdfService = ReturnType<typeof createPdfService>;
