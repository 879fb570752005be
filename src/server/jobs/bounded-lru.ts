/**
 * Least recently used out first, bounded both by how many entries it holds and by their total
 * size as the caller measures it: a few huge entries cannot hold the memory that many small ones
 * would, and many tiny ones cannot grow the map without end.
 */
export type TBoundedLru<K, V> = {
  get(key: K): V | undefined;
  /** False when the value alone is over the size limit: it is then kept nowhere. */
  set(key: K, value: V, size: number): boolean;
  delete(key: K): void;
  readonly entries: number;
  readonly size: number;
};

export function createBoundedLru<K, V>(limits: { maxEntries: number; maxSize: number }): TBoundedLru<K, V> {
  const map = new Map<K, { value: V; size: number }>();
  let held = 0;
  return {
    get(key) {
      const entry = map.get(key);
      if (!entry) return undefined;
      // Maps keep insertion order, so re-inserting moves the entry to the young end.
      map.delete(key);
      map.set(key, entry);
      return entry.value;
    },
    set(key, value, size) {
      const previous = map.get(key);
      if (previous) {
        map.delete(key);
        held -= previous.size;
      }
      if (size > limits.maxSize) return false;
      map.set(key, { value, size });
      held += size;
      for (const [oldest, entry] of map) {
        if (held <= limits.maxSize && map.size <= limits.maxEntries) break;
        map.delete(oldest);
        held -= entry.size;
      }
      return true;
    },
    delete(key) {
      const entry = map.get(key);
      if (!entry) return;
      map.delete(key);
      held -= entry.size;
    },
    get entries() {
      return map.size;
    },
    get size() {
      return held;
    },
  };
}
