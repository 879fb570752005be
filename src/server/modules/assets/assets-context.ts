import { createHash } from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppError } from '../../http/app-error.ts';
import type { TQuotaService } from '../quota/index.ts';
import { StorageFullError, type TAssetRow, type TAssetsRepository } from './assets.repository.ts';
import { createBytesCache } from './bytes-cache.ts';
import { normalizeImage } from './image-bytes.ts';
import type { TSafeFetch } from './safe-fetch.ts';

export const ASSET_URL_PREFIX = '/api/assets/';
/** Images one user may have the server fetch by address per minute, however it is asked to. */
export const IMAGE_FETCHES_PER_MINUTE = 60;
/** How long an address that could not be fetched is answered from memory instead of fetched again. */
export const FAILED_FETCH_MEMORY_MS = 10 * 60_000;
export const MAX_REMEMBERED_FAILURES = 10_000;
/** Fetches one format's save makes at once, and how long it goes on starting new ones. */
export const FETCHES_AT_ONCE = 4;
export const SAVE_FETCH_DEADLINE_MS = 15_000;
/** Memory for image bytes that renders use, across all users. */
export const RENDER_BYTES_CACHE_BYTES = 64 * 1024 * 1024;

export const assetUrl = (id: string) => `${ASSET_URL_PREFIX}${id}`;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What the assets service is built from (see `createAssetsService`). */
export type TAssetsDeps = {
  assets: TAssetsRepository;
  quota: Pick<TQuotaService, 'storage' | 'storageExceeded'>;
  safeFetch: TSafeFetch;
  log: { warn: (obj: object, msg: string) => void };
};

/** The state every assets use case shares: storing, the fetch budget, the render cache, remembered failures. */
export type TAssetsContext = ReturnType<typeof createAssetsContext>;

export function createAssetsContext(deps: TAssetsDeps) {
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

  return { deps, store, takeFetch, renderBytes, rememberedFailure, rememberFailure };
}
