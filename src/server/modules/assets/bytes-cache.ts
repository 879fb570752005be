/** Least recently used first out, bounded by the bytes it holds. */
export function createBytesCache(maxBytes: number) {
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
