import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uniqueNamer } from './zip-names.ts';

/** The rule as first written: count up from 2 until the name is free. */
function countingNamer(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    let candidate = `${name}.pdf`;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${name} (${n}).pdf`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}

describe('uniqueNamer', () => {
  it('numbers only the names that collide, ignoring case', () => {
    const name = uniqueNamer();
    expect(['Offer', 'offer', 'Invoice', 'OFFER', 'Offer (2)'].map(name)).toEqual([
      'Offer.pdf',
      'offer (2).pdf',
      'Invoice.pdf',
      'OFFER (3).pdf',
      'Offer (2) (2).pdf',
    ]);
  });

  it('skips a number a document already has as its own name', () => {
    const name = uniqueNamer();
    expect(['Report (2)', 'Report', 'Report', 'report', 'Report (3)'].map(name)).toEqual([
      'Report (2).pdf',
      'Report.pdf',
      'Report (3).pdf',
      'report (4).pdf',
      'Report (3) (2).pdf',
    ]);
  });

  it('gives exactly the names counting up from 2 gives, for any sequence', () => {
    // Few distinct words, so collisions, numbered look-alikes and case variants are common.
    const word = fc.constantFrom('a', 'A', 'b', 'a (2)', 'A (3)', 'b (2)', 'a (2) (2)');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), (names) => {
        const fast = uniqueNamer();
        const counting = countingNamer();
        return names.every((n) => fast(n) === counting(n));
      }),
    );
  });

  it('names 50,000 documents that share one name, each once', () => {
    const name = uniqueNamer();
    const names = Array.from({ length: 50_000 }, () => name('Offer letter'));
    expect(new Set(names).size).toBe(50_000);
    expect(names.at(-1)).toBe('Offer letter (50000).pdf');
  });
});
