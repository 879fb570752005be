/**
 * Cold start: run in a fresh process. Measures the time from the start of importing our
 * renderer (and the format/fixture code the server would have loaded anyway) to the first PDF in
 * hand. Prints one JSON line.
 *
 *   node --import tsx bench/render/cold.ts
 */
export {};

const tStart = performance.now(); // ms since this process started (node + tsx boot before it)
const { createOursEngine } = await import('./engines/ours.ts');
const engine = await createOursEngine();
const tReady = performance.now();
const pdf = await engine.render('1p', 0);
const tFirst = performance.now();
const pdf2 = await engine.render('1p', 1);
const tSecond = performance.now();
console.log(
  JSON.stringify({
    import_to_first_pdf_ms: tFirst - tStart,
    import_and_setup_ms: tReady - tStart,
    first_render_ms: tFirst - tReady,
    second_render_ms: tSecond - tFirst,
    process_start_to_first_pdf_ms: tFirst,
    bytes: pdf.byteLength,
    second_bytes: pdf2.byteLength,
  }),
);
