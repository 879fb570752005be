import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPdf, type TRenderableFormat } from './index.ts';

/*
 * Documents keep the format version they were made from and re-render to the same bytes. This
 * corpus was rendered before lists, conditions, formulas, checkboxes and value formats existed:
 * the six original starters (filled, refilled with awkward values, and empty), the visual
 * reference formats in two locales, the benchmark documents, and tags holding bars and dots with
 * values of every shape. Each must still give exactly the bytes it gave then.
 */
type TCase = { name: string; format: TRenderableFormat; data: Record<string, string>; locale?: string; sha256: string };
const CASES = JSON.parse(readFileSync(join(import.meta.dirname, 'testdata', 'legacy-corpus.json'), 'utf8')) as TCase[];

describe('documents made before format logic', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s renders byte-identical', (_name, c) => {
    const { pdf } = renderPdf({
      format: c.format,
      data: c.data,
      assets: {},
      meta: { title: c.name, creationDate: new Date('2025-02-03T04:05:06Z'), ...(c.locale ? { locale: c.locale } : {}) },
    });
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(c.sha256);
  });
});
