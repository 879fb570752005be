import { imageSources, isImageAddress, type TFormatContent } from '../../../contract/format-content.ts';
import { notFound } from '../../http/app-error.ts';
import type { TAssetRow } from './assets.repository.ts';
import { ASSET_URL_PREFIX, assetUrl, type TAssetsContext } from './assets-context.ts';

/** One of the owner's images. */
export async function getImage({ deps }: TAssetsContext, ownerId: string, id: string): Promise<TAssetRow> {
  const row = await deps.assets.get(ownerId, id);
  if (!row) throw notFound('Image');
  return row;
}

/**
 * The bytes for every image a format shows, keyed by its src as the renderer expects. Renders
 * never fetch: images given by address were fetched when the format was saved. An image the
 * owner does not have is left out, and the renderer draws an empty box in its place.
 */
export async function imagesForRender({ deps, renderBytes }: TAssetsContext, ownerId: string, content: TFormatContent): Promise<Record<string, Uint8Array>> {
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
}
