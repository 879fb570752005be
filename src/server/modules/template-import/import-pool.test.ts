import { afterAll, describe, expect, it } from 'vitest';
import { createImportPool } from './import-pool.ts';

describe('import pool', () => {
  // A limit far shorter than a thread takes to start: only the conversion itself is on the clock.
  const pool = createImportPool({ timeMs: 150, memoryMb: 128 });
  afterAll(() => pool.close());

  it('starts the clock when the thread takes the file, not while the thread is starting', async () => {
    const started = performance.now();
    const outcome = await pool.convert({ kind: 'txt', bytes: new TextEncoder().encode('Dear {{name}},\n\nWelcome.') });
    expect(outcome.blocks.length).toBeGreaterThan(0);
    // The cold start alone outlasts the limit, so a clock that counted it would have stopped this.
    expect(performance.now() - started).toBeGreaterThan(150);
  });
});
