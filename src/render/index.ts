/*
 * Public API of the PDF renderer. Pure: (format, data, assets, meta) -> PDF bytes, with no I/O
 * beyond reading the bundled font files and the sRGB profile once per process.
 */
export { MAX_MERGED_DOCUMENTS, renderMergedPdf, renderPdf } from './render-pdf.ts';
export type { TRenderWarning } from './types.ts';
export type { TRenderableFormat } from '../contract/format-content.ts';
