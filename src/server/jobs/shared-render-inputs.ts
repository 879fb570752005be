/**
 * Formats and images that cross to the render threads once and are named by a key afterwards.
 *
 * A single document's task used to carry its whole format, which the event loop structured-cloned
 * for every render (piscina's postTask was 5% of the server's main thread making documents) and
 * the thread deserialized again. A format with an immutable identity (a snapshot's id) is instead
 * serialized once into a SharedArrayBuffer: posting one shares its memory rather than copying it,
 * so a task costs about the same whatever the format's size, and each thread keeps the formats it
 * deserialized by key, deserializing only on a miss (a new thread, or an evicted entry).
 *
 * The key is the caller's identity, not a hash of the content: hashing the reference format's
 * JSON took the event loop longer (about 23 µs) than posting the format itself (about 15 µs), so
 * a format without an identity (previews, invoices, the demo) is sent whole, as before.
 *
 * Images are already views of shared memory (the assets service's bytes cache), so they cost the
 * event loop little to send; but every task handed the thread a new view, and the renderer, which
 * recognises an image it prepared by its view, hashed the whole image again for every document.
 * Each shared view gets a number once, and the thread gives the renderer the view it first saw
 * under that number. A number names one view of one piece of shared memory, and the thread's view
 * reads that same memory, so whatever the image under an address becomes, it cannot be stale.
 */
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
 * Answers what to send for a format: the shared form under `key`, or the format itself when it is
 * too large to keep. `key` must change whenever the format's content or placeholders do, and name
 * no other owner's format: the cache never looks at a format it already holds under that key.
 */
export function createFormatShare(limits: TLimits = EVENT_LOOP_FORMATS) {
  const held = createBoundedLru<string, SharedArrayBuffer>(limits);
  return (key: string, format: TRenderableFormat): TRenderableFormat | TSharedFormat => {
    let serialized = held.get(key);
    if (!serialized) {
      const bytes = v8.serialize(format);
      // One format may not take more than its share, or it would push every other one out.
      if (bytes.length > limits.maxSize / 8) return format;
      serialized = new SharedArrayBuffer(bytes.length);
      new Uint8Array(serialized).set(bytes);
      held.set(key, serialized, bytes.length);
    }
    return { key, serialized };
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
