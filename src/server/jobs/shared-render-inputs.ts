/**
 * Formats and images that cross to the render threads once and are named by a key afterwards.
 *
 * A single document's task used to carry its whole format, which the event loop structured-cloned
 * for every render (piscina's postTask was 5% of the server's main thread making documents) and
 * the thread deserialized again. A format is now serialized once into a SharedArrayBuffer: posting
 * one shares its memory rather than copying it, and each thread keeps the formats it deserialized
 * by key, deserializing only on a miss (a new thread, or an evicted entry).
 *
 * The key is the caller's identity for the format when it has one (a snapshot's id), which costs
 * nothing to compute. Otherwise it is a SHA-256 of the format's serialized form, the very bytes a
 * thread would deserialize, so equal keys mean equal formats whatever the caller does to its
 * objects. Serializing and hashing the reference format costs the event loop about what posting
 * it did (both serialize it), and a hit still saves the thread its deserializing and the event loop
 * measuring the format's text again (pdf.service.ts keeps that by the same key); a miss costs one
 * hash more than before.
 *
 * Images are already views of shared memory (the assets service's bytes cache), so they cost the
 * event loop little to send; but every task handed the thread a new view, and the renderer, which
 * recognises an image it prepared by its view, hashed the whole image again for every document.
 * Each shared view gets a number once, and the thread gives the renderer the view it first saw
 * under that number. A number names one view of one piece of shared memory, and the thread's view
 * reads that same memory, so whatever the image under an address becomes, it cannot be stale.
 */
import { hash } from 'node:crypto';
import v8 from 'node:v8';
import type { TRenderableFormat } from '../../contract/format-content.ts';
import { createBoundedLru, type TBoundedLru } from './bounded-lru.ts';

/** A format serialized (v8, the structured clone's own format) into memory the threads share. */
export type TSharedFormat = { key: string; serialized: SharedArrayBuffer };

type TLimits = { maxEntries: number; maxSize: number };

/** The event loop's serialized formats: shared memory, which the threads read but do not keep. */
const EVENT_LOOP_FORMATS: TLimits = { maxEntries: 256, maxSize: 16 * 1024 * 1024 };
/** Deserialized formats per thread, measured by their serialized size (the heap holds a few times that). */
const THREAD_FORMATS: TLimits = { maxEntries: 32, maxSize: 8 * 1024 * 1024 };
/**
 * Image views per thread. They hold no copy, but they keep alive memory the event loop's bytes
 * cache may have let go, so they are bounded too.
 */
const THREAD_ASSETS: TLimits = { maxEntries: 128, maxSize: 16 * 1024 * 1024 };

export const isSharedFormat = (format: TRenderableFormat | TSharedFormat): format is TSharedFormat => 'serialized' in format;

/**
 * What to send for a format, and the key it is kept under. `scope` (the owner) keeps one user's
 * keys from ever naming another's formats. `identity`, when given, must change whenever the
 * format's content or placeholders do: the cache never looks at a format it already holds under
 * it. A format too large to keep is sent whole, as before.
 */
export function createFormatShare(limits: TLimits = EVENT_LOOP_FORMATS) {
  const held = createBoundedLru<string, SharedArrayBuffer>(limits);
  // One format may not take more than its share, or it would push every other one out.
  const tooLarge = (bytes: Uint8Array) => bytes.length > limits.maxSize / 8;
  const keep = (key: string, bytes: Uint8Array): SharedArrayBuffer => {
    const serialized = new SharedArrayBuffer(bytes.length);
    new Uint8Array(serialized).set(bytes);
    held.set(key, serialized, bytes.length);
    return serialized;
  };
  return (format: TRenderableFormat, scope: string, identity?: string): { sent: TRenderableFormat | TSharedFormat; key: string | undefined } => {
    if (identity !== undefined) {
      // Quoted, so no scope and identity can run together into another pair's key.
      const key = `id ${JSON.stringify([scope, identity])}`;
      let serialized = held.get(key);
      if (!serialized) {
        const bytes = v8.serialize(format);
        if (tooLarge(bytes)) return { sent: format, key };
        serialized = keep(key, bytes);
      }
      return { sent: { key, serialized }, key };
    }
    const bytes = v8.serialize(format);
    if (tooLarge(bytes)) return { sent: format, key: undefined };
    const key = `sha256 ${scope}\n${hash('sha256', bytes, 'base64')}`;
    return { sent: { key, serialized: held.get(key) ?? keep(key, bytes) }, key };
  };
}

const assetNumbers = new WeakMap<Uint8Array, number>();
let lastAssetNumber = 0;

/**
 * A number for each image that is a view of shared memory, by its source; undefined when none is.
 * Other images are copied into every task as before: a view of memory only this thread holds could
 * be changed after it was numbered, and the thread would not see the change.
 */
export function assetKeysOf(assets: Readonly<Record<string, Uint8Array>>): Record<string, number> | undefined {
  let keys: Record<string, number> | undefined;
  for (const [src, bytes] of Object.entries(assets)) {
    if (!(bytes.buffer instanceof SharedArrayBuffer)) continue;
    let number = assetNumbers.get(bytes);
    if (number === undefined) {
      number = ++lastAssetNumber;
      assetNumbers.set(bytes, number);
    }
    (keys ??= {})[src] = number;
  }
  return keys;
}

/** What a render thread keeps between tasks; one per thread, and one per test that needs its own. */
export function createThreadInputs(limits: { formats: TLimits; assets: TLimits } = { formats: THREAD_FORMATS, assets: THREAD_ASSETS }) {
  const formats: TBoundedLru<string, TRenderableFormat> = createBoundedLru(limits.formats);
  const assets: TBoundedLru<number, Uint8Array> = createBoundedLru(limits.assets);
  return {
    formats,
    assets,
    formatOf(format: TRenderableFormat | TSharedFormat): TRenderableFormat {
      if (!isSharedFormat(format)) return format;
      let found = formats.get(format.key);
      if (!found) {
        found = v8.deserialize(new Uint8Array(format.serialized)) as TRenderableFormat;
        formats.set(format.key, found, format.serialized.byteLength);
      }
      return found;
    },
    assetsOf(sent: Record<string, Uint8Array>, keys: Readonly<Record<string, number>> | undefined): Record<string, Uint8Array> {
      if (!keys) return sent;
      const resolved = { ...sent };
      for (const [src, number] of Object.entries(keys)) {
        const bytes = sent[src];
        if (!bytes) continue;
        const seen = assets.get(number);
        if (seen) resolved[src] = seen;
        else assets.set(number, bytes, bytes.byteLength);
      }
      return resolved;
    },
  };
}
