import { AppError } from '../../http/app-error.ts';
import { assetUrl, type TAssetsContext } from './assets-context.ts';
import { UnsupportedImageError } from './image-bytes.ts';

/** An uploaded image, kept as the owner's asset. */
export async function uploadImage({ store }: TAssetsContext, ownerId: string, bytes: Uint8Array): Promise<{ url: string }> {
  if (bytes.length === 0) throw new AppError('bad_request', 'The file is empty.');
  try {
    const row = await store(ownerId, bytes);
    return { url: assetUrl(row.id) };
  } catch (error) {
    if (error instanceof UnsupportedImageError) throw new AppError('unsupported_media_type', error.message);
    throw error;
  }
}
