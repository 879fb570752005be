import { transferableSymbol, valueSymbol } from 'piscina';
import { describe, expect, it } from 'vitest';
import { withMovedBytes } from './moved-bytes.ts';

const wrapper = (value: unknown) => value as Record<symbol, unknown>;

describe('withMovedBytes', () => {
  it('has piscina move the buffers that PDFs fill whole, and copy slices of a shared one', () => {
    const own = Buffer.alloc(10_000, 1);
    const pooled = Buffer.from('a small PDF');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    const result = { sha256: ['x', 'y'], bytes: [own, pooled] };
    const moved = wrapper(withMovedBytes(result));
    expect(moved[transferableSymbol]).toEqual([own.buffer]);
    expect(moved[valueSymbol]).toBe(result);
  });

  it('answers the result itself when there is nothing to move', () => {
    const result = { bytes: null };
    expect(withMovedBytes(result)).toBe(result);
    const slices = { bytes: [Buffer.from('abc')] };
    expect(withMovedBytes(slices)).toBe(slices);
  });
});
