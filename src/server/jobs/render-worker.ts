/**
 * A render-pool thread (piscina). Renders a batch of documents of one format, so the format and
 * its images cross the thread boundary once per batch (or once per thread, when shared: see
 * shared-render-inputs.ts), and answers with each PDF's SHA-256 and, when asked, the bytes.
 */
import { createHash } from 'node:crypto';
import { checkDocumentData, type TDataCheck } from '../../contract/documents.ts';
import type { TFilledValues } from '../../contract/filled-values.ts';
import { previewInput } from '../../contract/preview-input.ts';
import { ZFormatContent, type TRenderableFormat } from '../../contract/format-content.ts';
import type { TSigningInput } from '../../contract/signing.ts';
import { renderMergedPdf, renderPdf, type TRenderWarning } from '../../render/index.ts';
import { isCostlyToMakeAgain, writeCacheFileSync } from './pdf-cache.ts';
import { openSpoolPack, type TSpoolPackWriter } from './pdf-spool.ts';
import { withMovedBytes } from './moved-bytes.ts';
import { createThreadInputs, type TSharedFormat } from './shared-render-inputs.ts';
import { lowerThisThreadsPriority } from './thread-priority.ts';

lowerThisThreadsPriority();

// A thread's first render parses the fonts and compiles the renderer, many times the cost of a
// small document. It is done as the thread starts, before it takes a task, so that no document's
// time budget pays for it: above all the first one after a thread was stopped for overrunning.
try {
  renderPdf({
    format: { content: ZFormatContent.parse({ elements: [{ id: 'warm-up', type: 'paragraph', content: 'Formwork' }] }), placeholders: [] },
    data: {},
    assets: {},
    meta: { title: 'Warm-up', creationDate: new Date(0) },
  });
} catch {
  // A renderer that cannot start fails each task with its own error, not the thread's loading.
}

const succeeds = (run: () => void): boolean => {
  try {
    run();
    return true;
  } catch {
    return false;
  }
};

export type TRenderBatchTask = {
  format: TRenderableFormat | TSharedFormat;
  assets: Record<string, Uint8Array>;
  /** Numbers for the images that are views of shared memory (`assetKeysOf`), so a thread reuses the view it has. */
  assetKeys?: Record<string, number>;
  items: { data: TFilledValues; title: string; creationDate: number; watermark?: string; signing?: TSigningInput }[];
  returnBytes: boolean;
  /** Spool the PDFs as one pack at this path, indexed by these document ids (see pdf-spool.ts). */
  spool?: { packPath: string; documentIds: string[] };
  /** Render the items as one merged PDF with this title and date instead of one PDF each. */
  merged?: { title: string; creationDate: number };
  /** Keep each item's PDF at this file of the PDF cache when it was costly to make again (an empty name: not kept). */
  cacheFiles?: string[];
  /** How long a render must take to be costly to make again; pdf-cache.ts COSTLY_RENDER_MS unless given. */
  costlyRenderMs?: number;
  /**
   * The thread writes the time it starts each item here (ms since the epoch, item i at index i,
   * the whole task at 0 when merged), so a time budget counts each document's rendering, not
   * waiting for a thread nor the documents before it; and, when the array has a slot more than the
   * items, the time it finished them there, so a task done but not yet answered (the caller's
   * event loop busy) is not taken for one running late. Shared memory costs nothing to pass,
   * unlike a port.
   */
  startedAt?: BigInt64Array;
  /**
   * Start no item after the task has run this long (ms): the result then holds the first items
   * only, and the caller sends the rest again. Not with `spool` or `merged`, which need every item.
   */
  shareMs?: number;
};

export type TRenderBatchResult = {
  /** One per item rendered: fewer than the items when `shareMs` ran out. */
  sha256: string[];
  bytes: Uint8Array[] | null;
  /** What each document could not draw as asked, in item order. */
  warnings: TRenderWarning[][];
};

