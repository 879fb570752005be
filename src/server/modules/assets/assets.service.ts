import { createHash } from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { imageSources, isImageAddress, type TFormatContent } from '../../../contract/format-content.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TQuotaService } from '../quota/quota.service.ts';
import { StorageFullError, type TAssetRow, type TAssetsRepository } from './assets.repository.ts';
import { normalizeImage, UnsupportedImageError } from './image-bytes.ts';
import { ImageFetchError, type TSafeFetch } from './safe-fetch.ts';

export const ASSET_URL_PREFIX = '/api/assets/';
/** Images one user may have the server fetch by address per minute, however it is asked to. */
export const IMAGE_FETCHES_PER_MINUTE = 60;
/** How long an address that could not be fetched is answered from memory instead of fetched again. */
export const FAILED_FETCH_MEMORY_MS = 10 * 60_000;
const MAX_REMEMBERED_FAILURES = 10_000;
/** Fetches one format's save makes at once, and how long it goes on starting new ones. */
const FETCHES_AT_ONCE = 4;
const SAVE_FETCH_DEADLINE_MS = 15_000;
/** Memory for image bytes that renders use, across all users. */
const RENDER_BYTES_CACHE_BYTES = 64 * 1024 * 1024;

/** Least recently used first out, bounded by the bytes it holds. */
function createBytesCache(maxBytes: number) {
  const entries = new Map<string, Uint8Array>();
  let held = 0;
  const keyOf = (ownerId: string, src: string) => `${ownerId} ${src}`;
  return {
    get(ownerId: string, src: string): Uint8Array | undefined {
      const key = keyOf(ownerId, src);
      const bytes = entries.get(key);
      if (bytes) {
        entries.delete(key);
        entries.set(key, bytes);
      }
      return bytes;
    },
    /** Keeps a copy in shared memory: a render task then carries the image to its thread without copying it. */
    set(ownerId: string, src: string, stored: Uint8Array): Uint8Array {
      if (stored.length > maxBytes / 8) return stored;
      const bytes = new Uint8Array(new SharedArrayBuffer(stored.length));
      bytes.set(stored);
      const key = keyOf(ownerId, src);
      const previous = entries.get(key);
      if (previous) held -= previous.length;
      entries.delete(key);
      entries.set(key, bytes);
      held += bytes.length;
      for (const [oldest, value] of entries) {
        if (held <= maxBytes) break;
        entries.delete(oldest);
        held -= value.length;
      }
      return bytes;
    },
  };
}
export const assetUrl = (id: string) => `${ASSET_URL_PREFIX}${id}`;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export function createAssetsService(deps: {
  assets: TAssetsRepository;
  quota: Pick<TQuotaService, 'storage' | 'storageExceeded'>;
  safeFetch: TSafeFetch;
  log: { warn: (obj: object, msg: string) => void };
}) {
  async function store(ownerId: string, input: Uint8Array, sourceUrl?: string): Promise<TAssetRow> {
    const image = await normalizeImage(input);
    const { planName, limitBytes } = await deps.quota.storage(ownerId);
    try {
      return await deps.assets.create(ownerId, { ...image, sha256: sha256(image.bytes), sourceUrl }, limitBytes);
    } catch (error) {
      if (error instanceof StorageFullError) {
        throw deps.quota.storageExceeded(planName, limitBytes, error.usedBytes, image.bytes.length);
      }
      throw error;
    }
  }

  // Each fetch reaches out to the internet on the user's behalf and may store 10 MB: one budget a
  // minute per user covers every way the server fetches an address (the builder's Use URL, saving
  // a format, previewing one).
  const fetchesByUser = new RateLimiterMemory({ keyPrefix: 'image-fetch', points: IMAGE_FETCHES_PER_MINUTE, duration: 60 });
  const fetchRefusal = (waitMs: number) =>
    new AppError(
      'rate_limited',
      `Too many images fetched by address in a minute. Try again in ${Math.ceil(waitMs / 1000)} seconds, or upload the image.`,
      undefined,
      { 'retry-after': String(Math.ceil(waitMs / 1000)) },
    );
  async function takeFetch(ownerId: string): Promise<void> {
    try {
      await fetchesByUser.consume(ownerId);
    } catch (refusal) {
      throw fetchRefusal((refusal as { msBeforeNext?: number }).msBeforeNext ?? 60_000);
    }
  }

  // Assets never change once stored, so the bytes renders need are kept in memory: reading a
  // 70 KB image from the database on every document cost more than rendering the document.
  const renderBytes = createBytesCache(RENDER_BYTES_CACHE_BYTES);

  // Addresses that failed lately, per owner: a format naming a dead address is not fetched again on
  // every save and preview.
  const failures = new Map<string, { error: AppError; until: number }>();
  const failureKey = (ownerId: string, url: string) => `${ownerId} ${url}`;
  function rememberedFailure(ownerId: string, url: string): AppError | undefined {
    const key = failureKey(ownerId, url);
    const failure = failures.get(key);
    if (failure && failure.until > Date.now()) return failure.error;
    if (failure) failures.delete(key);
    return undefined;
  }
  function rememberFailure(ownerId: string, url: string, error: AppError) {
    if (failures.size >= MAX_REMEMBERED_FAILURES) failures.delete(failures.keys().next().value!);
    failures.set(failureKey(ownerId, url), { error, until: Date.now() + FAILED_FETCH_MEMORY_MS });
  }

  /** Fetches one address (safely) and keeps it as the owner's asset; a failure is remembered. */
  async function fetchAndStore(ownerId: string, url: string): Promise<TAssetRow> {
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
      return { url: assetUrl((await fetchAndStore(ownerId, url)).id) };
    },

    /**
     * Fetches the images a format shows by address that the owner does not have yet, so renders
     * never touch the network. Called when a format is saved or previewed. An address that cannot
     * be had is left out (the PDF shows an empty box, the builder says why); so is everything past
     * the fetch budget, until a later save.
     */
    async fetchImagesOf(ownerId: string, content: Pick<TFormatContent, 'elements'>): Promise<void> {
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
          await fetchAndStore(ownerId, url);
        } catch (error) {
          if (error instanceof AppError && error.code === 'rate_limited') budgetLeft = false;
          else if (error instanceof AppError && error.code === 'storage_limit') budgetLeft = false;
          else if (!(error instanceof AppError)) deps.log.warn({ err: (error as Error).message }, 'image by address not kept');
        }
        return next();
      };
      await Promise.all(Array.from({ length: FETCHES_AT_ONCE }, next));
    },

    async get(ownerId: string, id: string): Promise<TAssetRow> {
      const row = await deps.assets.get(ownerId, id);
      if (!row) throw notFound('Image');
      return row;
    },

    /**
     * The bytes for every image a format shows, keyed by its src as the renderer expects. Renders
     * never fetch: images given by address were fetched when the format was saved. An image the
     * owner does not have is left out, and the renderer draws an empty box in its place.
     */
    async forRender(ownerId: string, content: TFormatContent): Promise<Record<string, Uint8Array>> {
      const sources = imageSources(content);
      if (sources.length === 0) return {};
      const result: Record<string, Uint8Array> = {};
      const missing: string[] = [];
      for (const src of sources) {
        const cached = renderBytes.get(ownerId, src);
        if (cached) result[src] = cached;
        else missing.push(src);
      }
      if (missing.length === 0) return result;
      const assetIds = missing.filter((s) => s.startsWith(ASSET_URL_PREFIX)).map((s) => s.slice(ASSET_URL_PREFIX.length));
      for (const row of await deps.assets.getMany(ownerId, assetIds)) {
        result[assetUrl(row.id)] = renderBytes.set(ownerId, assetUrl(row.id), row.bytes);
      }
      for (const row of await deps.assets.findBySourceUrls(ownerId, missing.filter(isImageAddress))) {
        result[row.sourceUrl!] = renderBytes.set(ownerId, row.sourceUrl!, row.bytes);
      }
      return result;
    },
  };
}
export type TAssetsService = ReturnType<typeof createAssetsService>;
