/**
 * Group commit: writes that arrive while one is running wait for it, then go to the database
 * together as one statement. At low load a write goes at once, alone; under load every statement
 * carries all that came meanwhile, so the database does one statement's fixed work (parsing,
 * planning, a commit) for many documents (docs/server-capacity.md).
 *
 * `write` gets the items in arrival order and answers one result per item, in the same order;
 * when it fails, every item it carried fails with its error.
 */
export function groupedWrites<T, R>(write: (items: T[]) => Promise<R[]>, maxItems = 64): (item: T) => Promise<R> {
  type TWaiting = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void };
  let waiting: TWaiting[] = [];
  let running = false;

  function next(): void {
    if (waiting.length === 0) {
      running = false;
      return;
    }
    running = true;
    const group = waiting.slice(0, maxItems);
    waiting = waiting.slice(group.length);
    let written: Promise<R[]>;
    try {
      written = write(group.map((w) => w.item));
    } catch (error) {
      written = Promise.reject(error as Error);
    }
    written
      .then(
        (results) => {
          if (results.length !== group.length) throw new Error(`a grouped write answered ${results.length} results for ${group.length} items`);
          group.forEach((w, i) => w.resolve(results[i]!));
        },
        (error: unknown) => {
          for (const w of group) w.reject(error);
        },
      )
      .catch((error: unknown) => {
        for (const w of group) w.reject(error);
      })
      .finally(next);
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) next();
    });
}

/**
 * Whether a grouped statement failed for something one of its items may have caused: data
 * (SQLSTATE class 22) or a constraint (23), or a deadlock (40P01) to retry. Then each item is
 * worth trying alone, so only its own failure reaches it; anything else (the database gone, say)
 * fails the whole group as it is, rather than once per item again.
 */
export function isOneItemsFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code ?? (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23') || code === '40P01');
}

/**
 * Group commit for a statement with a form for one item and a form for several: one item goes by
 * the first, as it would without grouping; a group by the second. A group that failed for one
 * item's fault (isOneItemsFault) did nothing, and its items are then tried one by one, so each
 * gets its own outcome.
 */
export function groupedStatements<T, R>(one: (item: T) => Promise<R>, many: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  type TOutcome = { value: R } | { error: unknown };
  const alone = (item: T): Promise<TOutcome> =>
    one(item).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  const write = groupedWrites<T, TOutcome>(async (items) => {
    if (items.length === 1) return [await alone(items[0]!)];
    try {
      return (await many(items)).map((value) => ({ value }));
    } catch (error) {
      if (!isOneItemsFault(error)) throw error;
      return Promise.all(items.map(alone));
    }
  });
  return async (item) => {
    const outcome = await write(item);
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  };
}
