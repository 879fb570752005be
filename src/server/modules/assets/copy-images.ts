import { imageSources, type TFormatContent } from '../../../contract/format-content.ts';
import { ASSET_URL_PREFIX, assetUrl, type TAssetsContext } from './assets-context.ts';

/**
 * A format's content for another workspace: each uploaded image it shows is stored again as the
 * target's own (counted against the target's storage), and the content points at the copies.
 * Images given by address are fetched for the target when the copy is saved, as any format's are.
 */
export async function copyImagesInto(
  { deps, store }: TAssetsContext,
  fromOwnerId: string,
  toOwnerId: string,
  content: TFormatContent,
): Promise<TFormatContent> {
  const ids = imageSources(content)
    .filter((src) => src.startsWith(ASSET_URL_PREFIX))
    .map((src) => src.slice(ASSET_URL_PREFIX.length));
  if (ids.length === 0) return content;
  let json = JSON.stringify(content);
  for (const row of await deps.assets.getMany(fromOwnerId, [...new Set(ids)])) {
    const copy = await store(toOwnerId, row.bytes);
    // Sources are whole JSON strings, so replacing the quoted address touches nothing else.
    json = json.replaceAll(JSON.stringify(assetUrl(row.id)), JSON.stringify(assetUrl(copy.id)));
  }
  return JSON.parse(json) as TFormatContent;
}
