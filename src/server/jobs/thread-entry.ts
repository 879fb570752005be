/**
 * The file a worker thread loads for one of our thread entry points. In production it is the
 * bundle beside the server's (scripts/build-server.ts writes them); in development and tests it is
 * bundled from the TypeScript source on first use, because worker threads do not inherit a
 * TypeScript loader.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export async function threadEntryFile(sourceFromRoot: string): Promise<string> {
  const name = path.basename(sourceFromRoot, '.ts');
  const here = fileURLToPath(import.meta.url);
  const bundled = path.join(path.dirname(here), `${name}.mjs`);
  if (here.endsWith('.mjs') && existsSync(bundled)) return bundled;
  const { bundleForNode, PROJECT_ROOT } = await import('../../../scripts/build-server.ts');
  // One file per process: test files run in parallel processes and must not overwrite each other.
  const out = path.join(PROJECT_ROOT, `node_modules/.cache/formwork/${name}-${process.pid}.mjs`);
  await bundleForNode(path.join(PROJECT_ROOT, sourceFromRoot), out);
  return out;
}

/** The thread entry points, each bundled to dist/server/<name>.mjs. */
export const THREAD_ENTRIES = ['src/server/jobs/render-worker.ts', 'src/server/modules/template-import/import-worker.ts'] as const;
