import { PDF } from '@libpdf/core';

/**
 * One PDF: every page of `document`, then every page of `extra` (the certificate of completion).
 * Written as an incremental update, so the document's own bytes stay first and untouched; its
 * pages are not rewritten, only the page tree gains the copied pages.
 */
export async function appendPdf(document: Uint8Array, extra: Uint8Array): Promise<Uint8Array> {
  const [target, source] = await Promise.all([PDF.load(document), PDF.load(extra)]);
  await target.copyPagesFrom(source, [...Array(source.getPageCount()).keys()]);
  return target.save({ incremental: true });
}
