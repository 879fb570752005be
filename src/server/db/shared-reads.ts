/**
 * Lets concurrent callers of one read share a query, without ever answering a caller with a read
 * that began before it asked. A caller that arrives while its key's read is running waits for the
 * next one, which starts as soon as that ends and serves everyone who came meanwhile. So an
 * answer is exactly as fresh as a query of the caller's own, and under load a key is read at most
 * once per query time, however many requests ask for it (docs/server-capacity.md).
 */
export function sharedReads<K, V>(read: (key: K) => Promise<V>): (key: K) => Promise<V> {
  type TSlot = { running: Promise<V>; next: Promise<V> | undefined };
  const slots = new Map<K, TSlot>();

  function start(key: K): Promise<V> {
    let running: Promise<V>;
    try {
      running = read(key);
    } catch (error) {
      running = Promise.reject(error as Error);
    }
    const slot: TSlot = { running, next: undefined };
    slots.set(key, slot);
    // Nobody waiting for a later read: the key is forgotten, so the map holds only keys in use.
    const settled = () => {
      if (slots.get(key) === slot && slot.next === undefined) slots.delete(key);
    };
    running.then(settled, settled);
    return running;
  }

  return (key) => {
    const slot = slots.get(key);
    if (!slot) return start(key);
    if (!slot.next) {
      const again = () => start(key);
      slot.next = slot.running.then(again, again);
    }
    return slot.next;
  };
}