// Formats and images this thread has seen, kept between tasks by the keys the event loop gave them.
const sharedInputs = createThreadInputs();

export default function renderBatch(task: TRenderBatchTask): TRenderBatchResult {
  const taskStarted = Date.now();
  if (task.startedAt) Atomics.store(task.startedAt, 0, BigInt(taskStarted));
  const format = sharedInputs.formatOf(task.format);
  const assets = sharedInputs.assetsOf(task.assets, task.assetKeys);
  const documents = task.items.map((item) => ({
    format,
    data: item.data,
    assets,
    ...(item.signing ? { signing: item.signing } : {}),
    meta: {
      title: item.title,
      creationDate: new Date(item.creationDate),
      locale: format.content.locale,
      ...(item.watermark ? { watermark: item.watermark } : {}),
    },
  }));
  if (task.merged) {
    const { pdf, warnings } = renderMergedPdf(documents, {
      title: task.merged.title,
      creationDate: new Date(task.merged.creationDate),
      locale: format.content.locale,
    });
    return { sha256: [createHash('sha256').update(pdf).digest('hex')], bytes: [pdf], warnings: [warnings] };
  }
  const sha256: string[] = [];
  const bytes: Uint8Array[] = [];
  const warnings: TRenderWarning[][] = [];
  // The spool is a cache: when it cannot be written, PDFs missing from it are rendered again for the ZIP.
  let pack: TSpoolPackWriter | undefined;
  if (task.spool && !succeeds(() => (pack = openSpoolPack(task.spool!.packPath)))) pack = undefined;
  try {
    for (const [i, input] of documents.entries()) {
      if (i > 0) {
        const now = Date.now();
        if (task.shareMs !== undefined && !task.spool && now - taskStarted >= task.shareMs) break;
        if (task.startedAt && i < task.startedAt.length) Atomics.store(task.startedAt, i, BigInt(now));
      }
      const started = performance.now();
      const rendered = renderPdf(input);
      const renderMs = performance.now() - started;
      const pdf = rendered.pdf;
      warnings.push(rendered.warnings);
      sha256.push(createHash('sha256').update(pdf).digest('hex'));
      if (task.returnBytes) bytes.push(pdf);
      const cacheFile = task.cacheFiles?.[i];
      if (cacheFile && isCostlyToMakeAgain(renderMs, pdf, task.costlyRenderMs)) writeCacheFileSync(cacheFile, pdf);
      if (pack && !succeeds(() => pack!.add(task.spool!.documentIds[i]!, pdf))) {
        pack.abandon();
        pack = undefined;
      }
    }
  } catch (error) {
    // A document that cannot be rendered fails the batch (the caller retries row by row): the
    // half-written pack is dropped and its file closed.
    pack?.abandon();
    throw error;
  }
  if (pack && !succeeds(() => pack!.finish())) pack.abandon();
  if (task.startedAt && task.items.length < task.startedAt.length) Atomics.store(task.startedAt, task.items.length, BigInt(Date.now()));
  return { sha256, bytes: task.returnBytes ? bytes : null, warnings };
}

/** What the pool runs: renderBatch, with the PDFs moved to the caller's thread, not copied. */
export function renderOnPool(task: TRenderBatchTask): TRenderBatchResult {
  return withMovedBytes(renderBatch(task));
}

/**
 * Checking a large document's data and computing its formulas takes tens of milliseconds, so it
 * runs here rather than on the event loop. Pure contract code on both sides: the answer is what
 * the same call would return in the server's thread.
 */
export type TDataTask = { kind: 'check'; args: Parameters<typeof checkDocumentData> } | { kind: 'preview'; args: Parameters<typeof previewInput> };
export type TDataResult<T extends TDataTask['kind']> = T extends 'check' ? TDataCheck : ReturnType<typeof previewInput>;

export function prepareData(task: TDataTask): TDataCheck | ReturnType<typeof previewInput> {
  return task.kind === 'check' ? checkDocumentData(...task.args) : previewInput(...task.args);
}
