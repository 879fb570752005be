import { imageSources, isImageAddress, type TFormatContent } from '../../../contract/format-content.ts';
import { AppError } from '../../http/app-error.ts';
import type { TAssetRow } from './assets.repository.ts';
import { assetUrl, FETCHES_AT_ONCE, SAVE_FETCH_DEADLINE_MS, type TAssetsContext } from './assets-context.ts';
import { UnsupportedImageError } from './image-bytes.ts';
import { ImageFetchError } from './safe-fetch.ts';

/** Fetches one address (safely) and keeps it as the owner's asset; a failure is remembered. */
async function fetchAndStore(ctx: TAssetsContext, ownerId: string, url: string): Promise<TAssetRow> {
  const { deps, store, takeFetch, rememberedFailure, rememberFailure } = ctx;
  const remembered = rememberedFailure(ownerId, url);
  if (remembered) throw remembered;
  await takeFetch(ownerId);
  let bytes: Uint8Array;
  try {
    bytes = await deps.safeFetch(url);
  } catch (error) {
    if (error instanceof ImageFetchError) {
      const refusal = new AppError('unprocessable', `The image at this address could not be loaded. ${error.message}`, { url: error.message });
      rememberFailure(ownerId, url, refusal);
      throw refusal;
    }
    throw error;
  }
  try {
    return await store(ownerId, bytes, url);
  } catch (error) {
    if (error instanceof UnsupportedImageError) {
      const refusal = new AppError('unsupported_media_type', error.message, { url: error.message });
      rememberFailure(ownerId, url, refusal);
      throw refusal;
    }
    throw error;
  }
}

/**
 * An image given by its address, fetched once (safely) and kept as the owner's asset, as a
 * render would: the builder then shows exactly what the PDF embeds, from our own origin.
 */
export async function imageFromUrl(ctx: TAssetsContext, ownerId: string, url: string): Promise<{ url: string }> {
  const [known] = await ctx.deps.assets.findBySourceUrls(ownerId, [url]);
  if (known) return { url: assetUrl(known.id) };
  return { url: assetUrl((await fetchAndStore(ctx, ownerId, url)).id) };
}

/**
 * Fetches the images a format shows by address that the owner does not have yet, so renders
 * never touch the network. Called when a format is saved or previewed. An address that cannot
 * be had is left out (the PDF shows an empty box, the builder says why); so is everything past
 * the fetch budget, until a later save.
 */
export async function fetchImagesOf(ctx: TAssetsContext, ownerId: string, content: Pick<TFormatContent, 'elements'>): Promise<void> {
  const { deps, rememberedFailure } = ctx;
  const urls = imageSources(content).filter(isImageAddress);
  if (urls.length === 0) return;
  const known = new Set((await deps.assets.findBySourceUrls(ownerId, urls)).map((row) => row.sourceUrl));
  const missing = urls.filter((url) => !known.has(url) && !rememberedFailure(ownerId, url));
  let budgetLeft = true;
  // A save waits for its images, but not for ever: what is not fetched by then is left for later.
  const deadline = Date.now() + SAVE_FETCH_DEADLINE_MS;
  const next = async (): Promise<void> => {
    const url = missing.shift();
    if (!url || !budgetLeft || Date.now() > deadline) return;
    try {
      await fetchAndStore(ctx, ownerId, url);
    } catch (error) {
      if (error instanceof AppError && error.code === 'rate_limited') budgetLeft = false;
      else if (error instanceof AppError && error.code === 'storage_limit') budgetLeft = false;
      else if (!(error instanceof AppError)) deps.log.warn({ err: (error as Error).message }, 'image by address not kept');
    }
    return next();
  };
  await Promise.all(Array.from({ length: FETCHES_AT_ONCE }, next));
}
