import { describe, expect, it } from 'vitest';
import { plural, storableText, textProblem, wellFormed } from './text.ts';

describe('plural', () => {
  it('puts the noun in the form its count takes, the count grouped', () => {
    expect(plural(1, 'document')).toBe('1 document');
    expect(plural(0, 'document')).toBe('0 documents');
    expect(plural(2, 'document')).toBe('2 documents');
    expect(plural(1200, 'row')).toBe('1,200 rows');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(plural(1.5, 'hour')).toBe('1.5 hours');
  });
});

describe('text no field may hold', () => {
  it('names NUL and a lone surrogate, and replaces the surrogate', () => {
    expect(textProblem('fine')).toBeUndefined();
    expect(textProblem('a\u0000b')).toContain('NUL');
    expect(textProblem('a\uD800b')).toContain('broken character');
    expect(wellFormed('a\uD800b')).toBe('a\uFFFDb');
  });

  it('cleans text read from a file so it can be stored, keeping all real text', () => {
    for (const text of ['a\u0000b\u0000', '\uDC00x\uD800', 'ok 😀 é', '']) expect(textProblem(storableText(text))).toBeUndefined();
    expect(storableText('a\u0000b\u0000')).toBe('ab');
    expect(storableText('\uDC00x\uD800')).toBe('\uFFFDx\uFFFD');
    expect(storableText('ok 😀 é\ttab')).toBe('ok 😀 é\ttab');
  });
});
