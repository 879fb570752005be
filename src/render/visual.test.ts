import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZRenderableFormat } from '../contract/format-content.ts';
import { renderPdf } from './index.ts';
import { decodePng, makeAlphaPng, pdfRaster, pixelDiff } from './testdata/pdf-tools.ts';
import { REFERENCE_ASSET, REFERENCE_DATA, REFERENCE_FORMATS } from './testdata/reference-formats.ts';

/*
 * Visual regression: reference formats rasterised at 50 dpi and compared with committed
 * baselines. `UPDATE_BASELINES=1 npx vitest run src/render/visual.test.ts` rewrites them; look
 * at the new images before committing them.
 */

const DIR = join(import.meta.dirname, 'testdata', 'baselines');
const UPDATE = process.env.UPDATE_BASELINES === '1';
// Anti-aliasing differs slightly between poppler builds; a real layout change moves far more.
const MAX_DIFFERING = 0.002;

describe('visual regression', () => {
  for (const [name, f] of Object.entries(REFERENCE_FORMATS)) {
    it(`matches the baseline of "${name}"`, () => {
      const { pdf } = renderPdf({
        format: ZRenderableFormat.parse(f),
        data: REFERENCE_DATA,
        assets: { [REFERENCE_ASSET]: new Uint8Array(makeAlphaPng(48)) },
        meta: { title: name, creationDate: new Date('2025-01-01T00:00:00Z') },
      });
      const pages = pdfRaster(pdf, 50);
      if (UPDATE) {
        mkdirSync(DIR, { recursive: true });
        pages.forEach((p, i) => writeFileSync(join(DIR, `${name}-${i + 1}.png`), p.png));
      }
      pages.forEach((page, i) => {
        const file = join(DIR, `${name}-${i + 1}.png`);
        expect(existsSync(file), `baseline ${file} is missing`).toBe(true);
        expect(pixelDiff(page, decodePng(readFileSync(file)))).toBeLessThanOrEqual(MAX_DIFFERING);
      });
      expect(existsSync(join(DIR, `${name}-${pages.length + 1}.png`))).toBe(false);
    });
  }
});
