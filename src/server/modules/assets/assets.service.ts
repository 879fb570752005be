import { createHash } from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { TFormatContent } from '../../../contract/format-content.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TAssetRow, TAssetsRepository } from './assets.repository.ts';
import { normalizeImage, UnsupportedImageError } from './image-bytes.ts';
import { ImageFetchError, type TSafeFetch } from './safe-fetch.ts';

export const ASSET_URL_PREFIX = '/api/assets/';
/** Images one user may have the server fetch by address per minute. */
export const IMAGE_FETCHES_PER_MINUTE = 20;
export const assetUrl = (id: string) => `${ASSET_URL_PREFIX}${id}`;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function imageSources(content: TFormatContent): string[] {
  const sources = new Set<string>();
  for (const element of content.elements) {
    if (element.type === 'image' && element.src) sources.add(element.src);
  }
  return [...sources];
}

export function createAssetsService(deps: {
  assets: TAssetsRepository;
  safeFetch: TSafeFetch;
  log: { warn: (obj: object, msg: string) => void };
}) {
  async function store(ownerId: string, input: Uint8Array, sourceUrl?: string): Promise<TAssetRow> {
    const image = await normalizeImage(input);
    return deps.assets.create(ownerId, { ...image, sha256: sha256(image.bytes), sourceUrl });
  }

  // Each fetch reaches out to the internet on the user's behalf and may store 10 MB: a user gets
  // a handful a minute, which is plenty for building formats by hand.
  const fetchesByUser = new RateLimiterMemory({ keyPrefix: 'image-from-url', points: IMAGE_FETCHES_PER_MINUTE, duration: 60 });

  return {
    async upload(ownerId: string, bytes: Uint8Array): Promise<{ url: string }> {
      if (bytes.length === 0) throw new AppError('bad_request', 'The file is empty.');
      try {
        const row = await store(ownerId, bytes);
        return { url: assetUrl(row.id) };
      } catch (error) {
        if (error instanceof UnsupportedImageError) throw new AppError('unsupported_media_type', error.message);
        throw error;
      }
    },

    /**
     * An image given by its address, fetched once (safely) and kept as the owner's asset, as a
     * render would: the builder then shows exactly what the PDF embeds, from our own origin.
     */
    async fromUrl(ownerId: string, url: string): Promise<{ url: string }> {
      const [known] = await deps.assets.findBySourceUrls(ownerId, [url]);
      if (known) return { url: assetUrl(known.id) };
      try {
        await fetchesByUser.consume(ownerId);
      } catch (refusal) {
        const waitMs = (refusal as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
        throw new AppError(
          'rate_limited',
          `Too many images fetched by address in a minute. Try again in ${Math.ceil(waitMs / 1000)} seconds, or upload the image.`,
          undefined,
          { 'retry-after': String(Math.ceil(waitMs / 1000)) },
        );
      }
      let bytes: Uint8Array;
      try {
        bytes = await deps.safeFetch(url);
      } catch (error) {
        if (error instanceof ImageFetchError) {
          throw new AppError('unprocessable', `The image at this address could not be loaded. ${error.message}`, { url: error.message });
        }
        throw error;
      }
      try {
        return { url: assetUrl((await store(ownerId, bytes, url)).id) };
      } catch (error) {
        if (error instanceof UnsupportedImageError) throw new AppError('unsupported_media_type', error.message, { url: error.message });
        throw error;
      }
    },

    async get(ownerId: string, id: string): Promise<TAssetRow> {
      const row = await deps.assets.get(ownerId, id);
      if (!row) throw notFound('Image');
      return row;
    },

    /**
     * The bytes for every image a format shows, keyed by its src as the renderer expects. Images
     * given by URL are fetched once, safely, and kept as the owner's assets, so later renders of
     * the same document never touch the network and give the same bytes. An image that cannot be
     * had is left out: the renderer draws an empty box in its place.
     */
    async forRender(ownerId: string, content: TFormatContent): Promise<Record<string, Uint8Array>> {
      const sources = imageSources(content);
      if (sources.length === 0) return {};
      const result: Record<string, Uint8Array> = {};
      const assetIds = sources.filter((s) => s.startsWith(ASSET_URL_PREFIX));
      for (const row of await deps.assets.getMany(ownerId, assetIds.map((s) => s.slice(ASSET_URL_PREFIX.length)))) {
        result[assetUrl(row.id)] = row.bytes;
      }
      const urls = sources.filter((s) => /^https?:\/\//i.test(s));
      for (const row of await deps.assets.findBySourceUrls(ownerId, urls)) result[row.sourceUrl!] = row.bytes;
      await Promise.all(
        urls
          .filter((url) => !result[url])
          .map(async (url) => {
            try {
              const row = await store(ownerId, await deps.safeFetch(url), url);
              result[url] = row.bytes;
            } catch (error) {
              deps.log.warn({ err: (error as Error).message }, 'image by URL left out of a render');
            }
          }),
      );
      return result;
    },
  };
}
export type TAssetsService = ReturnType<typeof createAssetsService>;
