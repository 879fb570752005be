import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { buildServer, PROJECT_ROOT } from '../../../scripts/build-server.ts';

/**
 * The server as `npm start` and `npm run worker` run it: bundled, started with plain Node. A test
 * that starts server processes bundles its own copy once (under a second) instead of compiling the
 * sources again in each process it starts (5 to 15 s apiece on a busy two-core machine). The copy
 * sits inside the project, where the bundle finds drizzle/ and node_modules, in a folder of the
 * test's own, so nothing running from dist/ meanwhile is disturbed.
 */
export function serverBundle(label: string): { main: string; worker: string } {
  const dir = path.join(PROJECT_ROOT, `node_modules/.cache/formwork/${label}-${process.pid}`);
  beforeAll(() => buildServer(dir));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { main: path.join(dir, 'main.mjs'), worker: path.join(dir, 'worker.mjs') };
}
