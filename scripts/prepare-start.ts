/**
 * First half of `npm start`: builds the web app if its sources changed since the last build and
 * bundles the server (a few hundred ms, so always). The npm script then execs plain Node on the
 * bundle, which migrates the database before it listens.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from './build-server.ts';
import { buildWeb } from './build-web.ts';

const root = path.resolve(import.meta.dirname, '..');
const distDir = path.join(root, 'dist/web');
const stampFile = path.join(distDir, '.build-stamp');
const inputs = ['src/web', 'src/contract', 'vite.config.ts', 'scripts/build-web.ts', 'package-lock.json'];

function sourcesStamp(): string {
  const hash = createHash('sha256');
  const visit = (target: string) => {
    if (!existsSync(target)) return;
    const stat = statSync(target);
    if (stat.isDirectory()) {
      for (const name of readdirSync(target).sort()) visit(path.join(target, name));
    } else {
      hash.update(path.relative(root, target)).update(readFileSync(target));
    }
  };
  for (const input of inputs) visit(path.join(root, input));
  return hash.digest('hex');
}

const stamp = sourcesStamp();
const upToDate = existsSync(path.join(distDir, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
if (!upToDate) {
  process.stdout.write('Building the web app (first start or sources changed)...\n');
  const started = Date.now();
  await buildWeb();
  writeFileSync(stampFile, stamp);
  process.stdout.write(`Web app built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
await buildServer();
