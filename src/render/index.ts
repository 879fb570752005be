/*
 * Public API of the PDF renderer. Pure: (format, data, assets, meta) -> PDF bytes, with no I/O
 * beyond reading the bundled font files once per process.
 */
export { MAX_MERGED_DOCUMENTS, renderMergedPdf, renderPdf, warmUp } from './render-pdf.ts';
export type { TRenderInput, TRenderResult, TRenderWarning, TRenderWarningCode } from './types.ts';
export type { TRenderableFormat } from '../contract/format-content.ts';
