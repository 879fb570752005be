/**
 * At most `perKey` tasks run at once for one key (a user), and at most `maxWaiting` more wait
 * their turn; past that the caller is refused at once. One user's heavy work then cannot take
 * every render thread from everyone else.
 */
export function createKeyedLimiter(options: { perKey: number; maxWaiting: number }) {
  const states = new Map<string, { running: number; waiting: (() => void)[] }>();
  return {
    /** A release function once a slot is free; undefined when too many already wait. */
    async acquire(key: string): Promise<(() => void) | undefined> {
      let state = states.get(key);
      if (!state) states.set(key, (state = { running: 0, waiting: [] }));
      if (state.running >= options.perKey) {
        if (state.waiting.length >= options.maxWaiting) return undefined;
        await new Promise<void>((resolve) => state!.waiting.push(resolve));
      } else {
        state.running++;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = state!.waiting.shift();
        // The slot passes straight to the next waiter, so `running` stays the same.
        if (next) return next();
        state!.running--;
        if (state!.running === 0) states.delete(key);
      };
    },
  };
}
