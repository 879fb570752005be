import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { ZImportDraft, type TTemplateImportResponse } from '../../../contract/template-import.ts';
import { importKindOfFileName, MAX_IMPORT_MB, type TImportKind } from '../../../contract/template-import-files.ts';
import { AppError } from '../../http/app-error.ts';
import type { TAssetsService } from '../assets/index.ts';
import { blocksToDraft, type TBlock } from './blocks.ts';
import { IMAGE_REF_PREFIX, type TDocxImage } from './convert-docx.ts';
import { badFile, checkFileKind } from './file-check.ts';
import type { TImportPool } from './import-pool.ts';

/** Widest an imported image starts out: about the text width of an A4 page with 20 mm margins. */
export const MAX_IMPORTED_IMAGE_WIDTH_PX = 600;
const MAX_IMPORTED_IMAGE_HEIGHT_PX = 900;
/** Conversions run on their own threads, a few at a time, so an import's time limit counts its own work. */
const MAX_CONCURRENT_IMPORTS = 2;

const unsupportedType = () =>
  new AppError('unsupported_media_type', 'Only .docx, .pdf and .txt files can be imported.', {
    file: 'Choose a .docx, .pdf or .txt file.',
  });

/** `offer_letter-v2.docx` -> `Offer letter-v2`; a name the builder can show. */
export function draftNameFromFileName(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const name = base
    .replace(/_/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
    .trim();
  if (!name) return 'Imported Template';
  // "offer letter" reads as a file name; "Offer letter" as a title. Mixed case is left as written.
  return name === name.toLowerCase() ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

/** The size an image is shown at: its own size at its resolution, scaled down to fit the page. */
async function displaySize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata();
  let width = meta.width ?? 0;
  let height = meta.height ?? 0;
  if (!width || !height) throw new Error('image without dimensions');
  if (meta.orientation && meta.orientation >= 5) [width, height] = [height, width];
  const density = meta.density && meta.density >= 50 && meta.density <= 1200 ? meta.density : 96;
  width = (width * 96) / density;
  height = (height * 96) / density;
  const scale = Math.min(1, MAX_IMPORTED_IMAGE_WIDTH_PX / width, MAX_IMPORTED_IMAGE_HEIGHT_PX / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function createLimiter(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export function createTemplateImportService(deps: {
  assets: Pick<TAssetsService, 'upload'>;
  pool: Pick<TImportPool, 'convert'>;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
}) {
  const limit = createLimiter(MAX_CONCURRENT_IMPORTS);
  const busyOwners = new Set<string>();

  /** Stores the images the blocks use as the owner's assets; ones that cannot be read are left out. */
  async function storeImages(ownerId: string, blocks: TBlock[], images: Map<number, TDocxImage>, warnings: string[]): Promise<TBlock[]> {
    const urls = new Map<number, { src: string; width: number; height: number } | null>();
    const bySha = new Map<string, string>();
    const failedTypes = new Set<string>();
    let failed = 0;
    for (const block of blocks) {
      if (block.kind !== 'image' || !block.src.startsWith(IMAGE_REF_PREFIX)) continue;
      const ref = Number(block.src.slice(IMAGE_REF_PREFIX.length));
      if (urls.has(ref)) continue;
      const image = images.get(ref);
      if (!image) {
        urls.set(ref, null);
        continue;
      }
      try {
        const size = await displaySize(image.bytes);
        const sha = createHash('sha256').update(image.bytes).digest('hex');
        const src = bySha.get(sha) ?? (await deps.assets.upload(ownerId, image.bytes)).url;
        bySha.set(sha, src);
        urls.set(ref, { src, ...size });
      } catch (error) {
        if (!(error instanceof AppError)) deps.log.warn({ err: (error as Error).message, type: image.contentType }, 'imported image left out');
        failed++;
        failedTypes.add(image.contentType.replace(/^image\//, '').toUpperCase());
        urls.set(ref, null);
      }
    }
    if (failed > 0) {
      warnings.push(
        `${failed} image${failed === 1 ? '' : 's'} could not be imported (${[...failedTypes].join(', ')}; PNG, JPEG, GIF and WebP work): add ${failed === 1 ? 'it' : 'them'} again in the builder.`,
      );
    }
    const out: TBlock[] = [];
    for (const block of blocks) {
      if (block.kind !== 'image' || !block.src.startsWith(IMAGE_REF_PREFIX)) {
        out.push(block);
        continue;
      }
      const stored = urls.get(Number(block.src.slice(IMAGE_REF_PREFIX.length)));
      if (stored) out.push({ kind: 'image', ...stored });
    }
    return out;
  }

  async function convert(ownerId: string, kind: TImportKind, bytes: Buffer): Promise<{ blocks: TBlock[]; warnings: string[] }> {
    const converted = await deps.pool.convert({ kind, bytes });
    const warnings = [...converted.warnings];
    if (kind !== 'docx') return { blocks: converted.blocks, warnings };
    return { blocks: await storeImages(ownerId, converted.blocks, new Map(converted.images), warnings), warnings };
  }

  return {
    /**
     * Converts an uploaded file into an unsaved draft of a format. Stores nothing but the
     * document's images (as the owner's assets, so the builder and the PDF can show them).
     */
    async importFile(ownerId: string, file: { fileName: string; bytes: Buffer }): Promise<TTemplateImportResponse> {
      const kind = importKindOfFileName(file.fileName);
      if (!kind) throw unsupportedType();
      checkFileKind(kind, file.bytes);
      if (busyOwners.has(ownerId)) {
        throw new AppError('rate_limited', 'Another import is still running. Wait for it to finish, then try again.');
      }
      busyOwners.add(ownerId);
      try {
        const { blocks, warnings } = await limit(() => convert(ownerId, kind, file.bytes));
        const { elements, placeholders, warnings: draftWarnings } = blocksToDraft(blocks);
        if (elements.length === 0) {
          throw badFile(kind === 'docx' ? 'This Word document has no text, lists, tables or images to import.' : 'The file has no text to import.');
        }
        const parsed = ZImportDraft.safeParse({ name: draftNameFromFileName(file.fileName), content: { elements }, placeholders });
        if (!parsed.success) {
          deps.log.error({ issues: parsed.error.issues.slice(0, 5), kind }, 'imported draft failed validation');
          throw new AppError('unprocessable', 'This document could not be converted into a format. Try saving it in another format (.docx, .pdf or .txt).');
        }
        return { draft: parsed.data, warnings: [...warnings, ...draftWarnings] };
      } finally {
        busyOwners.delete(ownerId);
      }
    },
  };
}

export const IMPORT_TOO_LARGE_MESSAGE = `The file is larger than ${MAX_IMPORT_MB} MB. Import a smaller file.`;
