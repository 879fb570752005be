/**
 * Memory soak: render N reference documents (1-page, varying data) in a row in a fresh process
 * and report RSS. Prints one JSON line.
 *
 *   node --expose-gc --import tsx bench/render/soak.ts [N]
 *
 * RSS is sampled every N/20 documents without forcing a GC. "Still growing" compares the last
 * 2,000 documents (or the last fifth, on a shorter run): RSS at the end versus at the start of
 * that window, and the heap after a forced full GC at both points, so GC slack is not mistaken
 * for a leak.
 */
export {};

const n = Number(process.argv[2] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
const { createOursEngine } = await import('./engines/ours.ts');
const engine = await createOursEngine();
const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;

const window = Math.min(2_000, Math.floor(n / 5));
const windowStart = n - window;
const step = Math.max(1, Math.floor(n / 20));
const samples: { docs: number; rss_mb: number }[] = [];
let heapAtWindowStart = 0;
let rssAtWindowStart = 0;
const t0 = performance.now();
for (let i = 0; i < n; i++) {
  if (i === windowStart) {
    gc?.();
    heapAtWindowStart = process.memoryUsage().heapUsed;
    rssAtWindowStart = process.memoryUsage().rss;
  }
  await engine.render('1p', i);
  if ((i + 1) % step === 0) samples.push({ docs: i + 1, rss_mb: mb(process.memoryUsage().rss) });
}
const ms = performance.now() - t0;
const rssEnd = process.memoryUsage().rss;
gc?.();
const heapEnd = process.memoryUsage().heapUsed;
const rssGrowthMb = mb(rssEnd - rssAtWindowStart);
const heapGrowthMb = mb(heapEnd - heapAtWindowStart);
console.log(
  JSON.stringify({
    docs: n,
    ms_per_doc: ms / n,
    rss_mb_end: mb(rssEnd),
    peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    window_docs: window,
    rss_growth_mb_over_window: rssGrowthMb,
    heap_growth_mb_over_window_after_gc: gc ? heapGrowthMb : null,
    // Growing: the heap after GC rose by more than 1 MB or RSS by more than 5 MB over the window.
    still_growing: (gc ? heapGrowthMb > 1 : false) || rssGrowthMb > 5,
    samples,
  }),
);
