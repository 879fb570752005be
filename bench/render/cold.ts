/**
 * Cold start: run in a fresh process (as `npm start` runs the server: node with the tsx loader).
 * Measures importing our renderer (and everything it pulls in: zod, fontkit, ...) plus the first
 * render, which loads and parses the fonts it needs. The bench's own set-up between the two
 * (parsing the format object, generating the PNG: a server has those at hand) is timed apart and
 * not counted. Prints one JSON line.
 *
 *   node --import tsx bench/render/cold.ts
 */
export {};

const tStart = performance.now(); // ms since this process started (node + tsx boot before it)
// The renderer's heavy third-party imports first, one by one, so the output shows where the
// import time goes (the total is the same: each module loads once either way).
const deps: Record<string, number> = {};
for (const dep of ['zod', 'fontkit', 'linebreak', 'bidi-js', 'pngjs']) {
  const t = performance.now();
  try {
    await import(dep);
    deps[dep] = Math.round((performance.now() - t) * 10) / 10;
  } catch {
    // not a dependency (any more); ignore
  }
}
await import('../../src/render/index.ts');
const tImported = performance.now();
// The bench's own part: parse the format, make the PNG (a server has these at hand already).
const { createOursEngine } = await import('./engines/ours.ts');
const engine = await createOursEngine();
const tReady = performance.now();
const pdf = await engine.render('1p', 0);
const tFirst = performance.now();
const pdf2 = await engine.render('1p', 1);
const tSecond = performance.now();
console.log(
  JSON.stringify({
    import_to_first_pdf_ms: tImported - tStart + (tFirst - tReady),
    import_renderer_ms: tImported - tStart,
    bench_setup_ms: tReady - tImported,
    first_render_ms: tFirst - tReady,
    second_render_ms: tSecond - tFirst,
    process_start_to_first_pdf_ms: tFirst,
    import_deps_ms: deps,
    bytes: pdf.byteLength,
    second_bytes: pdf2.byteLength,
  }),
);
