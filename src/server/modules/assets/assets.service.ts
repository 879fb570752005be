import { createAssetsContext, type TAssetsDeps } from './assets-context.ts';
import { copyImagesInto } from './copy-images.ts';
import { fetchImagesOf, imageFromUrl } from './fetch-images.ts';
import { getImage, imagesForRender } from './read-images.ts';
import { uploadImage } from './upload-image.ts';
import { useCasesOf } from '../use-cases.ts';

export { IMAGE_FETCHES_PER_MINUTE, type TAssetsDeps } from './assets-context.ts';

/** The owner's images: uploaded, or fetched once by address; each use case in its own file. */
export function createAssetsService(deps: TAssetsDeps) {
  const ctx = createAssetsContext(deps);
  const use = useCasesOf(ctx);
  return {
    upload: use(uploadImage),
    fromUrl: use(imageFromUrl),
    fetchImagesOf: use(fetchImagesOf),
    get: use(getImage),
    forRender: use(imagesForRender),
    copyImagesInto: use(copyImagesInto),
  };
}
export type TAssetsService = ReturnType<typeof createAssetsService>;
