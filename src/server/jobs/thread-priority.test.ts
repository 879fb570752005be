import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRenderPool } from './render-pool.ts';
import { BACKGROUND_THREAD_NICENESS } from './thread-priority.ts';

/** Each thread of this process with its niceness, read as `ps` reads it (field 19 of its stat). */
function nicenessOfThreads(): Map<number, number> {
  const found = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The command name may hold spaces; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    found.set(Number(tid), Number(fields[16]));
  }
  return found;
}

describe.runIf(process.platform === 'linux')('render threads', () => {
  it('run below the event loop: their niceness is raised, the main thread’s is not', async () => {
    const before = nicenessOfThreads();
    const pool = await createRenderPool({ threads: 1 });
    try {
      const check = await pool.prepareData({ kind: 'check', args: [[{ name: 'name', type: 'text', required: true, options: [] }], { name: 'Jo' }] });
      expect(check.fields).toEqual({});
      const after = nicenessOfThreads();
      const started = [...after].filter(([tid]) => !before.has(tid));
      expect(started.some(([, nice]) => nice === BACKGROUND_THREAD_NICENESS)).toBe(true);
      expect(after.get(process.pid)).toBe(before.get(process.pid));
    } finally {
      await pool.close();
    }
  });
});
