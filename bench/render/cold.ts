/**
 * Cold start, as the server meets it: the first document in a fresh process. `npm start` runs the
 * server as a bundle on plain Node (scripts/build-server.ts), so run.ts bundles this probe and the
 * renderer with the same esbuild options (prepareColdProbe) and runs `node cold.mjs <input.json>`
 * with no TypeScript loader. Only Node built-ins are imported before the clock starts; the
 * renderer and its packages (zod, fontkit, ...) are all inside the measured span. The input file
 * holds what a server has at hand already: the parsed format, the data and the image bytes'
 * path. Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import type * as Renderer from '../../src/render/index.ts';

interface ColdInput {
  rendererBundle: string;
  format: Renderer.TRenderableFormat;
  data: Record<string, string>[];
  imageSrc: string;
  imagePath: string;
  creationDate: string;
}

const tStart = performance.now(); // ms since this process started (node boot before it)
const input = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ColdInput;
const assets = { [input.imageSrc]: new Uint8Array(readFileSync(input.imagePath)) };
const tInput = performance.now();
const { renderPdf } = (await import(input.rendererBundle)) as typeof Renderer;
const tImported = performance.now();
const render = (i: number) =>
  renderPdf({
    format: input.format,
    data: input.data[i] ?? {},
    assets,
    meta: { title: `Reference 1p ${input.data[i]?.number ?? ''}`, creationDate: new Date(input.creationDate) },
  }).pdf;
const pdf = render(0);
const tFirst = performance.now();
const pdf2 = render(1);
const tSecond = performance.now();
console.log(
  JSON.stringify({
    import_to_first_pdf_ms: tFirst - tInput,
    import_renderer_ms: tImported - tInput,
    bench_setup_ms: tInput - tStart,
    first_render_ms: tFirst - tImported,
    second_render_ms: tSecond - tFirst,
    process_start_to_first_pdf_ms: tFirst,
    bytes: pdf.byteLength,
    second_bytes: pdf2.byteLength,
  }),
);
