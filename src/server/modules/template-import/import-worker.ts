/**
 * A thread that converts one imported file into blocks. A hostile file (a PDF whose page content
 * inflates to hundreds of megabytes, a Word document with thousands of images) can only use this
 * thread's memory and time: the pool stops it at its limits, and the server never waits on it.
 */
import type { MessagePort } from 'node:worker_threads';
import type { TImportKind } from '../../../contract/template-import-files.ts';
import { AppError } from '../../http/app-error.ts';
import { lowerThisThreadsPriority } from '../../jobs/thread-priority.ts';
import { blocksToDraft, type TBlock } from './blocks.ts';
import { convertDocx, IMAGE_REF_PREFIX, type TDocxImage } from './convert-docx.ts';
import { convertPdf } from './convert-pdf.ts';
import { convertText } from './convert-txt.ts';
import { badFile, checkDocxParts, decodeText, inspectDocx } from './file-check.ts';

/** Images one import keeps as the owner's assets; a document with more keeps its first ones. */
export const MAX_IMPORTED_IMAGES = 50;

export type TImportTask = { kind: TImportKind; bytes: Uint8Array };
/** As the pool sends it: the port hears when the thread begins, so start-up is not on the clock. */
export type TImportThreadTask = TImportTask & { started: MessagePort };

export type TImportOutcome =
  | {
      ok: true;
      blocks: TBlock[];
      warnings: string[];
      /** The images the draft shows, by the index their blocks refer to; no others. */
      images: [index: number, image: TDocxImage][];
    }
  | { ok: false; code: AppError['code']; message: string; fields?: Record<string, string> };

/** Only the images the draft will show, at most MAX_IMPORTED_IMAGES of them. */
function imagesTheDraftShows(blocks: TBlock[], images: TDocxImage[], warnings: string[]): [number, TDocxImage][] {
  const shown: number[] = [];
  for (const element of blocksToDraft(blocks).elements) {
    if (element.type !== 'image' || !element.src.startsWith(IMAGE_REF_PREFIX)) continue;
    const ref = Number(element.src.slice(IMAGE_REF_PREFIX.length));
    if (!shown.includes(ref)) shown.push(ref);
  }
  if (shown.length > MAX_IMPORTED_IMAGES) {
    warnings.push(`The document shows ${shown.length} images; the first ${MAX_IMPORTED_IMAGES} were imported. Add the others in the builder if you need them.`);
  }
  return shown.slice(0, MAX_IMPORTED_IMAGES).flatMap((ref) => (images[ref] ? [[ref, images[ref]] as [number, TDocxImage]] : []));
}

async function convert(task: TImportTask): Promise<Extract<TImportOutcome, { ok: true }>> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  switch (task.kind) {
    case 'txt': {
      const { text, warning } = decodeText(bytes);
      if (!text.trim()) throw badFile('The text file has no text to import.');
      return { ok: true, blocks: convertText(text), warnings: warning ? [warning] : [], images: [] };
    }
    case 'pdf':
      return { ok: true, ...(await convertPdf(bytes)), images: [] };
    case 'docx': {
      checkDocxParts(await inspectDocx(bytes));
      const result = await convertDocx(bytes);
      const warnings = [...result.warnings];
      return { ok: true, blocks: result.blocks, warnings, images: imagesTheDraftShows(result.blocks, result.images, warnings) };
    }
  }
}

lowerThisThreadsPriority();

export default async function convertImport(task: TImportThreadTask): Promise<TImportOutcome> {
  task.started.postMessage(null);
  task.started.close();
  try {
    return await convert(task);
  } catch (error) {
    // An AppError loses its class crossing threads: it goes back as data.
    if (error instanceof AppError) return { ok: false, code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) };
    throw error;
  }
}
