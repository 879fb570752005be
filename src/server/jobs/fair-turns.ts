/**
 * Hands out `slots` turns (render threads) across users in rotation: a user alone gets every
 * slot, and when several wait, each gets the next free slot in turn, so one user with hundreds of
 * requests in flight delays another user's document by at most one render per slot. Past
 * `maxWaitingPerKey` waiting requests a user is refused at once instead of queued.
 */
export function createFairTurns(options: { slots: number; maxWaitingPerKey: number }) {
  let running = 0;
  // Insertion order is the rotation: a key that is served moves to the back.
  const waiting = new Map<string, (() => void)[]>();

  function next() {
    for (const [key, queue] of waiting) {
      const start = queue.shift()!;
      waiting.delete(key);
      if (queue.length > 0) waiting.set(key, queue);
      start();
      return;
    }
    running--;
  }

  return {
    /** A release function once the caller's turn has come; undefined when it already waits too much. */
    async take(key: string): Promise<(() => void) | undefined> {
      if (running < options.slots && waiting.size === 0) {
        running++;
      } else {
        const queue = waiting.get(key) ?? [];
        if (queue.length >= options.maxWaitingPerKey) return undefined;
        await new Promise<void>((resolve) => {
          queue.push(resolve);
          if (!waiting.has(key)) waiting.set(key, queue);
        });
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // The slot passes straight to the next waiter, so `running` only drops when none waits.
        next();
      };
    },
  };
}
