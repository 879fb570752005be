/**
 * The file a worker thread loads for one of our thread entry points. In production it is the
 * bundle beside the server's (scripts/build-server.ts writes them); in development and tests it is
 * bundled from the TypeScript source on first use, because worker threads do not inherit a
 * TypeScript loader.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type TBuildScript = typeof import('../../../scripts/build-server.ts');

export async function threadEntryFile(sourceFromRoot: string): Promise<string> {
  const name = path.basename(sourceFromRoot, '.ts');
  const here = fileURLToPath(import.meta.url);
  const bundled = path.join(path.dirname(here), `${name}.mjs`);
  if (here.endsWith('.mjs') && existsSync(bundled)) return bundled;
  // Loaded by address, which the bundler does not follow: the build script and esbuild are only
  // needed when running from source, and must not end up inside the server bundle they make.
  const buildScript = pathToFileURL(path.resolve(path.dirname(here), '../../../scripts/build-server.ts')).href;
  const { bundleForNode, PROJECT_ROOT } = (await import(buildScript)) as TBuildScript;
  // One file per process: test files run in parallel processes and must not overwrite each other.
  const out = path.join(PROJECT_ROOT, `node_modules/.cache/formwork/${name}-${process.pid}.mjs`);
  await bundleForNode(path.join(PROJECT_ROOT, sourceFromRoot), out);
  return out;
}

/** The thread entry points, each bundled to dist/server/<name>.mjs. */
export const THREAD_ENTRIES = [
  'src/server/jobs/render-worker.ts',
  'src/server/modules/template-import/import-worker.ts',
  'src/server/modules/signing/seal/seal-worker.ts',
  'src/server/db/pglite-thread.ts',
] as const;
