import { describe, expect, it } from 'vitest';
import { createBoundedLru } from './bounded-lru.ts';

describe('createBoundedLru', () => {
  it('lets the least recently used entry go once it holds more entries than allowed', () => {
    const lru = createBoundedLru<string, number>({ maxEntries: 2, maxSize: 100 });
    lru.set('a', 1, 1);
    lru.set('b', 2, 1);
    expect(lru.get('a')).toBe(1); // now b is the oldest
    lru.set('c', 3, 1);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.entries).toBe(2);
  });

  it('lets old entries go once their sizes add up to more than allowed, and keeps none larger than that', () => {
    const lru = createBoundedLru<string, string>({ maxEntries: 100, maxSize: 10 });
    lru.set('a', 'a', 4);
    lru.set('b', 'b', 4);
    lru.set('c', 'c', 4);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(8);
    expect(lru.set('huge', 'huge', 11)).toBe(false);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.size).toBe(8);
  });

  it('counts a replaced entry once, at its new size', () => {
    const lru = createBoundedLru<string, string>({ maxEntries: 10, maxSize: 10 });
    lru.set('a', 'first', 6);
    lru.set('a', 'second', 3);
    expect(lru.get('a')).toBe('second');
    expect(lru.size).toBe(3);
    expect(lru.entries).toBe(1);
  });
});
