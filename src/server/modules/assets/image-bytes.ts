import sharp from 'sharp';
import { sniffFile, type TFileKind } from '../../files/sniff.ts';

export type TImageKind = 'png' | 'jpeg' | 'gif' | 'webp';

const IMAGE_KINDS: readonly TFileKind[] = ['png', 'jpeg', 'gif', 'webp'];

/** The type by magic bytes, never by the file name or the declared content type. */
export function sniffImage(bytes: Uint8Array): TImageKind | undefined {
  const kind = sniffFile(bytes);
  return IMAGE_KINDS.includes(kind) ? (kind as TImageKind) : undefined;
}

export class UnsupportedImageError extends Error {}

/** Bigger images are scaled down: a page is at most ~2,500 px wide at print resolution. */
const MAX_EDGE_PX = 4000;

/**
 * Turns uploaded or fetched bytes into what the renderer embeds: PNG or JPEG, decodable, and of a
 * sane size. GIF (first frame) and WebP become PNG.
 */
export async function normalizeImage(input: Uint8Array): Promise<{ mimeType: 'image/png' | 'image/jpeg'; bytes: Buffer }> {
  const kind = sniffImage(input);
  if (!kind) throw new UnsupportedImageError('This file is not a PNG, JPEG, GIF or WebP image.');
  let metadata: sharp.Metadata;
  try {
    // limitInputPixels guards against decompression bombs (a tiny file that decodes to gigapixels).
    metadata = await sharp(input, { limitInputPixels: 50_000_000 }).metadata();
  } catch {
    throw new UnsupportedImageError('This image is damaged or cannot be read.');
  }
  const tooBig = (metadata.width ?? 0) > MAX_EDGE_PX || (metadata.height ?? 0) > MAX_EDGE_PX;
  if ((kind === 'png' || kind === 'jpeg') && !tooBig) {
    return { mimeType: kind === 'png' ? 'image/png' : 'image/jpeg', bytes: Buffer.from(input) };
  }
  try {
    const pipeline = sharp(input, { limitInputPixels: 50_000_000 }).resize({
      width: MAX_EDGE_PX,
      height: MAX_EDGE_PX,
      fit: 'inside',
      withoutEnlargement: true,
    });
    if (kind === 'jpeg') return { mimeType: 'image/jpeg', bytes: await pipeline.jpeg({ quality: 88 }).toBuffer() };
    return { mimeType: 'image/png', bytes: await pipeline.png().toBuffer() };
  } catch {
    throw new UnsupportedImageError('This image is damaged or cannot be read.');
  }
}
