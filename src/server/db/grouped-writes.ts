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
