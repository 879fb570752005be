/**
 * Builds what cold.ts needs: the renderer and the probe bundled exactly as the server is
 * (scripts/build-server.ts), and an input file with the parsed 1-page reference format, the data
 * of two documents and the reference PNG.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleForNode, PROJECT_ROOT } from '../../scripts/build-server.ts';
import { ZRenderableFormat } from '../../src/contract/format-content.ts';
import { IMAGE_SRC, REFERENCE_FORMATS, formatData } from './formats.ts';
import { META_DATE } from './engines/ours.ts';
import { makeGradientPng } from './png.ts';

const CACHE = join(PROJECT_ROOT, 'node_modules/.cache/formwork-bench-cold');

/** Returns the command line (after `node`) that runs one cold-start measurement. */
export async function prepareColdProbe(): Promise<string[]> {
  mkdirSync(CACHE, { recursive: true });
  const rendererBundle = join(CACHE, 'render.mjs');
  const probe = join(CACHE, 'cold.mjs');
  await bundleForNode(join(PROJECT_ROOT, 'src/render/index.ts'), rendererBundle);
  await bundleForNode(join(PROJECT_ROOT, 'bench/render/cold.ts'), probe);
  const imagePath = join(CACHE, 'reference.png');
  writeFileSync(imagePath, makeGradientPng());
  const inputPath = join(CACHE, 'input.json');
  writeFileSync(
    inputPath,
    JSON.stringify({
      rendererBundle,
      format: ZRenderableFormat.parse(REFERENCE_FORMATS['1p']),
      data: [formatData(0), formatData(1)],
      imageSrc: IMAGE_SRC,
      imagePath,
      creationDate: META_DATE.toISOString(),
    }),
  );
  return [probe, inputPath];
}
