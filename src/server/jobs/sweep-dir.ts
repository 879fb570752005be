import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Removes the entries of `dir` (files or whole folders) not modified for `maxAgeMs`; answers how
 * many. A missing folder, or an entry gone meanwhile, is not an error: these are caches.
 */
export async function removeOlderThan(dir: string, maxAgeMs: number): Promise<number> {
  let removed = 0;
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    try {
      if (Date.now() - (await stat(full)).mtimeMs > maxAgeMs) {
        await rm(full, { recursive: true, force: true });
        removed++;
      }
    } catch {
      // Gone already; nothing to do.
    }
  }
  return removed;
}
