/*
 * The pdf module's front door: rendering one document on the interactive threads, and the checks
 * before it. Formats (previews), documents, billing (invoices), bulk and the demo all render
 * through it, so it is a module of its own rather than part of any one of them.
 */
export { createPdfService, expansionChecker, sha256Hex, type TPdfService } from './pdf.service.ts';
