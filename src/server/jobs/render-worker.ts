/**
 * A render-pool thread (piscina). Renders a batch of documents of one format, so the format and
 * its images cross the thread boundary once per batch, and answers with each PDF's SHA-256 and,
 * when asked, the bytes.
 */
import { createHash } from 'node:crypto';
import type { TRenderableFormat } from '../../contract/format-content.ts';
import { renderPdf } from '../../render/index.ts';

export type TRenderBatchTask = {
  format: TRenderableFormat;
  assets: Record<string, Uint8Array>;
  items: { data: Record<string, string>; title: string; creationDate: number }[];
  returnBytes: boolean;
};

export type TRenderBatchResult = { sha256: string[]; bytes: Uint8Array[] | null };

export default function renderBatch(task: TRenderBatchTask): TRenderBatchResult {
  const sha256: string[] = [];
  const bytes: Uint8Array[] = [];
  for (const item of task.items) {
    const { pdf } = renderPdf({
      format: task.format,
      data: item.data,
      assets: task.assets,
      meta: { title: item.title, creationDate: new Date(item.creationDate), locale: task.format.content.locale },
    });
    sha256.push(createHash('sha256').update(pdf).digest('hex'));
    if (task.returnBytes) bytes.push(pdf);
  }
  return { sha256, bytes: task.returnBytes ? bytes : null };
}
