/**
 * Bundles the server (our TypeScript only; packages stay in node_modules) into dist/server/main.mjs,
 * so `npm start` runs plain Node without a TypeScript loader at run time. The loader's resolve hooks
 * run on a separate thread in Node 20 and made every import of a fresh process a round trip: the
 * renderer's cold start went from about 390 ms to about 240 ms without them.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { RENDER_DATA_FILES } from '../src/render/pdfa.ts';
import { THREAD_ENTRIES } from '../src/server/jobs/thread-entry.ts';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = path.join(PROJECT_ROOT, 'dist/server/main.mjs');

/** One set of bundling options, so what the benchmark loads is what the server runs. */
export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // The renderer reads its colour profiles from beside its own module, which in a bundle is the bundle.
  for (const file of RENDER_DATA_FILES) copyFileSync(path.join(PROJECT_ROOT, 'src/render', file), path.join(path.dirname(outfile), file));
}

/**
 * The server, the bulk worker process and the thread entry points, side by side in dist/server, or
 * in `out` (a test's own copy, inside the project so the bundle finds drizzle/ and node_modules).
 */
export async function buildServer(out = path.dirname(SERVER_BUNDLE)): Promise<void> {
  await Promise.all([
    bundleForNode(path.join(PROJECT_ROOT, 'src/server/main.ts'), path.join(out, path.basename(SERVER_BUNDLE))),
    bundleForNode(path.join(PROJECT_ROOT, 'src/server/worker.ts'), path.join(out, 'worker.mjs')),
    ...THREAD_ENTRIES.map((entry) => bundleForNode(path.join(PROJECT_ROOT, entry), path.join(out, `${path.basename(entry, '.ts')}.mjs`))),
  ]);
}

// Run as a script (not when bundled into the server, where render-pool.ts imports it lazily).
if (process.argv[1]?.endsWith(path.join('scripts', 'build-server.ts')) && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  await buildServer();
  process.stdout.write(`Server bundled in ${Date.now() - started} ms: ${path.relative(process.cwd(), SERVER_BUNDLE)}\n`);
}
